import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CertificateChainError, type CryptoBackend } from '@fhir-auth/core'
import { createOnlineRevocation } from '@fhir-auth/core/revocation'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import {
  type CorpusPathCertificate,
  type CrlDownloadVerdict,
  type CrlServing,
  generateRevocationCorpus,
  openSslCrlDownloadVerdict,
  type RevocationCorpusCase,
  startRevocationServer,
  usableCrlServings,
} from '@fhir-auth/test-pki/revocation'

/**
 * The differential test of fetched revocation (issue 30): a generated corpus of small PKIs
 * (`generateRevocationCorpus`: revoked or not, CRLs served, 404, stale, badly signed, …, one or
 * two distribution points or none or `ldap:`, intermediates left out with `caIssuers`) whose
 * URLs a loopback server answers, judged by fhir-auth (both backends, CRLs fetched, none given)
 * and by `openssl verify -crl_download -crl_check_all -x509_strict -partial_chain`. Every case
 * is classified: the two agree, or the disagreement is one of {@link crlDownloadDisagreements}
 * (each with the reason fhir-auth decides otherwise), or OpenSSL is not run on it
 * ({@link notRunReason}), or it is unexplained, which the test and the script fail on.
 *
 * fhir-auth's verdicts are also held to what the corpus says they must be (a usable CRL from
 * some distribution point of every certificate, nobody revoked, every left-out intermediate
 * served), so an agreement cannot hide a mistake both sides make.
 */

/** One written disagreement: fhir-auth decides otherwise than OpenSSL, and why. */
export interface CrlDownloadDisagreement {
  readonly id: string
  readonly reason: string
  /** Whether it explains this case, where fhir-auth accepted and OpenSSL refused. */
  readonly explains: (entry: RevocationCorpusCase, theirs: CrlDownloadRefusal) => boolean
}

type CrlDownloadRefusal = Extract<CrlDownloadVerdict, { ok: false }>

const usable = (serving: CrlServing | undefined) =>
  serving !== undefined && usableCrlServings.includes(serving)

/** The first `http:` distribution point, the only one `openssl verify -crl_download` fetches. */
const firstHttpPoint = (certificate: CorpusPathCertificate) =>
  certificate.distributionPoints.find((point) => point.serving !== undefined)

/** X509_V_ERR_UNABLE_TO_GET_CRL, _CRL_SIGNATURE_FAILURE, _CRL_NOT_YET_VALID, _CRL_HAS_EXPIRED. */
const crlErrorCodes = [3, 8, 11, 12]
/** X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, _UNABLE_TO_GET_ISSUER_CERT_LOCALLY. */
const missingIssuerCodes = [2, 20]

export const crlDownloadDisagreements: readonly CrlDownloadDisagreement[] = [
  {
    // apps/lib/apps.c load_crl_crldp: the first distribution point with an http URL is
    // downloaded and no other; RFC 5280 §4.2.1.13 lets a relying party use any point of the
    // certificate, and fhir-auth tries each in order until one gives a usable CRL.
    id: 'first-distribution-point-only',
    reason: 'OpenSSL downloads from the first HTTP distribution point only',
    explains: (entry, theirs) => {
      const certificate = entry.path[theirs.depth]
      if (certificate === undefined || !crlErrorCodes.includes(theirs.code)) return false
      const first = firstHttpPoint(certificate)
      return (
        first !== undefined &&
        !usable(first.serving) &&
        certificate.distributionPoints.some((point) => usable(point.serving))
      )
    },
  },
  {
    // `openssl verify` builds paths from what it is given; fhir-auth fetches a left-out
    // intermediate from the AIA caIssuers URL (RFC 5280 §4.2.2.1) and checks it like the rest.
    id: 'ca-issuers-not-fetched',
    reason: 'openssl verify does not fetch AIA caIssuers',
    explains: (entry, theirs) =>
      missingIssuerCodes.includes(theirs.code) &&
      theirs.depth === entry.chainDer.length - 1 &&
      entry.chainDer.length < entry.path.length,
  },
]

/** Why OpenSSL is not run on a case whose first HTTP distribution point never answers. */
export const notRunReason = 'hanging-distribution-point'

/** What fhir-auth must answer, by the corpus: every source it may use, in order. */
export function expectedToAccept(entry: RevocationCorpusCase): boolean {
  // The left-out intermediates come, one after the other, from the caIssuers URL of the
  // certificate below each.
  const completes = entry.path
    .slice(entry.chainDer.length - 1, -1)
    .every((certificate) => certificate.caIssuers === 'der' || certificate.caIssuers === 'pkcs7')
  return (
    completes &&
    entry.path.every(
      (certificate) =>
        !certificate.revoked &&
        certificate.distributionPoints.some((point) => usable(point.serving)),
    )
  )
}

/** Whether `openssl verify -crl_download` would wait forever on this case. */
export function openSslWouldHang(entry: RevocationCorpusCase): boolean {
  return entry.path.some((certificate) => firstHttpPoint(certificate)?.serving === 'hangs')
}

/** One judged case. */
export interface JudgedRevocationCase {
  readonly entry: RevocationCorpusCase
  /** `ok` or the `CertificateChainError` reason, crypto-node backend. */
  readonly ours: string
  /** The same with the WebCrypto backend. */
  readonly oursWebCrypto: string
  /** OpenSSL's verdict; `undefined` when not run. */
  readonly theirs: CrlDownloadVerdict | undefined
  /** `agree`, a {@link CrlDownloadDisagreement} id, {@link notRunReason}, or `unexplained`. */
  readonly classification: string
}

export interface CrlDownloadReport {
  readonly seed: string
  readonly judged: readonly JudgedRevocationCase[]
  readonly openSslVersion: string
}

/** `first-distribution-point-only`, … for a disagreement; `agree`; or `unexplained`. */
export function classify(
  entry: RevocationCorpusCase,
  ours: string,
  theirs: CrlDownloadVerdict | undefined,
): string {
  if (theirs === undefined) return notRunReason
  if ((ours === 'ok') === theirs.ok) return 'agree'
  if (ours !== 'ok' || theirs.ok) return 'unexplained'
  return (
    crlDownloadDisagreements.find((disagreement) => disagreement.explains(entry, theirs))?.id ??
    'unexplained'
  )
}

async function verdictOf(
  backend: CryptoBackend,
  entry: RevocationCorpusCase,
  timeoutMs: number,
): Promise<string> {
  try {
    await backend.verifyCertificateChain({
      chain: entry.chainDer,
      trustAnchors: [entry.anchorDer],
      crls: [],
      at: new Date(),
      revocation: createOnlineRevocation({ timeoutMs }),
    })
    return 'ok'
  } catch (error) {
    if (!CertificateChainError.isInstance(error)) throw error
    return error.reason
  }
}

/** Runs `work` on every item, `concurrency` at a time, keeping the order of `items`. */
export async function mapConcurrently<Item, Result>(
  items: readonly Item[],
  concurrency: number,
  work: (item: Item) => Promise<Result>,
): Promise<Result[]> {
  const results: Result[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++)
      results[index] = await work(items[index] as Item)
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return results
}

/**
 * Generates `size` cases for `seed` (from case `first`), serves them on a loopback server and
 * judges each with both backends and with OpenSSL (`concurrency` at a time). The fetch timeout
 * is what a hanging distribution point costs fhir-auth.
 */
export async function runCrlDownloadDifferential(options: {
  readonly seed: string
  readonly size: number
  readonly first?: number
  readonly openSslVersion: string
  readonly concurrency?: number
  readonly timeoutMs?: number
}): Promise<CrlDownloadReport> {
  const concurrency = options.concurrency ?? 4
  const timeoutMs = options.timeoutMs ?? 5_000
  const server = await startRevocationServer()
  const directory = await mkdtemp(join(tmpdir(), 'fhir-auth-crl-download-corpus-'))
  try {
    const corpus = await generateRevocationCorpus({
      seed: options.seed,
      size: options.size,
      origin: server.origin,
      now: new Date(),
      ...(options.first === undefined ? {} : { first: options.first }),
    })
    for (const document of corpus.documents)
      server.serve(document.path, document.body, document.contentType)
    const node = createNodeCryptoBackend()
    const webCrypto = createWebCryptoBackend()
    const judged = await mapConcurrently(corpus.cases, concurrency, async (entry) => {
      const [ours, oursWebCrypto] = await Promise.all([
        verdictOf(node, entry, timeoutMs),
        verdictOf(webCrypto, entry, timeoutMs),
      ])
      const theirs = openSslWouldHang(entry)
        ? undefined
        : await openSslCrlDownloadVerdict(
            { chainDer: entry.chainDer, trustAnchorsDer: [entry.anchorDer] },
            join(directory, entry.name),
          )
      return { entry, ours, oursWebCrypto, theirs, classification: classify(entry, ours, theirs) }
    })
    return { seed: options.seed, judged, openSslVersion: options.openSslVersion }
  } finally {
    await server.stop()
    await rm(directory, { recursive: true, force: true })
  }
}

/** Cases that break a promise: unexplained, off the corpus's expectation, or backends apart. */
export function brokenPromises(report: CrlDownloadReport): string[] {
  const broken: string[] = []
  for (const { entry, ours, oursWebCrypto, theirs, classification } of report.judged) {
    const label = `${entry.name} [${entry.tags.join(' ') || 'plain'}]`
    if (classification === 'unexplained')
      broken.push(`${label}: unexplained: fhir-auth ${ours}, openssl ${describeOpenSsl(theirs)}`)
    if ((ours === 'ok') !== expectedToAccept(entry))
      broken.push(`${label}: fhir-auth ${ours}, the corpus expects the opposite`)
    if (ours !== oursWebCrypto)
      broken.push(`${label}: crypto-node ${ours}, crypto-webcrypto ${oursWebCrypto}`)
  }
  return broken
}

/** The tally of a classification or of fhir-auth's verdicts, most frequent first. */
export function tally(values: readonly string[]): [string, number][] {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts].sort((left, right) => right[1] - left[1])
}

/** The fhir-auth reasons an OpenSSL error of this corpus corresponds to (`X509_V_ERR_*`). */
const reasonsByOpenSslCode: Readonly<Record<number, string>> = {
  2: 'no-path',
  3: 'revocation-unavailable',
  8: 'revocation-unavailable',
  11: 'revocation-unavailable',
  12: 'revocation-unavailable',
  20: 'no-path',
  23: 'revoked',
}

/**
 * `N/N agree; disagreements: …; not run: …; both refuse N, for the same reason M; fhir-auth
 * verdicts: …`.
 */
export function describeCrlDownloadReport(report: CrlDownloadReport): string {
  const compared = report.judged.filter((judged) => judged.theirs !== undefined)
  const agreeing = compared.filter((judged) => judged.classification === 'agree').length
  const disagreements = tally(
    compared
      .map((judged) => judged.classification)
      .filter((classification) => classification !== 'agree'),
  )
  const notRun = report.judged.length - compared.length
  const refusedByBoth = compared.filter((judged) => judged.ours !== 'ok' && !judged.theirs?.ok)
  const sameReason = refusedByBoth.filter(
    (judged) =>
      judged.theirs?.ok === false && reasonsByOpenSslCode[judged.theirs.code] === judged.ours,
  )
  const list = (entries: [string, number][]) =>
    entries.map(([name, count]) => `${name} ${count}`).join(', ') || 'none'
  return [
    `${agreeing}/${compared.length} agree with ${report.openSslVersion} (seed "${report.seed}", ${report.judged.length} cases)`,
    `disagreements: ${list(disagreements)}`,
    `not run (${notRunReason}): ${notRun}`,
    `both refuse ${refusedByBoth.length}, for the same reason ${sameReason.length} (the others break several rules, checked in another order)`,
    `fhir-auth verdicts: ${list(tally(report.judged.map((judged) => judged.ours)))}`,
  ].join('; ')
}

function describeOpenSsl(verdict: CrlDownloadVerdict | undefined): string {
  if (verdict === undefined) return 'not run'
  return verdict.ok ? 'OK' : `error ${verdict.code} at depth ${verdict.depth}: ${verdict.text}`
}
