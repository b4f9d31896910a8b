/**
 * The README's "Install from a checkout", run as a user runs it: the published packages packed
 * with `pnpm pack:all`'s script into `fhir-auth/packs/`, then the README's own commands in a new
 * folder beside it (`npm init -y`, `npm install ../fhir-auth/packs/*.tgz`) and its `index.mjs`,
 * which imports `Client` from `@fhir-auth/client` and constructs one. npm fetches the third-party
 * dependencies (node-forge, pkijs, asn1js, redis) from the npm registry, cached after a first run.
 *
 * The build is `pnpm pack:all`'s first half (`turbo run build`); CI has built before the tests, and
 * {@link ensureFreshBuild} rebuilds a stale checkout, so this runs the second half only.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ensureFreshBuild, publishedPackages } from './support/fresh-build.js'
import { runCommand } from './support/run-command.js'

const root = join(import.meta.dirname, '..', '..', '..')
const scratch = mkdtempSync(join(tmpdir(), 'fhir-auth-install-from-checkout-'))

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** The fenced blocks of the README's "Install from a checkout" section, in order. */
function installSectionBlocks(): { readonly language: string; readonly code: string }[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const start = readme.indexOf('\n## Install from a checkout\n')
  expect(start, 'README.md has an "Install from a checkout" section').toBeGreaterThan(-1)
  const end = readme.indexOf('\n## ', start + 1)
  const section = readme.slice(start, end === -1 ? undefined : end)
  return [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((match) => ({
    language: match[1] as string,
    code: match[2] as string,
  }))
}

async function timed(step: string, command: string, commandArguments: string[], cwd: string) {
  const started = performance.now()
  const run = await runCommand(command, commandArguments, { cwd, timeoutMs: 240_000 })
  console.info(`${step}: ${Math.round(performance.now() - started)} ms`)
  expect(run.exitCode, `${step}\n${run.output}`).toBe(0)
  return run.output
}

describe('README "Install from a checkout"', () => {
  it('npm installs the packed tarballs into an empty project, which imports and constructs Client', async () => {
    const [checkoutBlock, projectBlock, programBlock] = installSectionBlocks()
    expect(checkoutBlock?.code).toContain('npx -y pnpm@10 pack:all')
    expect(projectBlock?.language).toBe('sh')
    expect(programBlock?.language).toBe('js')

    await ensureFreshBuild(root)
    const checkout = join(scratch, 'fhir-auth')
    const packs = join(checkout, 'packs')
    mkdirSync(checkout)
    await timed('pack', 'node', ['scripts/pack-all.mjs', '--destination', packs], root)
    const tarballs = readdirSync(packs).filter((name) => name.endsWith('.tgz'))
    expect(tarballs).toHaveLength(publishedPackages.length)

    // The README's commands as they stand, one shell, from the checkout folder.
    const commands = (projectBlock?.code ?? '')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))
      .join(' && ')
    await timed('project commands', 'sh', ['-c', commands], checkout)

    const project = join(scratch, 'my-app')
    const installed = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>
    }
    expect(Object.keys(installed.dependencies).sort()).toEqual(
      publishedPackages.map((name) => `@fhir-auth/${name}`).sort(),
    )
    const clientManifest = JSON.parse(
      readFileSync(join(project, 'node_modules', '@fhir-auth', 'client', 'package.json'), 'utf8'),
    ) as { version: string; dependencies: Record<string, string> }
    expect(clientManifest.dependencies['@fhir-auth/core']).toBe(`^${clientManifest.version}`)

    writeFileSync(join(project, 'index.mjs'), programBlock?.code ?? '')
    const output = await timed('node index.mjs', 'node', ['index.mjs'], project)
    expect(output.trim()).toBe('public https://ehr.example.org/fhir')
  }, 300_000)
})
