import { base64Decode, CertificateChainError, type CryptoBackend } from '@fhir-auth/core'
import { createOnlineRevocation } from '@fhir-auth/core/revocation'
import type { OcspCaseName } from '@fhir-auth/test-pki/revocation'
import { describe, expect, inject, it } from 'vitest'
import { countingFetch } from './counting-fetch.js'

const day = 24 * 3_600_000

/**
 * Registers the OCSP cases (issue 30) for one backend: revocation by OCSP (RFC 6960) when no
 * CRL can be had, with `openssl ocsp` as the real responder behind the loopback server of the
 * global setup, asked with the runtime's own `fetch`. The intermediate's status comes from an
 * answer its issuer (the root) signed, the leaves' from a responder the intermediate delegated
 * to (id-kp-OCSPSigning).
 */
export function describeOcspRevocation(name: string, backend: () => CryptoBackend): void {
  const pki = inject('ocspPki')

  async function verdict(caseName: OcspCaseName, at = new Date()) {
    const counting = countingFetch()
    try {
      await backend().verifyCertificateChain({
        chain: pki.cases[caseName].x5c.map(
          (certificate) => base64Decode(certificate) ?? new Uint8Array(),
        ),
        trustAnchors: [pki.anchorPem],
        crls: [],
        at,
        revocation: createOnlineRevocation({ fetch: counting.fetch, timeoutMs: 5_000 }),
      })
      return { reason: 'ok', message: '', subject: undefined as string | undefined, counting }
    } catch (error) {
      if (!CertificateChainError.isInstance(error)) throw error
      return { reason: error.reason, message: error.message, subject: error.subject, counting }
    }
  }

  describe(`revocation by OCSP with openssl ocsp as the responder (${name})`, () => {
    it('accepts a good leaf: delegated responder for the leaf, issuer-signed answer for the intermediate', async () => {
      const good = await verdict('good')
      expect(good.reason, good.message).toBe('ok')
      expect(good.counting.count(pki.intermediateResponderUrl)).toBe(1)
      expect(good.counting.count(pki.rootResponderUrl)).toBe(1)
    })

    it.each([
      ['refuses a leaf the responder says is revoked', 'revoked', 'revoked', 'OCSP responder'],
      ['takes unknown as no answer', 'unknown', 'revocation-unavailable', 'answers unknown'],
      [
        'takes no answer signed by a key the issuer never delegated to',
        'undelegated',
        'revocation-unavailable',
        'a responder the issuer delegated to',
      ],
    ] as const)('%s', async (_title, caseName, reason, said) => {
      const outcome = await verdict(caseName)
      expect(outcome.reason).toBe(reason)
      expect(outcome.message).toContain(said)
      // The leaf's own answer decides: its intermediate's status was had.
      expect(outcome.subject).toContain(`CN=${caseName}`)
    })

    it('refuses a chain whose intermediate the root responder says is revoked', async () => {
      const outcome = await verdict('under-revoked')
      expect(outcome.reason).toBe('revoked')
      expect(outcome.subject).toContain(`CN=${pki.revokedIntermediateName}`)
    })

    it('takes no stale answer (validated a day after the answer’s nextUpdate)', async () => {
      expect(pki.answerValidityMinutes * 60_000).toBeLessThan(day)
      const outcome = await verdict('good', new Date(Date.now() + day))
      expect(outcome.reason).toBe('revocation-unavailable')
      expect(outcome.message).toContain('is stale')
    })
  })
}
