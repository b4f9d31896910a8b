import { X509Certificate } from 'node:crypto'
import { CryptoError } from '@fhir-auth/core'
import { parseCertificate, parseCrl } from '@fhir-auth/core/backend'
import { pathRuleLeaves, testPki } from '@fhir-auth/test-pki'
import fc from 'fast-check'
import { derMutants } from './der-mutants.js'

/**
 * The differential fuzz of core's X.509 readers (issue 31): mutants of the test PKI's
 * certificates and CRLs (`derMutants`) are read by `parseCertificate` / `parseCrl` and, for
 * certificates, by node:crypto's `X509Certificate` (OpenSSL's loader) as the oracle for
 * "loads". Two promises are checked on every mutant:
 *
 * - the readers end in a value or a `CryptoError`, never another exception;
 * - a certificate node:crypto refuses to load is refused too (refusing more is allowed: the
 *   readers are stricter than OpenSSL's loader, for example about DER minimality, times and
 *   the unused bits of a unique identifier).
 *
 * Node has no CRL reader, so CRL mutants are checked for the first promise only.
 */

/** What one mutant did. */
export interface MutantVerdict {
  readonly kind: 'certificate' | 'crl'
  /** `ok`, `refused` (a `CryptoError`) or `untyped: <error name and message>`. */
  readonly ours: string
  /** `loads`, `refuses`, or `n/a` for CRLs. */
  readonly node: 'loads' | 'refuses' | 'n/a'
  readonly der: Uint8Array
}

/** Tallies of a run, and the mutants that broke a promise. */
export interface FuzzReport {
  readonly mutants: number
  readonly tally: ReadonlyMap<string, number>
  /** Mutants whose reader threw something other than a `CryptoError`. */
  readonly untyped: readonly MutantVerdict[]
  /** Certificates node:crypto refuses to load that the parser accepted. */
  readonly acceptedButNodeRefuses: readonly MutantVerdict[]
  /** Every verdict, when the run was asked to keep them (`keepVerdicts`). */
  readonly verdicts: readonly MutantVerdict[]
}

/** The documents mutated, certificates and CRLs apart: every certificate and CRL of the test PKI. */
export function fuzzSeeds(): { readonly certificates: Uint8Array[]; readonly crls: Uint8Array[] } {
  const certificates = new Map<string, Uint8Array>()
  for (const authority of Object.values(testPki.authorities))
    certificates.set(authority.pem, authority.der)
  for (const leaf of Object.values(testPki.leaves))
    for (const der of leaf.chainDer) certificates.set(String(der), der)
  for (const entry of pathRuleLeaves)
    for (const der of entry.chainDer) certificates.set(String(der), der)
  const crls = new Map<string, Uint8Array>()
  for (const crl of Object.values(testPki.crls)) crls.set(crl.pem, crl.der)
  for (const entry of pathRuleLeaves) for (const der of entry.crlsDer) crls.set(String(der), der)
  return { certificates: [...certificates.values()], crls: [...crls.values()] }
}

function ourVerdict(read: () => unknown): string {
  try {
    read()
    return 'ok'
  } catch (error) {
    if (error instanceof CryptoError) return 'refused'
    return `untyped: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`
  }
}

function nodeVerdict(der: Uint8Array): 'loads' | 'refuses' {
  try {
    new X509Certificate(der)
    return 'loads'
  } catch {
    return 'refuses'
  }
}

/** Judges one mutant. */
export function judgeMutant(kind: 'certificate' | 'crl', der: Uint8Array): MutantVerdict {
  if (kind === 'crl') return { kind, ours: ourVerdict(() => parseCrl(der)), node: 'n/a', der }
  return { kind, ours: ourVerdict(() => parseCertificate(der)), node: nodeVerdict(der), der }
}

/**
 * Runs `count` mutants, two thirds certificates and one third CRLs, drawn from `seed` (a
 * fast-check seed: the same seed gives the same mutants), in batches of 500.
 */
export function runX509DifferentialFuzz(options: {
  readonly seed: number
  readonly count: number
  readonly keepVerdicts?: boolean
}): FuzzReport {
  const seeds = fuzzSeeds()
  const arbitraries = {
    certificate: fc.oneof(...seeds.certificates.map((der) => derMutants(der, seeds.certificates))),
    crl: fc.oneof(
      ...seeds.crls.map((der) => derMutants(der, [...seeds.crls, ...seeds.certificates])),
    ),
  }
  const tally = new Map<string, number>()
  const untyped: MutantVerdict[] = []
  const acceptedButNodeRefuses: MutantVerdict[] = []
  const verdicts: MutantVerdict[] = []
  const batch = 500
  for (let start = 0; start < options.count; start += batch) {
    const kind = (start / batch) % 3 === 2 ? 'crl' : 'certificate'
    const mutants = fc.sample(arbitraries[kind], {
      seed: options.seed + start,
      numRuns: Math.min(batch, options.count - start),
    })
    for (const der of mutants) {
      const verdict = judgeMutant(kind, der)
      const key = `${kind} ${verdict.ours.startsWith('untyped') ? 'untyped' : verdict.ours}, node ${verdict.node}`
      tally.set(key, (tally.get(key) ?? 0) + 1)
      if (verdict.ours.startsWith('untyped')) untyped.push(verdict)
      if (verdict.ours === 'ok' && verdict.node === 'refuses') acceptedButNodeRefuses.push(verdict)
      if (options.keepVerdicts) verdicts.push(verdict)
    }
  }
  return { mutants: options.count, tally, untyped, acceptedButNodeRefuses, verdicts }
}

/** One line per tally entry, sorted, for logs. */
export function describeTally(report: FuzzReport): string {
  return [...report.tally]
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([key, count]) => `${key}: ${count}`)
    .join('; ')
}
