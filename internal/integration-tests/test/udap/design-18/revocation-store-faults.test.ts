/**
 * UDAP trust online (issue 30), outside review: a `revocation.cache` that never answers (a Redis
 * behind a partition, with no command timeout) must not hang discovery, nor every later call of
 * the client that joins the shared discovery. Each store call is bounded by the transport's time
 * limit and then counts as a store failure, which never decides a verdict: the read is a miss
 * (the CRL is fetched and verified), the write is only logged. Through
 * `Client.serverMetadata` against a loopback server whose server certificate names one CRL
 * distribution point (a current CRL of the root) and no OCSP responder.
 */
import {
  Client,
  type KeyValueStore,
  type Logger,
  memoryStore,
  silentLogger,
} from '@fhir-auth/client'
import type { CertificateAuthority } from '@fhir-auth/test-pki/issuer'
import type { RevocationServer } from '@fhir-auth/test-pki/revocation'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loopbackBaseUrl, startCrlDiscoveryServer } from '../support/loopback-udap-discovery.js'

let server: RevocationServer
let root: CertificateAuthority

beforeAll(async () => {
  ;({ server, root } = await startCrlDiscoveryServer('Review Store Root'))
}, 60_000)

afterAll(() => server?.stop())

/** A store whose every call never settles. */
function silentStore(): KeyValueStore {
  const never = () => new Promise<never>(() => {})
  return { get: never, set: never, delete: never, setIfAbsent: never }
}

function client(logger: Logger = silentLogger): Client {
  return new Client(
    {
      baseUrl: loopbackBaseUrl(server, 'crl'),
      scopes: ['system/*.rs'],
      allowInsecureLocalhost: true,
    },
    // The store's calls get the transport's limit: 2 s keeps the loopback requests clear of it on
    // a loaded machine, and the test short.
    { protocol: 'udap', logger, timeoutMs: 2_000 },
  )
}

describe('a revocation.cache that never answers', () => {
  it('is a store failure within the transport time limit, never a verdict: every caller gets the verified metadata', async () => {
    const events: unknown[] = []
    const logger: Logger = {
      ...silentLogger,
      warn: (_message, fields) => void events.push(fields?.event),
    }
    const shared = client(logger)
    const trust = { trustedAnchors: [root.certificatePem], revocation: { cache: silentStore() } }
    const before = server.count('/root.crl')
    const results = await Promise.all([shared.serverMetadata(trust), shared.serverMetadata(trust)])
    for (const metadata of results) {
      expect(metadata.tokenEndpoint).toBe(`${server.origin}/crl/token`)
    }
    // The reads timed out (misses), the CRL was fetched once and verified, keeping it timed out.
    expect(server.count('/root.crl')).toBe(before + 1)
    expect(new Set(events.filter((event) => String(event).startsWith('revocation.')))).toEqual(
      new Set(['revocation.cache-read-failed', 'revocation.cache-write-failed']),
    )
  }, 20_000)

  it('takes the same chain with a store that answers (the control case)', async () => {
    const metadata = await client().serverMetadata({
      trustedAnchors: [root.certificatePem],
      revocation: { cache: memoryStore() },
    })
    expect(metadata.tokenEndpoint).toBe(`${server.origin}/crl/token`)
  })
})
