/**
 * Issue 30: revocation by OCSP (RFC 6960) when no CRL can be had, with `openssl ocsp` as the real
 * responder (started on a free port, stopped by PID) behind the loopback server the
 * certificates' authority information access names. The intermediate's status comes from an
 * answer its issuer (the root) signed, the leaves' from a responder the intermediate delegated to
 * (id-kp-OCSPSigning). Both backends, in Node.
 */
import type { CryptoBackend } from '@fhir-auth/core'
import { createOnlineRevocation } from '@fhir-auth/core/revocation'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { webCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import type { IssuedCertificate } from '@fhir-auth/test-pki/issuer'
import { type OcspPki, startOcspPki } from '@fhir-auth/test-pki/revocation'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chainVerdict } from './support/ocsp-verdict.js'

const day = 24 * 3_600_000

let pki: OcspPki
let server: OcspPki['server']
let leaves: OcspPki['leaves']
let revokedIntermediateName: string

beforeAll(async () => {
  pki = await startOcspPki()
  ;({ server, leaves, revokedIntermediateName } = pki)
}, 60_000)

afterAll(() => pki?.stop())

function verdict(backend: CryptoBackend, certificate: IssuedCertificate, at = new Date()) {
  return chainVerdict(backend, pki, certificate, {
    at,
    revocation: createOnlineRevocation({ timeoutMs: 5_000 }),
  })
}

for (const [name, backend] of [
  ['crypto-node', createNodeCryptoBackend()],
  ['crypto-webcrypto', webCryptoBackend],
] as const) {
  describe(`revocation by OCSP with openssl ocsp as the responder (${name})`, () => {
    it('accepts a good leaf: delegated responder for the leaf, issuer-signed answer for the intermediate', async () => {
      const good = await verdict(backend, leaves.good)
      expect(good.reason, good.message).toBe('ok')
      expect(server.count('/ocsp/intermediate')).toBeGreaterThan(0)
      expect(server.count('/ocsp/root')).toBeGreaterThan(0)
    })

    it('refuses a leaf the responder says is revoked', async () => {
      const outcome = await verdict(backend, leaves.revoked)
      expect(outcome.reason).toBe('revoked')
      expect(outcome.message).toContain('OCSP responder')
    })

    it('refuses a chain whose intermediate the root responder says is revoked', async () => {
      const outcome = await verdict(backend, leaves.underRevoked)
      expect(outcome.reason).toBe('revoked')
      expect(outcome.subject).toContain(`CN=${revokedIntermediateName}`)
    })

    it('takes unknown as no answer', async () => {
      const outcome = await verdict(backend, leaves.unknown)
      expect(outcome.reason).toBe('revocation-unavailable')
      expect(outcome.message).toContain('answers unknown')
    })

    it('takes no answer signed by a key the issuer never delegated to', async () => {
      const outcome = await verdict(backend, leaves.undelegated)
      expect(outcome.reason).toBe('revocation-unavailable')
      expect(outcome.message).toContain('delegated')
    })

    it('takes no stale answer (validated a day after the answer’s nextUpdate)', async () => {
      const outcome = await verdict(backend, leaves.good, new Date(Date.now() + day))
      expect(outcome.reason).toBe('revocation-unavailable')
      expect(outcome.message).toContain('is stale')
    })
  })
}
