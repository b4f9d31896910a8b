/**
 * UDAP trust online (issue 30), outside review: what a UDAP server that nobody trusts can make a
 * client fetch and keep through the AIA `caIssuers` URLs of its own `x5c` leaf, the only URLs
 * read from a certificate not yet chained to an anchor. Through `Client.serverMetadata` against
 * a loopback server that serves the discovery document and counts every request:
 *
 * - a leaf naming twenty `caIssuers` URLs (each 404) makes at most eight requests, not twenty;
 * - a `caIssuers` document larger than the library keeps (a certs-only PKCS#7 of some hundred
 *   kilobytes, none of them the missing issuer) is used for that validation and not written to
 *   `revocation.cache`, which a fleet shares and which such a server could fill otherwise.
 */
import { CertificateChainError, DiscoveryError, memoryStore } from '@fhir-auth/client'
import {
  type CertificateAuthority,
  createCertificateAuthority,
  type IssuedCertificate,
} from '@fhir-auth/test-pki/issuer'
import {
  certsOnlyPkcs7,
  type RevocationServer,
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
let manyUrls: IssuedCertificate
let bigDocument: IssuedCertificate

const manyPaths = Array.from({ length: 20 }, (_, index) => `/aia/${index}.cer`)

beforeAll(async () => {
  server = await startRevocationServer()
  const now = Date.now()
  const validity = { notBefore: new Date(now - hour), notAfter: new Date(now + 24 * hour) }
  root = await createCertificateAuthority({ name: 'Review Root', keyType: 'p256', ...validity })
  const intermediate = await createCertificateAuthority({
    name: 'Review Intermediate',
    keyType: 'p256',
    issuer: root,
    ...validity,
  })
  manyUrls = await intermediate.issue({
    commonName: 'Server naming many caIssuers URLs',
    sanUris: [loopbackBaseUrl(server, 'many')],
    keyType: 'rsa2048',
    authorityInformationAccess: { caIssuers: manyPaths.map((path) => server.origin + path) },
  })
  bigDocument = await intermediate.issue({
    commonName: 'Server whose caIssuers document is large',
    sanUris: [loopbackBaseUrl(server, 'big')],
    keyPair: manyUrls.keyPair,
    authorityInformationAccess: { caIssuers: [`${server.origin}/big.p7c`] },
  })
  // Some 300 certificates, none of them the intermediate: far more than a CA publishes.
  server.serve(
    '/big.p7c',
    certsOnlyPkcs7(Array.from({ length: 300 }, () => root.certificateDer)),
    'application/pkcs7-mime',
  )
  serveLoopbackDiscovery(server, 'many', manyUrls)
  serveLoopbackDiscovery(server, 'big', bigDocument)
}, 60_000)

afterAll(() => server?.stop())

/** The chain failure of a discovery of `/<name>/fhir` with a fresh client. */
async function chainFailure(name: string, cache = memoryStore()): Promise<CertificateChainError> {
  const client = loopbackDiscoveryClient(server, name)
  const error = await failureOf(
    client.serverMetadata({ trustedAnchors: [root.certificatePem], revocation: { cache } }),
    DiscoveryError,
  )
  expect(error.cause).toBeInstanceOf(CertificateChainError)
  return error.cause as CertificateChainError
}

describe('caIssuers URLs of a certificate not yet chained to an anchor', () => {
  it('asks at most eight of the twenty URLs a server’s leaf names, then reports no-path', async () => {
    const failure = await chainFailure('many')
    expect(failure.reason).toBe('no-path')
    const asked = manyPaths.reduce((total, path) => total + server.count(path), 0)
    expect(asked).toBeGreaterThan(0)
    expect(asked).toBeLessThanOrEqual(8)
  })

  it('does not keep a caIssuers document larger than a CA publishes in the shared cache', async () => {
    const cache = memoryStore()
    const before = server.count('/big.p7c')
    expect((await chainFailure('big', cache)).reason).toBe('no-path')
    expect(server.count('/big.p7c') - before).toBe(1)
    const kept = await cache.get(`fhir-auth:ca-issuers:${server.origin}/big.p7c`)
    expect(typeof kept).toBe('undefined')
  })
})
