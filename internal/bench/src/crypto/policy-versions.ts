/**
 * The certificate path policy before RFC 5280's key usage, path length, name constraints and
 * critical-extension rules (DESIGN §11, issue 15) and now: core's `src/` at commit
 * {@link policyBaselineCommit}, taken from the repository's history with `git archive`, and the
 * working tree's, each bundled by esbuild into one module with the same settings. The bench
 * compares the exact old code (not a copy that could drift) built the same way as the new, so
 * the ratio measures the code and not the module loader (code loaded through tsx's source
 * transform runs about twice as slowly as the same code bundled). Needs a clone with history
 * (`git` and `tar` on PATH).
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import type { VerifiedCertificateChain } from '@fhir-auth/core'
import type {
  ChainValidationInput,
  ParsedCertificate,
  ParsedCrl,
  SignatureVerifier,
} from '@fhir-auth/core/internal'
import { build } from 'esbuild'
import { repositoryRoot } from '../workspace-paths.js'

const run = promisify(execFile)

/** The last commit of `main` before issue 15 changed the path policy. */
export const policyBaselineCommit = '0f376202616f8e8a3743e971dbb951ed0d9009a4'

/** The parts of `@fhir-auth/core/internal` a chain check uses, in either version. */
export interface PathPolicyModule {
  readonly parseCertificate: (der: Uint8Array) => ParsedCertificate
  readonly parseCrl: (der: Uint8Array) => ParsedCrl
  readonly validateCertificateChain: (
    input: ChainValidationInput,
    verify: SignatureVerifier,
  ) => Promise<VerifiedCertificateChain>
}

/** Both versions of the policy, built the same way. */
export interface PathPolicyVersions {
  readonly before: PathPolicyModule
  readonly now: PathPolicyModule
}

/**
 * Bundles core's `internal.ts` at {@link policyBaselineCommit} and in the working tree.
 *
 * @throws Error when git cannot produce that commit (a shallow clone) or a bundle fails.
 */
export async function loadPolicyVersions(): Promise<PathPolicyVersions> {
  const directory = await mkdtemp(join(tmpdir(), 'fhir-auth-policy-versions-'))
  try {
    const archive = join(directory, 'core.tar')
    const checkout = join(directory, 'before')
    await run('git', [
      '-C',
      repositoryRoot,
      'archive',
      `--output=${archive}`,
      `--prefix=before/`,
      policyBaselineCommit,
      'packages/core/src',
    ])
    await run('tar', ['-xf', archive, '-C', directory])
    return {
      before: await bundled(join(checkout, 'packages', 'core', 'src', 'internal.ts'), directory),
      now: await bundled(join(repositoryRoot, 'packages', 'core', 'src', 'internal.ts'), directory),
    }
  } finally {
    await rm(directory, { recursive: true, force: true })
  }
}

let bundles = 0

async function bundled(entry: string, directory: string): Promise<PathPolicyModule> {
  const outfile = join(directory, `policy-${bundles++}.mjs`)
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    outfile,
    logLevel: 'silent',
  })
  return (await import(pathToFileURL(outfile).href)) as PathPolicyModule
}
