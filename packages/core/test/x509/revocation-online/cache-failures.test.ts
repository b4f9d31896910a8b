/**
 * The revocation cache never decides a verdict. A CRL or OCSP answer fetched and verified is
 * used even when keeping it fails (a browser store over quota for a 4 MiB CRL, a Redis at
 * `maxmemory` with `noeviction`): one `warn` `revocation.cache-write-failed` naming the URL
 * (without its query) and the store's reason, never the document. A read that fails is a miss:
 * the source is asked and what it sends is verified (`revocation.cache-read-failed`), so a
 * failing read can only lead to a fetch, never to an answer without a verified document.
 * Real CRLs and OCSP answers served by a `fetch` double, counted, through
 * `createOnlineRevocation` and `checkRevocationOnline`.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { base64Encode } from '../../../src/crypto/base64-decode.js'
import { CertificateChainError } from '../../../src/errors/crypto-error.js'
import { StoreError } from '../../../src/errors/store-error.js'
import type { LogFields, Logger } from '../../../src/logging/logger.js'
import type { KeyValueStore } from '../../../src/stores/key-value-store.js'
import { ocspCertificateId } from '../../../src/x509/revocation-online/ocsp-request.js'
import { createOnlineRevocation } from '../../../src/x509/revocation-online/online-revocation.js'
import { checkRevocationOnline } from '../../../src/x509/revocation-online/online-status.js'
import { revocationMemory } from '../../../src/x509/revocation-online/revocation-memory.js'
import { fetchStub } from '../fixtures/fetch-stub.js'
import { ocspResponse, singleResponse } from '../fixtures/ocsp-responses.js'
import { createCertificate, createCrl, day, type TestCertificate } from '../fixtures/online-pki.js'
import { verifyWithWebCrypto } from '../fixtures/webcrypto-keys.js'

const at = new Date('2027-01-01T00:00:00Z')
const validity = {
  notBefore: new Date('2026-01-01T00:00:00Z'),
  notAfter: new Date('2028-01-01T00:00:00Z'),
}
const crlUrl = 'http://pki.example.test/issuer.crl?token=secret'
const revokedCrlUrl = 'http://pki.example.test/revoked.crl'
const ocspUrl = 'http://ocsp.example.test/'
const caIssuersUrl = 'http://pki.example.test/issuer.p7c'
const leafSerial = Uint8Array.of(0x21, 0x43)

let issuer: TestCertificate
let crlDer: Uint8Array
let revokedCrlDer: Uint8Array

beforeAll(async () => {
  issuer = await createCertificate({ commonName: 'Cache Issuer', ca: true, ...validity })
  const current = {
    thisUpdate: new Date(at.getTime() - day),
    nextUpdate: new Date(at.getTime() + day),
  }
  crlDer = (await createCrl(issuer, current)).der
  revokedCrlDer = (await createCrl(issuer, { ...current, revokedSerials: [leafSerial] })).der
})

interface Line {
  readonly level: string
  readonly message: string
  readonly fields: LogFields | undefined
}

function recordingLogger(): Logger & { readonly lines: Line[] } {
  const lines: Line[] = []
  const write = (level: string) => (message: string, fields?: LogFields) =>
    void lines.push({ level, message, fields })
  return { lines, info: write('info'), warn: write('warn'), error: write('error') }
}

/** A memory store whose reads and/or writes fail with `error`. */
function failingStore(error: unknown, fails: { get?: boolean; set?: boolean }): KeyValueStore {
  const memory = revocationMemory()
  return {
    ...memory,
    get: async (key) => {
      if (fails.get === true) throw error
      return memory.get(key)
    },
    set: async (key, value, ttl) => {
      if (fails.set === true) throw error
      return memory.set(key, value, ttl)
    },
  }
}

const overQuota = () =>
  new StoreError('set', 'the store refused set: over quota', { reason: 'failed' })

const leaf = (options: { crl?: string; ocsp?: string }) =>
  createCertificate({
    commonName: 'Cache Leaf',
    issuer,
    serial: leafSerial,
    ...validity,
    ...(options.crl === undefined ? {} : { crlDistributionPoints: [options.crl] }),
    ...(options.ocsp === undefined ? {} : { ocsp: [options.ocsp] }),
  })

async function verdict(
  certificate: TestCertificate,
  store: KeyValueStore,
  logger: Logger,
  answers: Record<string, Uint8Array> = {},
) {
  const stub = fetchStub(answers)
  const revocation = createOnlineRevocation({ cache: store, fetch: stub.fetch, logger })
  try {
    await checkRevocationOnline(
      certificate.parsed,
      issuer.parsed,
      revocation,
      at,
      verifyWithWebCrypto,
    )
    return { verdict: 'good', stub }
  } catch (error) {
    if (!(error instanceof CertificateChainError)) throw error
    return { verdict: error.reason, message: error.message, stub }
  }
}

/** The issuer's signed OCSP answer that `certificate` is good, current at `at` for a day. */
async function goodAnswer(certificate: TestCertificate): Promise<Uint8Array> {
  const id = await ocspCertificateId(certificate.parsed, issuer.parsed)
  return ocspResponse({
    signer: issuer.key,
    responses: [
      singleResponse({
        certId: id.der,
        status: 'good',
        thisUpdate: new Date(at.getTime() - 3_600_000),
        nextUpdate: new Date(at.getTime() + day),
      }),
    ],
  })
}

const warnings = (logger: { readonly lines: Line[] }) =>
  logger.lines.filter((line) => line.level === 'warn')

describe('a revocation cache write that fails', () => {
  it('still takes the verified CRL: one warn naming the URL without query and the reason', async () => {
    const logger = recordingLogger()
    const outcome = await verdict(
      await leaf({ crl: crlUrl }),
      failingStore(overQuota(), { set: true }),
      logger,
      { [crlUrl]: crlDer },
    )
    expect(outcome.verdict).toBe('good')
    expect(outcome.stub.count(crlUrl)).toBe(1)
    expect(warnings(logger)).toEqual([
      {
        level: 'warn',
        message:
          'revocation cache: keeping the CRL failed; it is used, not kept (http://pki.example.test/issuer.crl: failed: the store refused set: over quota)',
        fields: {
          event: 'revocation.cache-write-failed',
          url: 'http://pki.example.test/issuer.crl',
          reason: 'failed: the store refused set: over quota',
        },
      },
    ])
  })

  it('still refuses a certificate the verified CRL lists', async () => {
    const logger = recordingLogger()
    const outcome = await verdict(
      await leaf({ crl: revokedCrlUrl }),
      failingStore(overQuota(), { set: true }),
      logger,
      { [revokedCrlUrl]: revokedCrlDer },
    )
    expect(outcome.verdict).toBe('revoked')
    expect(warnings(logger).map((line) => line.fields?.event)).toEqual([
      'revocation.cache-write-failed',
    ])
  })

  it('still takes the verified OCSP answer', async () => {
    const certificate = await leaf({ ocsp: ocspUrl })
    const answer = await goodAnswer(certificate)
    const logger = recordingLogger()
    const outcome = await verdict(
      certificate,
      failingStore(new TypeError('OOM'), { set: true }),
      logger,
      {
        [ocspUrl]: answer,
      },
    )
    expect(outcome.verdict).toBe('good')
    expect(outcome.stub.count(ocspUrl)).toBe(1)
    // Another error than a StoreError is named by its name only: its message may quote a value.
    expect(warnings(logger).map((line) => line.fields)).toEqual([
      { event: 'revocation.cache-write-failed', url: ocspUrl, reason: 'TypeError' },
    ])
    expect(warnings(logger).map((line) => line.message)).toEqual([
      `revocation cache: keeping the OCSP answer failed; it is used, not kept (${ocspUrl}: TypeError)`,
    ])
  })

  it('reads the kept OCSP answer as a miss when the store fails, naming what it read', async () => {
    const certificate = await leaf({ ocsp: ocspUrl })
    const answer = await goodAnswer(certificate)
    const logger = recordingLogger()
    const outcome = await verdict(
      certificate,
      failingStore(new StoreError('get', 'the store failed get'), { get: true }),
      logger,
      { [ocspUrl]: answer },
    )
    expect(outcome.verdict).toBe('good')
    expect(outcome.stub.count(ocspUrl)).toBe(1)
    expect(warnings(logger).map((line) => line.message)).toEqual([
      expect.stringContaining(
        `revocation cache: reading the kept OCSP answer failed; it is fetched (${ocspUrl}: `,
      ),
    ])
  })

  it('still returns the caIssuers certificates fetched', async () => {
    const ca = await createCertificate({ commonName: 'Fetched CA', ca: true })
    const logger = recordingLogger()
    const stub = fetchStub({ [caIssuersUrl]: ca.der })
    const revocation = createOnlineRevocation({
      cache: failingStore('refused', { set: true }),
      fetch: stub.fetch,
      logger,
    })
    expect(await revocation.certificates(caIssuersUrl)).toEqual([ca.der])
    expect(warnings(logger).map((line) => line.fields)).toEqual([
      { event: 'revocation.cache-write-failed', url: caIssuersUrl, reason: 'failure' },
    ])
    expect(warnings(logger).map((line) => line.message)).toEqual([
      expect.stringContaining('keeping the caIssuers certificates failed; it is used, not kept'),
    ])
  })

  it('reads kept caIssuers certificates as a miss when the store fails, naming what it read', async () => {
    const ca = await createCertificate({ commonName: 'Fetched CA', ca: true })
    const logger = recordingLogger()
    const stub = fetchStub({ [caIssuersUrl]: ca.der })
    const revocation = createOnlineRevocation({
      cache: failingStore('refused', { get: true }),
      fetch: stub.fetch,
      logger,
    })
    expect(await revocation.certificates(caIssuersUrl)).toEqual([ca.der])
    expect(stub.count(caIssuersUrl)).toBe(1)
    expect(warnings(logger).map((line) => line.message)).toEqual([
      expect.stringContaining('reading the kept caIssuers certificates failed; it is fetched'),
    ])
  })

  it('never logs the document', async () => {
    const logger = recordingLogger()
    await verdict(await leaf({ crl: crlUrl }), failingStore(overQuota(), { set: true }), logger, {
      [crlUrl]: crlDer,
    })
    expect(warnings(logger)).toHaveLength(1)
    const written = JSON.stringify(logger.lines)
    const body = base64Encode(crlDer)
    expect(written).not.toContain(body.slice(0, 40))
    expect(written).not.toContain('secret')
  })
})

describe('a revocation cache read that fails', () => {
  it('is a miss: the CRL is fetched, verified and used, with one warn', async () => {
    const logger = recordingLogger()
    const outcome = await verdict(
      await leaf({ crl: crlUrl }),
      failingStore(new StoreError('get', 'the store failed get'), { get: true }),
      logger,
      { [crlUrl]: crlDer },
    )
    expect(outcome.verdict).toBe('good')
    expect(outcome.stub.count(crlUrl)).toBe(1)
    expect(warnings(logger).map((line) => line.fields)).toEqual([
      {
        event: 'revocation.cache-read-failed',
        url: 'http://pki.example.test/issuer.crl',
        reason: 'failed: the store failed get',
      },
    ])
    expect(warnings(logger)[0]?.message).toContain('reading the kept CRL failed; it is fetched')
  })

  it('never answers without a verified document: a source that then fails is unavailable', async () => {
    const logger = recordingLogger()
    const outcome = await verdict(
      await leaf({ crl: crlUrl }),
      failingStore(new TypeError('down'), { get: true, set: true }),
      logger,
    )
    expect(outcome.verdict).toBe('revocation-unavailable')
    expect(outcome.message).toContain('answered HTTP 404')
  })

  it('is a miss for a store that never answers, within the time limit', async () => {
    const never = () => new Promise<never>(() => {})
    const silent: KeyValueStore = { get: never, set: never, delete: never, setIfAbsent: never }
    const logger = recordingLogger()
    const stub = fetchStub({ [crlUrl]: crlDer })
    const revocation = createOnlineRevocation({
      cache: silent,
      fetch: stub.fetch,
      logger,
      // The limit bounds the in-memory fetch too: 500 ms keeps it clear of a loaded machine (the
      // store's read and write each wait it out, so the test takes about a second).
      timeoutMs: 500,
    })
    const certificate = await leaf({ crl: crlUrl })
    await checkRevocationOnline(
      certificate.parsed,
      issuer.parsed,
      revocation,
      at,
      verifyWithWebCrypto,
    )
    expect(warnings(logger).map((line) => line.fields?.event)).toEqual([
      'revocation.cache-read-failed',
      'revocation.cache-write-failed',
    ])
  })
})

describe('a logger that throws', () => {
  it('does not change the verdict', async () => {
    const throwing: Logger = {
      info: () => {},
      warn: () => {
        throw new Error('logger down')
      },
      error: () => {},
    }
    const outcome = await verdict(
      await leaf({ crl: revokedCrlUrl }),
      failingStore(overQuota(), { get: true, set: true }),
      throwing,
      { [revokedCrlUrl]: revokedCrlDer },
    )
    expect(outcome.verdict).toBe('revoked')
  })
})
