/**
 * The differential test of OCSP answers, small and deterministic (issue 30): 40 generated cases
 * from a fixed seed, each with a real `openssl ocsp` responder started for it on a free loopback
 * port and stopped by PID (good, revoked or unknown; signed by the issuer, a delegated responder,
 * or a key never delegated to: no OCSPSigning purpose, delegated by the root, expired, a
 * stranger, the root; with or without its certificate; by name or by key; three digests),
 * judged by both backends and by the `openssl ocsp` client (`-issuer … -cert … -url …
 * -CAfile …`). Both must say the same of every case (good, revoked, or no answer), and fhir-auth
 * what the case predicts. The 200-case run is `scripts/ocsp-differential.ts` (docs/testing.md).
 * Skipped, saying so, only without `openssl`.
 */
import { openSslVersion } from '@fhir-auth/test-pki/revocation'
import { describe, expect, it } from 'vitest'
import {
  describeOcspReport,
  ocspBrokenPromises,
  openSslOutcome,
  runOcspDifferential,
} from '../src/ocsp-differential.js'

// A fixed seed whose first 40 cases reach every signer, status and outcome.
const seed = 'fhir-auth ocsp corpus 1'
const size = 40
const version = await openSslVersion()
if (version === undefined) {
  console.warn(
    'openssl is not installed: the openssl ocsp differential test is SKIPPED (install Debian openssl to run it)',
  )
}

describe.skipIf(version === undefined)(`OCSP answers agree with the ${version} ocsp client`, () => {
  it(`on ${size} generated responders (seed "${seed}")`, async () => {
    const report = await runOcspDifferential({
      seed,
      size,
      openSslVersion: version as string,
      concurrency: 2,
    })
    console.log(`OCSP differential: ${describeOcspReport(report)}`)
    expect(ocspBrokenPromises(report)).toEqual([])
    // Every choice and every outcome is reached, so the checks above can fail.
    const tags = new Set(report.judged.flatMap((judged) => judged.tags))
    for (const tag of [
      'signer:issuer',
      'signer:delegated',
      'signer:delegated-without-purpose',
      'signer:delegated-by-root',
      'signer:delegated-expired',
      'signer:stranger',
      'signer:root',
      'status:good',
      'status:revoked',
      'status:unknown',
      'no-certificates',
      'responder-by-key',
    ])
      expect(tags, tag).toContain(tag)
    const outcomes = new Set(report.judged.map((judged) => openSslOutcome(judged.theirs)))
    expect([...outcomes].sort()).toEqual(['good', 'no-answer', 'revoked'])
  }, 60_000)
})
