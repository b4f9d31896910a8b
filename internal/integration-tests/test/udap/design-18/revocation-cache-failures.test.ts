/**
 * UDAP trust online (issue 30), outside review: the revocation cache never decides a verdict. A
 * CRL fetched and verified is used even when keeping it fails (`webStorageStore` over quota for
 * a 4 MiB CRL, a Redis at `maxmemory` with `noeviction`), and a read that fails is a miss (the
 * CRL is fetched and verified). Each failure is one `warn` through the client's logger naming the
 * URL, never the CRL. Through `Client.serverMetadata` against a loopback server whose server
 * certificate names one CRL distribution point (a current CRL of the root) and no OCSP responder.
 */
import {
  Client,
  type KeyValueStore,
  type LogFields,
  type Logger,
  memoryStore,
  StoreError,
} from '@fhir-auth/client'
import type { CertificateAuthority } from '@fhir-auth/test-pki/issuer'
import type { RevocationServer } from '@fhir-auth/test-pki/revocation'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loopbackBaseUrl, startCrlDiscoveryServer } from '../support/loopback-udap-discovery.js'

let server: RevocationServer
let root: CertificateAuthority

beforeAll(async () => {
  ;({ server, root } = await startCrlDiscoveryServer('Cache Failures Root'))
}, 60_000)

afterAll(() => server?.stop())

interface Warning {
  readonly message: string
  readonly fields: LogFields | undefined
}

function warningLogger(): Logger & { readonly warnings: Warning[] } {
  const warnings: Warning[] = []
  return {
    warnings,
    info: () => {},
    error: () => {},
    warn: (message, fields) => void warnings.push({ message, fields }),
  }
}

/** A memory store whose `get` and/or `set` reject like a store that is full or down. */
function failingStore(fails: { readonly get?: boolean; readonly set?: boolean }): KeyValueStore {
  const memory = memoryStore()
  return {
    ...memory,
    get: (key) =>
      fails.get === true
        ? Promise.reject(new StoreError('get', 'the store failed get'))
        : memory.get(key),
    set: (key, value, ttl) =>
      fails.set === true
        ? Promise.reject(new StoreError('set', 'the store refused set: over quota'))
        : memory.set(key, value, ttl),
  }
}

function client(logger: Logger): Client {
  return new Client(
    {
      baseUrl: loopbackBaseUrl(server, 'crl'),
      scopes: ['system/*.rs'],
      allowInsecureLocalhost: true,
    },
    { protocol: 'udap', logger },
  )
}

const revocationEvents = (warnings: readonly Warning[]) =>
  warnings
    .map((warning) => warning.fields)
    .filter((fields) => String(fields?.event).startsWith('revocation.'))

describe('a revocation.cache that fails', () => {
  it('on write: the verified CRL is still used, with one warn naming the CRL URL', async () => {
    const logger = warningLogger()
    const before = server.count('/root.crl')
    const metadata = await client(logger).serverMetadata({
      trustedAnchors: [root.certificatePem],
      revocation: { cache: failingStore({ set: true }) },
    })
    expect(metadata.tokenEndpoint).toBe(`${server.origin}/crl/token`)
    expect(server.count('/root.crl')).toBe(before + 1)
    expect(revocationEvents(logger.warnings)).toEqual([
      {
        event: 'revocation.cache-write-failed',
        url: `${server.origin}/root.crl`,
        reason: 'failed: the store refused set: over quota',
      },
    ])
    const line = logger.warnings.find(
      (warning) => warning.fields?.event === 'revocation.cache-write-failed',
    )
    expect(line?.message).toContain('it is used, not kept')
  })

  it('on read: the CRL is fetched and verified, with one warn', async () => {
    const logger = warningLogger()
    const before = server.count('/root.crl')
    const metadata = await client(logger).serverMetadata({
      trustedAnchors: [root.certificatePem],
      revocation: { cache: failingStore({ get: true }) },
    })
    expect(metadata.tokenEndpoint).toBe(`${server.origin}/crl/token`)
    expect(server.count('/root.crl')).toBe(before + 1)
    expect(revocationEvents(logger.warnings)).toEqual([
      {
        event: 'revocation.cache-read-failed',
        url: `${server.origin}/root.crl`,
        reason: 'failed: the store failed get',
      },
    ])
  })
})
