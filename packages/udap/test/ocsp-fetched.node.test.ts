/**
 * Issue 30: revocation by OCSP (RFC 6960) when no CRL can be had, with `openssl ocsp` as the real
 * responder (started on a free port, stopped by PID) behind the loopback server the
 * certificates' authority information access names. The intermediate's status comes from an
 * answer its issuer (the root) signed, the leaves' from a responder the intermediate delegated to
 * (id-kp-OCSPSigning). Both backends, in Node.
 */
import { base64Decode, CertificateChainError, type CryptoBackend } from '@fhir-auth/core'
import { createOnlineRevocation } from '@fhir-auth/core/revocation'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { webCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import {
  type CertificateAuthority,
  createCertificateAuthority,
  type IssuedCertificate,
  ocspSigningPurpose,
} from '@fhir-auth/test-pki/issuer'
import {
  type OpenSslOcspResponder,
  type RevocationServer,
  startOpenSslOcspResponder,
  startRevocationServer,
} from '@fhir-auth/test-pki/revocation'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const hour = 3_600_000
const day = 24 * hour

let server: RevocationServer
const responders: OpenSslOcspResponder[] = []
let root: CertificateAuthority
let leaves: Record<
  'good' | 'revoked' | 'unknown' | 'undelegated' | 'underRevoked',
  IssuedCertificate
>
let revokedIntermediateName: string

/** The OpenSSL index subject of a test-PKI name. */
const subject = (ou: string, cn: string) => `/C=US/O=fhir-auth Test PKI/OU=${ou}/CN=${cn}`

beforeAll(async () => {
  server = await startRevocationServer()
  const url = (path: string) => `${server.origin}${path}`
  const now = Date.now()
  const notBefore = new Date(now - day)
  const notAfter = new Date(now + 365 * day)
  root = await createCertificateAuthority({
    name: 'OCSP Root',
    keyType: 'p256',
    notBefore,
    notAfter,
  })
  const intermediate = await createCertificateAuthority({
    name: 'OCSP Intermediate',
    keyType: 'p256',
    issuer: root,
    notBefore,
    notAfter,
    authorityInformationAccess: { ocsp: [url('/ocsp/root')] },
  })
  const revokedIntermediate = await createCertificateAuthority({
    name: 'OCSP Revoked Intermediate',
    keyType: 'p256',
    issuer: root,
    notBefore,
    notAfter,
    authorityInformationAccess: { ocsp: [url('/ocsp/root')] },
  })
  revokedIntermediateName = revokedIntermediate.name
  const delegated = await intermediate.issue({
    commonName: 'OCSP Responder',
    keyType: 'p256',
    notBefore,
    notAfter,
    extendedKeyUsage: [ocspSigningPurpose],
  })
  // A key the intermediate never delegated to: its own root, with the OCSP signing purpose.
  const stranger = await createCertificateAuthority({
    name: 'OCSP Stranger',
    keyType: 'p256',
    notBefore,
    notAfter,
    extendedKeyUsage: [ocspSigningPurpose],
  })
  const leaf = (name: string, path: string, issuer = intermediate) =>
    issuer.issue({
      commonName: name,
      sanUris: ['https://client.example.test/app'],
      keyType: 'p256',
      notBefore,
      notAfter,
      authorityInformationAccess: { ocsp: [url(path)] },
    })
  leaves = {
    good: await leaf('good', '/ocsp/intermediate'),
    revoked: await leaf('revoked', '/ocsp/intermediate'),
    unknown: await leaf('unknown', '/ocsp/intermediate'),
    undelegated: await leaf('undelegated', '/ocsp/stranger'),
    underRevoked: await leaf('under revoked', '/ocsp/revoked-intermediate', revokedIntermediate),
  }
  const entry = (certificate: IssuedCertificate, cn: string, revokedAt?: Date) => ({
    certificate,
    subject: subject('Leaf', cn),
    notAfter,
    revokedAt,
  })
  const start = async (path: string, options: Parameters<typeof startOpenSslOcspResponder>[0]) => {
    const responder = await startOpenSslOcspResponder(options)
    responders.push(responder)
    server.answerPosts(path, async (body) => {
      const response = await fetch(responder.url, {
        method: 'POST',
        headers: { 'content-type': 'application/ocsp-request' },
        body: Buffer.from(body),
      })
      return new Uint8Array(await response.arrayBuffer())
    })
  }
  const revokedAt = new Date(now - hour)
  await start('/ocsp/root', {
    caPem: root.certificatePem,
    signerPem: root.certificatePem,
    signerKeyPem: root.privateKeyPem,
    entries: [
      { certificate: intermediate, subject: subject('Intermediate', intermediate.name), notAfter },
      {
        certificate: revokedIntermediate,
        subject: subject('Intermediate', revokedIntermediate.name),
        notAfter,
        revokedAt,
      },
    ],
  })
  const intermediateEntries = [
    entry(leaves.good, 'good'),
    entry(leaves.revoked, 'revoked', revokedAt),
    entry(leaves.undelegated, 'undelegated'),
  ]
  await start('/ocsp/intermediate', {
    caPem: intermediate.certificatePem,
    signerPem: delegated.certificatePem,
    signerKeyPem: delegated.privateKeyPem,
    entries: intermediateEntries,
  })
  await start('/ocsp/stranger', {
    caPem: intermediate.certificatePem,
    signerPem: stranger.certificatePem,
    signerKeyPem: stranger.privateKeyPem,
    entries: intermediateEntries,
  })
  await start('/ocsp/revoked-intermediate', {
    caPem: revokedIntermediate.certificatePem,
    signerPem: revokedIntermediate.certificatePem,
    signerKeyPem: revokedIntermediate.privateKeyPem,
    entries: [entry(leaves.underRevoked, 'under revoked')],
  })
}, 60_000)

afterAll(async () => {
  await Promise.all(responders.map((responder) => responder.stop()))
  await server?.stop()
})

async function verdict(backend: CryptoBackend, certificate: IssuedCertificate, at = new Date()) {
  try {
    await backend.verifyCertificateChain({
      chain: certificate.chainDer.map(
        (der) => base64Decode(Buffer.from(der).toString('base64')) ?? der,
      ),
      trustAnchors: [root.certificatePem],
      crls: [],
      at,
      revocation: createOnlineRevocation({ timeoutMs: 5_000 }),
    })
    return { reason: 'ok', message: '', subject: undefined as string | undefined }
  } catch (error) {
    if (!CertificateChainError.isInstance(error)) throw error
    return { reason: error.reason, message: error.message, subject: error.subject }
  }
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
