import { CertificateChainError, type CryptoBackend } from '@fhir-auth/core'
import {
  pathRuleLeaves,
  type TestLeafName,
  testPki,
  testPkiReferenceTime,
} from '@fhir-auth/test-pki'
import { describe, expect, it } from 'vitest'
import { prepareUdapSigner } from '../../src/index.js'

/**
 * Registers one test per path-rule fixture: `prepareUdapSigner` accepts the chains whose own
 * check is `ok` (and signs with them) and refuses the others with `CertificateChainError`, its
 * reason and the subject of the certificate it is about, before any signing.
 */
export function describeOwnChainChecks(name: string, backend: () => CryptoBackend): void {
  describe(`prepareUdapSigner checks its own chain (${name})`, () => {
    for (const entry of pathRuleLeaves) {
      it(`${entry.name}: ${entry.expectedOwnChain}`, async () => {
        let signed = false
        const outcome = await prepareUdapSigner({
          crypto: backend(),
          privateKey: entry.privateKeyPkcs8Pem,
          certificateChain: entry.chainDer,
          clientUri: entry.sanUris[0] ?? '',
          advertisedAlgorithms: ['ES256'],
          now: testPkiReferenceTime,
        }).then(
          async ({ signer }) => {
            await signer.sign(new Uint8Array([1, 2, 3]))
            signed = true
            return { reason: 'ok', subject: undefined }
          },
          (error: unknown) => {
            if (!(error instanceof CertificateChainError)) throw error
            expect(error.message).toContain('refused before anything is signed')
            return { reason: error.reason, subject: error.subject }
          },
        )
        expect(outcome.reason).toBe(entry.expectedOwnChain)
        expect(signed).toBe(entry.expectedOwnChain === 'ok')
        if (entry.expectedOwnChain !== 'ok') expect(outcome.subject).toBe(entry.failingSubject)
      })
    }

    // The main test PKI, judged without trust and revocation: only what the chain itself shows.
    const mainCases: Readonly<Record<string, string>> = {
      'rsa-client': 'ok',
      'ec-p256-client': 'ok',
      revoked: 'ok',
      'under-revoked-intermediate': 'ok',
      untrusted: 'ok',
      'stale-crl': 'ok',
      'missing-issuer': 'ok',
      expired: 'expired',
      'not-yet-valid': 'not-yet-valid',
      'wrong-order': 'order',
      'not-a-ca': 'not-a-ca',
      'bad-signature': 'bad-signature',
    }
    for (const [leafName, expected] of Object.entries(mainCases)) {
      it(`main test PKI ${leafName}: ${expected}`, async () => {
        const leaf = testPki.leaves[leafName as TestLeafName]
        const reason = await prepareUdapSigner({
          crypto: backend(),
          privateKey: leaf.privateKeyPkcs8Pem,
          certificateChain: leaf.chainDer,
          clientUri: leaf.sanUris[0] ?? '',
          advertisedAlgorithms: ['RS256', 'ES256', 'ES384'],
          now: testPkiReferenceTime,
        }).then(
          () => 'ok',
          (error: unknown) => {
            if (!(error instanceof CertificateChainError)) throw error
            return error.reason
          },
        )
        expect(reason).toBe(expected)
      })
    }
  })
}
