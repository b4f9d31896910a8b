/**
 * The differential fuzz of core's X.509 readers, small and deterministic (issue 31): 3 000
 * mutants of the test PKI's certificates and CRLs from a fixed seed, structure-aware and
 * byte-level (`src/der-mutants.ts`), with node:crypto's `X509Certificate` (OpenSSL's loader) as
 * the oracle for "loads". The readers must end in a value or a `CryptoError` on every mutant,
 * and must refuse every certificate node:crypto refuses to load. Both backends' `parseCertificate`
 * give core's verdict on a share of them. The 100 000-mutant run is
 * `scripts/x509-differential-fuzz.ts` (docs/testing.md).
 */
import type { CryptoBackend } from '@fhir-auth/core'
import { CryptoError } from '@fhir-auth/core'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { describe, expect, it } from 'vitest'
import { describeTally, runX509DifferentialFuzz } from '../src/x509-differential.js'

// A fixed seed; this one's mutants include a certificate node:crypto refuses that the readers
// accepted before RSA key parameters and BIT STRING name values were checked (the run failed).
const seed = 20_267_129
const mutants = 3_000

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')

describe(`the X.509 readers on ${mutants} mutants (seed ${seed})`, () => {
  it('end in a value or a CryptoError, and refuse what node:crypto refuses to load', () => {
    const report = runX509DifferentialFuzz({ seed, count: mutants })
    console.log(`X.509 differential fuzz, seed ${seed}: ${describeTally(report)}`)
    expect(report.untyped.map((verdict) => `${verdict.ours}: ${base64(verdict.der)}`)).toEqual([])
    expect(report.acceptedButNodeRefuses.map((verdict) => base64(verdict.der))).toEqual([])
    // The mutants reach every outcome, so the assertions above can fail.
    for (const outcome of [
      'certificate ok, node loads',
      'certificate refused, node refuses',
      'certificate refused, node loads',
      'crl ok, node n/a',
      'crl refused, node n/a',
    ]) {
      expect(report.tally.get(outcome) ?? 0, outcome).toBeGreaterThan(20)
    }
  })

  it.each([
    ['crypto-node', createNodeCryptoBackend()],
    ['crypto-webcrypto', createWebCryptoBackend()],
  ] as const)('gives the same verdicts through %s', async (_name, backend: CryptoBackend) => {
    const { verdicts } = runX509DifferentialFuzz({ seed: seed + 1, count: 300, keepVerdicts: true })
    for (const verdict of verdicts) {
      const outcome = await backend.parseCertificate(verdict.der).then(
        () => 'ok',
        (error: unknown) => (error instanceof CryptoError ? 'refused' : String(error)),
      )
      expect(outcome, base64(verdict.der)).toBe(verdict.ours)
    }
  })
})
