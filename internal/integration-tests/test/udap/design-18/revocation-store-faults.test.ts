/**
 * UDAP trust online (issue 30), outside review: a `revocation.cache` that never answers (a Redis
 * behind a partition, with no command timeout) must not hang discovery, nor every later call of
 * the client that joins the shared discovery. Each store call is bounded by the transport's time
 * limit and then counts as a store failure: no answer from that source, so fail closed. Through
 * `Client.serverMetadata` against a loopback server whose server certificate names one CRL
 * distribution point (a current CRL of the root) and no OCSP responder.
 */
import {
  CertificateChainError,
  Client,
  DiscoveryError,
  type KeyValueStore,
  memoryStore,
  silentLogger,
} from '@fhir-auth/client'
import { type CertificateAuthority, createCertificateAuthority } from '@fhir-auth/test-pki/issuer'
import { type RevocationServer, startRevocationServer } from '@fhir-auth/test-pki/revocation'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loopbackBaseUrl, serveLoopbackDiscovery } from '../support/loopback-udap-discovery.js'

const hour = 3_600_000

let server: RevocationServer
let root: CertificateAuthority

beforeAll(async () => {
  server = await startRevocationServer()
  const now = Date.now()
  root = await createCertificateAuthority({
    name: 'Review Store Root',
    keyType: 'p256',
    notBefore: new Date(now - hour),
    notAfter: new Date(now + 24 * hour),
  })
  const leaf = await root.issue({
    commonName: 'Server with a CRL',
    sanUris: [loopbackBaseUrl(server, 'crl')],
    keyType: 'rsa2048',
    crlDistributionPoints: [`${server.origin}/root.crl`],
  })
  server.serve(
    '/root.crl',
    root.crl({ thisUpdate: new Date(now - hour), nextUpdate: new Date(now + hour) }).crlDer,
  )
  serveLoopbackDiscovery(server, 'crl', leaf)
}, 60_000)

afterAll(() => server?.stop())

/** A store whose every call never settles. */
function silentStore(): KeyValueStore {
  const never = () => new Promise<never>(() => {})
  return { get: never, set: never, delete: never, setIfAbsent: never }
}

function client(): Client {
  return new Client(
    {
      baseUrl: loopbackBaseUrl(server, 'crl'),
      scopes: ['system/*.rs'],
      allowInsecureLocalhost: true,
    },
    { protocol: 'udap', logger: silentLogger, timeoutMs: 500 },
  )
}

describe('a revocation.cache that never answers', () => {
  it('is a store failure within the transport time limit: revocation-unavailable, for every caller', async () => {
    const shared = client()
    const trust = { trustedAnchors: [root.certificatePem], revocation: { cache: silentStore() } }
    const failures = await Promise.all([
      failureOf(shared.serverMetadata(trust), DiscoveryError),
      failureOf(shared.serverMetadata(trust), DiscoveryError),
    ])
    for (const failure of failures) {
      expect(failure.cause).toBeInstanceOf(CertificateChainError)
      const cause = failure.cause as CertificateChainError
      expect(cause.reason, cause.message).toBe('revocation-unavailable')
      expect(cause.message).toContain('StoreError')
    }
  }, 20_000)

  it('takes the same chain with a store that answers (the control case)', async () => {
    const metadata = await client().serverMetadata({
      trustedAnchors: [root.certificatePem],
      revocation: { cache: memoryStore() },
    })
    expect(metadata.tokenEndpoint).toBe(`${server.origin}/crl/token`)
  })
})
