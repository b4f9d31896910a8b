/**
 * UDAP trust online (issue 30), outside review: OCSP travels over plain HTTP, so anyone on the
 * path can stuff a response's `certs` with thousands of decoy "responder" certificates (each one
 * naming the issuer, valid, with id-kp-OCSPSigning, but signed by another key), each of which
 * would cost a signature check. Only the first four certificates are considered. Through
 * `Client.serverMetadata` against a loopback server whose server certificates name no CRL
 * distribution point and one OCSP responder each, answered by a responder the root delegated to:
 *
 * - the real responder first, then 5000 decoys: the metadata is taken;
 * - 5000 decoys, then the real responder: no answer, so `revocation-unavailable`.
 *
 * (The core tests count the signature checks; here the verdicts.)
 */
import { CertificateChainError, DiscoveryError, memoryStore } from '@fhir-auth/client'
import { parseCertificate } from '@fhir-auth/core/backend'
import {
  type CertificateAuthority,
  createCertificateAuthority,
  ocspSigningPurpose,
} from '@fhir-auth/test-pki/issuer'
import {
  type RevocationServer,
  signedOcspResponse,
  startRevocationServer,
} from '@fhir-auth/test-pki/revocation'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  loopbackBaseUrl,
  loopbackDiscoveryClient,
  serveLoopbackDiscovery,
} from '../support/loopback-udap-discovery.js'

const hour = 3_600_000
const decoys = 5000

let server: RevocationServer
let root: CertificateAuthority
let responseBytes = 0

beforeAll(async () => {
  server = await startRevocationServer()
  const now = Date.now()
  const validity = { notBefore: new Date(now - hour), notAfter: new Date(now + 24 * hour) }
  root = await createCertificateAuthority({ name: 'Decoy OCSP Root', keyType: 'p256', ...validity })
  // Same subject as the root, another key: its certificates pass every check but the signature.
  const impostor = await createCertificateAuthority({
    name: 'Decoy OCSP Root',
    keyType: 'p256',
    ...validity,
  })
  const delegated = { keyType: 'p256', extendedKeyUsage: [ocspSigningPurpose] } as const
  const responder = await root.issue({ commonName: 'Real responder', ...delegated })
  const decoy = await impostor.issue({ commonName: 'Decoy responder', ...delegated })
  const signer = {
    privateKeyPem: responder.privateKeyPem,
    subjectDer: parseCertificate(responder.certificateDer).subjectDer,
  }
  const stuffed = Array.from({ length: decoys }, () => decoy.certificateDer)
  const orders: Record<string, readonly Uint8Array[]> = {
    'responder-first': [responder.certificateDer, ...stuffed],
    'responder-last': [...stuffed, responder.certificateDer],
  }
  let keyPair: Awaited<ReturnType<CertificateAuthority['issue']>>['keyPair'] | undefined
  for (const [name, certificates] of Object.entries(orders)) {
    const leaf = await root.issue({
      commonName: `OCSP ${name}`,
      sanUris: [loopbackBaseUrl(server, name)],
      keyType: 'rsa2048',
      ...(keyPair === undefined ? {} : { keyPair }),
      authorityInformationAccess: { ocsp: [`${server.origin}/ocsp/${name}`] },
    })
    keyPair = leaf.keyPair
    server.answerPosts(`/ocsp/${name}`, (request) => {
      const response = signedOcspResponse({
        request,
        signer,
        thisUpdate: new Date(Date.now() - 60_000),
        nextUpdate: new Date(Date.now() + hour),
        certificates,
      })
      responseBytes = response.byteLength
      return response
    })
    serveLoopbackDiscovery(server, name, leaf)
  }
}, 60_000)

afterAll(() => server?.stop())

const trust = () => ({
  trustedAnchors: [root.certificatePem],
  revocation: { cache: memoryStore() },
})

describe(`an OCSP response carrying ${decoys} decoy responder certificates`, () => {
  it('is taken when the real responder comes first', async () => {
    const metadata = await loopbackDiscoveryClient(server, 'responder-first').serverMetadata(
      trust(),
    )
    expect(metadata.tokenEndpoint).toBe(`${server.origin}/responder-first/token`)
    expect(server.count('/ocsp/responder-first')).toBe(1)
    expect(responseBytes).toBeGreaterThan(decoys * 300)
  })

  it('is no answer when the real responder comes after the first four', async () => {
    const error = await failureOf(
      loopbackDiscoveryClient(server, 'responder-last').serverMetadata(trust()),
      DiscoveryError,
    )
    expect(error.cause).toBeInstanceOf(CertificateChainError)
    const cause = error.cause as CertificateChainError
    expect(cause.reason, cause.message).toBe('revocation-unavailable')
    expect(cause.message).toContain('is signed neither by the issuer nor by a responder')
    expect(server.count('/ocsp/responder-last')).toBe(1)
  })
})
