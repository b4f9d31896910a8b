import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { CertificateChainError, type CryptoBackend } from '@fhir-auth/core'
import { createOnlineRevocation } from '@fhir-auth/core/revocation'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import {
  authorizedOcspSigners,
  type OcspCorpusCase,
  startOcspCorpusCase,
} from '@fhir-auth/test-pki/revocation'
import { mapConcurrently, tally } from './crl-download-differential.js'

const run = promisify(execFile)

/**
 * The differential test of OCSP answers (issue 30): generated cases (`startOcspCorpusCase`: a
 * real `openssl ocsp` responder per case, answering good, revoked or unknown, signed by the
 * issuer, a delegated responder or a key never delegated to, with or without its certificate,
 * by name or by key) judged by fhir-auth (both backends; the leaf's status by OCSP, the
 * intermediate's from the root's CRL) and by the `openssl ocsp` client
 * (`-issuer … -cert … -url … -CAfile …`: the status it prints, and whether it verified the
 * answer). The two must say the same of every case: good, revoked, or no answer (an answer
 * OpenSSL cannot verify, or `unknown`). fhir-auth's verdict must also be the one the case
 * predicts.
 */

/** What a validation or `openssl ocsp` made of the leaf's status. */
export type OcspOutcome = 'good' | 'revoked' | 'no-answer'

/** One judged case. */
export interface JudgedOcspCase {
  readonly name: string
  readonly tags: readonly string[]
  /** `ok` or the `CertificateChainError` reason (crypto-node), then the WebCrypto backend's. */
  readonly ours: string
  readonly oursWebCrypto: string
  /** What the `openssl ocsp` client printed: verified or not, and the status. */
  readonly theirs: { readonly verified: boolean; readonly status: string }
  readonly expected: OcspOutcome
}

export interface OcspDifferentialReport {
  readonly seed: string
  readonly judged: readonly JudgedOcspCase[]
  readonly openSslVersion: string
}

/** fhir-auth's verdict as an {@link OcspOutcome}. */
export const outcomeOfReason = (reason: string): OcspOutcome | undefined =>
  (({ ok: 'good', revoked: 'revoked', 'revocation-unavailable': 'no-answer' }) as const)[
    reason as 'ok'
  ]

/** `openssl ocsp`'s answer as an {@link OcspOutcome}: a status counts only when verified. */
export function openSslOutcome(theirs: JudgedOcspCase['theirs']): OcspOutcome {
  if (!theirs.verified) return 'no-answer'
  return theirs.status === 'good' || theirs.status === 'revoked' ? theirs.status : 'no-answer'
}

/** What the case predicts: an authorized signer's status, else no answer. */
export function expectedOcspOutcome(entry: OcspCorpusCase): OcspOutcome {
  const authorized =
    authorizedOcspSigners.includes(entry.signer) &&
    // A delegated responder's answer without its certificate cannot be checked.
    (entry.signer === 'issuer' || entry.answerCarriesCertificate)
  if (!authorized || entry.status === 'unknown') return 'no-answer'
  return entry.status
}

async function verdictOf(backend: CryptoBackend, entry: OcspCorpusCase): Promise<string> {
  try {
    await backend.verifyCertificateChain({
      chain: entry.chainDer,
      trustAnchors: [entry.anchorPem],
      crls: [entry.rootCrlPem],
      at: new Date(),
      revocation: createOnlineRevocation({ timeoutMs: 10_000 }),
    })
    return 'ok'
  } catch (error) {
    if (!CertificateChainError.isInstance(error)) throw error
    return error.reason
  }
}

/** `openssl ocsp -issuer … -cert … -url … -CAfile … -no_nonce`: verified or not, and the status. */
async function openSslOcsp(
  entry: OcspCorpusCase,
  directory: string,
): Promise<JudgedOcspCase['theirs']> {
  await mkdir(directory, { recursive: true })
  const file = (name: string) => join(directory, name)
  await writeFile(file('issuer.pem'), entry.issuerPem)
  await writeFile(file('leaf.pem'), entry.leafPem)
  await writeFile(file('anchor.pem'), entry.anchorPem)
  const args = ['ocsp', '-issuer', file('issuer.pem'), '-cert', file('leaf.pem')]
  args.push('-url', entry.responderUrl, '-CAfile', file('anchor.pem'), '-no_nonce')
  const { stdout, stderr } = await run('openssl', args, { timeout: 30_000 }).catch(
    (error: { stdout?: string; stderr?: string }) => ({
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? '',
    }),
  )
  const status = /: (good|revoked|unknown)\n/.exec(stdout)?.[1]
  if (status === undefined) throw new Error(`openssl ocsp gave no status: ${stdout}${stderr}`)
  return { verified: /^Response verify OK$/m.test(stderr), status }
}

/**
 * Judges cases `0 … size - 1` of `seed`, `concurrency` at a time (each with its own responder,
 * started for it and stopped after it).
 */
export async function runOcspDifferential(options: {
  readonly seed: string
  readonly size: number
  readonly openSslVersion: string
  readonly concurrency?: number
}): Promise<OcspDifferentialReport> {
  const directory = await mkdtemp(join(tmpdir(), 'fhir-auth-ocsp-corpus-'))
  const node = createNodeCryptoBackend()
  const webCrypto = createWebCryptoBackend()
  const indices = Array.from({ length: options.size }, (_, index) => index)
  try {
    const judged = await mapConcurrently(indices, options.concurrency ?? 4, async (index) => {
      const entry = await startOcspCorpusCase({ seed: options.seed, index, now: new Date() })
      try {
        const ours = await verdictOf(node, entry)
        const oursWebCrypto = await verdictOf(webCrypto, entry)
        const theirs = await openSslOcsp(entry, join(directory, entry.name))
        return {
          name: entry.name,
          tags: entry.tags,
          ours,
          oursWebCrypto,
          theirs,
          expected: expectedOcspOutcome(entry),
        }
      } finally {
        await entry.stop()
      }
    })
    return { seed: options.seed, judged, openSslVersion: options.openSslVersion }
  } finally {
    await rm(directory, { recursive: true, force: true })
  }
}

/** Cases where fhir-auth and OpenSSL differ, the case's prediction is missed, or the backends differ. */
export function ocspBrokenPromises(report: OcspDifferentialReport): string[] {
  const broken: string[] = []
  for (const judged of report.judged) {
    const label = `${judged.name} [${judged.tags.join(' ')}]`
    const ours = outcomeOfReason(judged.ours)
    const theirs = `openssl ${judged.theirs.verified ? 'verified' : 'could not verify'} ${judged.theirs.status}`
    if (ours !== openSslOutcome(judged.theirs))
      broken.push(`${label}: fhir-auth ${judged.ours}, ${theirs}`)
    if (ours !== judged.expected)
      broken.push(`${label}: fhir-auth ${judged.ours}, the case predicts ${judged.expected}`)
    if (judged.ours !== judged.oursWebCrypto)
      broken.push(`${label}: crypto-node ${judged.ours}, crypto-webcrypto ${judged.oursWebCrypto}`)
  }
  return broken
}

/** `N/N agree with OpenSSL …; outcomes: …`. */
export function describeOcspReport(report: OcspDifferentialReport): string {
  const agreeing = report.judged.filter(
    (judged) => outcomeOfReason(judged.ours) === openSslOutcome(judged.theirs),
  ).length
  const outcomes = tally(report.judged.map((judged) => openSslOutcome(judged.theirs)))
    .map(([outcome, count]) => `${outcome} ${count}`)
    .join(', ')
  return `${agreeing}/${report.judged.length} agree with the ${report.openSslVersion} ocsp client (seed "${report.seed}"); outcomes: ${outcomes}`
}
