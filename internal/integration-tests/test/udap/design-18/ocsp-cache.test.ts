/**
 * UDAP trust online (issue 30), through `Client.serverMetadata` against a UDAP server of our own
 * on loopback whose `signed_metadata` is signed by a certificate that names an OCSP responder
 * (a real `openssl ocsp`, started on a free port and stopped by PID) and its issuer's
 * certificate (AIA caIssuers), and whose `x5c` leaves that issuer out. No `crls` are given, so
 * the intermediate is fetched and each certificate's status asked of its responder. Figures are
 * requests the loopback server saw:
 *
 * - two clients on one `revocation.cache` (core's memory store, then a real `redis-server` with
 *   one connection per client): the first makes one request per responder and one caIssuers
 *   fetch, the second none;
 * - a client whose clock (`now`) is before the kept answers' `nextUpdate` asks nobody; one whose
 *   clock is past it asks again.
 */
import { randomUUID } from 'node:crypto'
import {
  CertificateChainError,
  Client,
  DiscoveryError,
  type KeyValueStore,
  memoryStore,
  silentLogger,
} from '@fhir-auth/client'
import { redisStore } from '@fhir-auth/store-redis'
import { type OcspPki, startOcspPki } from '@fhir-auth/test-pki/revocation'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { type RedisServer, startRedisServer } from '@fhir-auth/test-utils/redis-server'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveUdapDiscovery } from '../support/loopback-udap-discovery.js'

const minute = 60_000

let pki: OcspPki
let redis: RedisServer

beforeAll(async () => {
  ;[pki, redis] = await Promise.all([startOcspPki(), startRedisServer()])
  // Valid two hours, so that a client clock an hour ahead still takes it.
  serveUdapDiscovery(pki.server, pki.fhirBaseUrl, pki.leaves.server, 2 * 3600)
}, 60_000)

afterAll(async () => {
  await Promise.all([pki?.stop(), redis?.stop()])
})

/** A UDAP client of the server (discovery only, no identity), with its clock at `now`. */
function discoveryClient(now?: () => Date): Client {
  return new Client(
    { baseUrl: pki.fhirBaseUrl, scopes: ['system/*.rs'], allowInsecureLocalhost: true },
    { protocol: 'udap', logger: silentLogger, ...(now === undefined ? {} : { now }) },
  )
}

/** The requests the server saw while `run` ran, per responder and for the caIssuers URL. */
async function requestsDuring(run: () => Promise<unknown>) {
  const paths = ['/ocsp/intermediate', '/ocsp/root', '/intermediate.cer'] as const
  const before = paths.map((path) => pki.server.count(path))
  await run()
  return Object.fromEntries(
    paths.map((path, index) => [path, pki.server.count(path) - (before[index] ?? 0)]),
  )
}

const trust = (cache: KeyValueStore) => ({
  trustedAnchors: [pki.root.certificatePem],
  revocation: { cache },
})

describe('OCSP answers and caIssuers certificates shared through revocation.cache', () => {
  it('a second client on one memory store asks no responder and fetches no intermediate', async () => {
    const cache = memoryStore()
    const first = await requestsDuring(async () => {
      const metadata = await discoveryClient().serverMetadata(trust(cache))
      expect(metadata.tokenEndpoint).toBe(`${pki.server.origin}/token`)
    })
    expect(first).toEqual({ '/ocsp/intermediate': 1, '/ocsp/root': 1, '/intermediate.cer': 1 })
    const second = await requestsDuring(() => discoveryClient().serverMetadata(trust(cache)))
    expect(second).toEqual({ '/ocsp/intermediate': 0, '/ocsp/root': 0, '/intermediate.cer': 0 })
  })

  it('two clients of a fleet on one redis-server, each with its own connection: the second asks nobody', async () => {
    const connections = await Promise.all(
      [0, 1].map(() => createClient({ url: redis.url }).connect()),
    )
    try {
      const prefix = `ocsp-${randomUUID()}:`
      const [one, two] = connections.map((connection) => redisStore(connection, { prefix }))
      if (one === undefined || two === undefined) throw new Error('two stores expected')
      const first = await requestsDuring(() => discoveryClient().serverMetadata(trust(one)))
      expect(first).toEqual({ '/ocsp/intermediate': 1, '/ocsp/root': 1, '/intermediate.cer': 1 })
      const second = await requestsDuring(() => discoveryClient().serverMetadata(trust(two)))
      expect(second).toEqual({ '/ocsp/intermediate': 0, '/ocsp/root': 0, '/intermediate.cer': 0 })
    } finally {
      await Promise.all(connections.map((connection) => connection.close()))
    }
  })

  it('takes the kept answers while the client clock is before their nextUpdate, and asks again after it', async () => {
    const cache = memoryStore()
    await discoveryClient().serverMetadata(trust(cache))
    const start = Date.now()
    const before = await requestsDuring(() =>
      discoveryClient(() => new Date(start + (pki.validityMinutes - 2) * minute)).serverMetadata(
        trust(cache),
      ),
    )
    expect(before).toEqual({ '/ocsp/intermediate': 0, '/ocsp/root': 0, '/intermediate.cer': 0 })
    // Past nextUpdate and the 5-minute skew: the kept answers are stale and the responder is
    // asked; its answer (made now, valid for the same hour) is stale at that clock as well.
    let error: DiscoveryError | undefined
    const after = await requestsDuring(async () => {
      error = await failureOf(
        discoveryClient(() => new Date(start + (pki.validityMinutes + 6) * minute)).serverMetadata(
          trust(cache),
        ),
        DiscoveryError,
      )
    })
    const cause = error?.cause
    expect(cause).toBeInstanceOf(CertificateChainError)
    expect((cause as CertificateChainError).reason).toBe('revocation-unavailable')
    expect((after['/ocsp/intermediate'] ?? 0) + (after['/ocsp/root'] ?? 0)).toBeGreaterThan(0)
  })
})
