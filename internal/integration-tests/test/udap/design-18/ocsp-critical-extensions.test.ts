/**
 * UDAP trust online (issue 30), outside review: an OCSP answer with a critical extension the
 * library does not understand decides nothing (RFC 6960 §4.4: unrecognised extensions are ignored
 * unless critical), as a CRL with one decides nothing (RFC 5280 §5.2). Through
 * `Client.serverMetadata` against a loopback server whose server certificate names no CRL
 * distribution point and one OCSP responder, answered by the issuer's key with an answer signed
 * in the test (openssl cannot add such extensions):
 *
 * - no extension: the metadata is taken (so the answers below are otherwise good);
 * - an unknown critical response extension, or an unknown critical singleExtension: the chain is
 *   `revocation-unavailable`.
 */
import { CertificateChainError, DiscoveryError, memoryStore } from '@fhir-auth/client'
import {
  type CertificateAuthority,
  createCertificateAuthority,
  type RawExtension,
  unknownCriticalExtension,
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

let server: RevocationServer
let root: CertificateAuthority

/** Where each case's responder lives and what extensions its answers carry. */
const cases: Record<string, { response?: RawExtension[]; single?: RawExtension[] }> = {
  plain: {},
  'response-critical': { response: [unknownCriticalExtension()] },
  'single-critical': { single: [unknownCriticalExtension()] },
}

beforeAll(async () => {
  server = await startRevocationServer()
  const now = Date.now()
  root = await createCertificateAuthority({
    name: 'Review OCSP Root',
    keyType: 'p256',
    notBefore: new Date(now - hour),
    notAfter: new Date(now + 24 * hour),
  })
  let keyPair: Awaited<ReturnType<CertificateAuthority['issue']>>['keyPair'] | undefined
  for (const [name, extensions] of Object.entries(cases)) {
    const leaf = await root.issue({
      commonName: `OCSP ${name}`,
      sanUris: [loopbackBaseUrl(server, name)],
      keyType: 'rsa2048',
      ...(keyPair === undefined ? {} : { keyPair }),
      authorityInformationAccess: { ocsp: [`${server.origin}/ocsp/${name}`] },
    })
    keyPair = leaf.keyPair
    server.answerPosts(`/ocsp/${name}`, (request) =>
      signedOcspResponse({
        request,
        signer: root,
        thisUpdate: new Date(Date.now() - 60_000),
        nextUpdate: new Date(Date.now() + hour),
        responseExtensions: extensions.response,
        singleExtensions: extensions.single,
      }),
    )
    serveLoopbackDiscovery(server, name, leaf)
  }
}, 60_000)

afterAll(() => server?.stop())

const trust = () => ({
  trustedAnchors: [root.certificatePem],
  revocation: { cache: memoryStore() },
})

describe('OCSP answers with critical extensions the library does not understand', () => {
  it('takes the same answer without the extension (the control case)', async () => {
    const metadata = await loopbackDiscoveryClient(server, 'plain').serverMetadata(trust())
    expect(metadata.tokenEndpoint).toBe(`${server.origin}/plain/token`)
    expect(server.count('/ocsp/plain')).toBe(1)
  })

  for (const name of ['response-critical', 'single-critical']) {
    it(`${name}: no answer, so the chain is revocation-unavailable`, async () => {
      const error = await failureOf(
        loopbackDiscoveryClient(server, name).serverMetadata(trust()),
        DiscoveryError,
      )
      expect(error.cause).toBeInstanceOf(CertificateChainError)
      const cause = error.cause as CertificateChainError
      expect(cause.reason, cause.message).toBe('revocation-unavailable')
      expect(cause.message).toContain('critical extension')
      expect(server.count(`/ocsp/${name}`)).toBe(1)
    })
  }
})
