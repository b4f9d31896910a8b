/**
 * `caIssuersCertificates`: AIA `caIssuers` documents kept in the revocation store
 * (`fhir-auth:ca-issuers:<url>`, base64 DER certificates separated by commas) for a day at most
 * and never past their earliest `notAfter`; nothing kept for a failed fetch, an empty document
 * or one holding something that is no certificate; an entry that does not read back as
 * certificates fetched again; one fetch per URL in flight. The clock is faked (`Date` only) so
 * lifetimes are exact.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { base64Encode } from '../../../src/crypto/base64.js'
import type { KeyValueStore } from '../../../src/stores/key-value-store.js'
import { encodeDerSequence } from '../../../src/x509/der.js'
import {
  type CaIssuersSource,
  caIssuersCertificates,
  maxCaIssuersTtlSeconds,
  maxKeptCaIssuersBytes,
} from '../../../src/x509/revocation-online/ca-issuers-cache.js'
import { RevocationDocumentStatusError } from '../../../src/x509/revocation-online/revocation-document-status.js'
import { revocationMemory } from '../../../src/x509/revocation-online/revocation-memory.js'
import { type Answer, fetchStub, heldAnswer, okResponse } from '../fixtures/fetch-stub.js'
import {
  certsOnlyPkcs7,
  createCertificate,
  day,
  integer,
  type TestCertificate,
} from '../fixtures/online-pki.js'
import { recordingStore } from '../fixtures/recording-store.js'

const now = new Date('2027-01-01T00:00:00Z')
const url = 'http://ca.example.test/issuer.p7c'
const key = `fhir-auth:ca-issuers:${url}`
const hour = 3_600_000

let root: TestCertificate
let intermediate: TestCertificate
let shortLived: TestCertificate

beforeAll(async () => {
  root = await createCertificate({
    commonName: 'Root',
    ca: true,
    notBefore: new Date(now.getTime() - 365 * day),
    notAfter: new Date(now.getTime() + 365 * day),
  })
  intermediate = await createCertificate({
    commonName: 'Intermediate',
    issuer: root,
    ca: true,
    notBefore: new Date(now.getTime() - 365 * day),
    notAfter: new Date(now.getTime() + 2 * day),
  })
  shortLived = await createCertificate({
    commonName: 'Short-lived',
    issuer: root,
    ca: true,
    notBefore: new Date(now.getTime() - day),
    notAfter: new Date(now.getTime() + 2 * hour),
  })
})

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now })
})

afterEach(() => {
  vi.useRealTimers()
})

function setup(answers: Record<string, Answer> = {}, cache: KeyValueStore = revocationMemory()) {
  const stub = fetchStub(answers)
  const { store, writes } = recordingStore(cache)
  const source: CaIssuersSource = { cache: store, inFlight: new Map(), fetch: stub.fetch }
  return { stub, store, writes, source, fetch: () => caIssuersCertificates(source, url) }
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('no failure')
}

describe('caIssuersCertificates: what is kept', () => {
  it('keeps the certificates in order, base64 DER joined by commas, for a day at most', async () => {
    expect(maxCaIssuersTtlSeconds).toBe(86_400)
    const { fetch, writes, stub } = setup({
      [url]: certsOnlyPkcs7([intermediate.der, root.der]),
    })
    expect(await fetch()).toEqual([intermediate.der, root.der])
    expect(writes).toEqual([
      {
        key,
        value: `${base64Encode(intermediate.der)},${base64Encode(root.der)}`,
        ttlSeconds: 86_400,
      },
    ])
    expect(await fetch()).toEqual([intermediate.der, root.der])
    expect(stub.count(url)).toBe(1)
  })

  it('keeps them no longer than the earliest notAfter among them', async () => {
    const { fetch, writes } = setup({ [url]: certsOnlyPkcs7([root.der, shortLived.der]) })
    await fetch()
    expect(writes.map((write) => write.ttlSeconds)).toEqual([7_200])
  })

  it('keeps one DER certificate as one entry', async () => {
    const { fetch, writes } = setup({ [url]: shortLived.der })
    expect(await fetch()).toEqual([shortLived.der])
    expect(writes).toEqual([{ key, value: base64Encode(shortLived.der), ttlSeconds: 7_200 }])
  })

  it('keeps nothing for a certificate whose notAfter is now or past, an empty bundle or one holding no certificate', async () => {
    const expiring = setup({ [url]: shortLived.der })
    vi.setSystemTime(shortLived.parsed.notAfter)
    expect(await expiring.fetch()).toEqual([shortLived.der])
    vi.setSystemTime(shortLived.parsed.notAfter.getTime() + 1000)
    expect(await expiring.fetch()).toEqual([shortLived.der])
    expect(expiring.writes).toEqual([])
    expect(expiring.stub.count(url)).toBe(2)
    vi.setSystemTime(now)
    const empty = setup({ [url]: certsOnlyPkcs7([]) })
    expect(await empty.fetch()).toEqual([])
    expect(empty.writes).toEqual([])
    const notCertificate = encodeDerSequence(integer(1))
    const mixed = setup({ [url]: certsOnlyPkcs7([root.der, notCertificate]) })
    expect(await mixed.fetch()).toEqual([root.der, notCertificate])
    expect(mixed.writes).toEqual([])
  })

  it('forgets what it kept after its time, and fetches again', async () => {
    const { fetch, stub } = setup({ [url]: shortLived.der })
    await fetch()
    vi.setSystemTime(now.getTime() + 2 * hour - 1)
    await fetch()
    expect(stub.count(url)).toBe(1)
    vi.setSystemTime(now.getTime() + 2 * hour)
    await fetch()
    expect(stub.count(url)).toBe(2)
  })
})

describe('caIssuersCertificates: documents over 128 KiB are used but not kept', () => {
  /**
   * A certificate of exactly `size` DER octets (its common name padded to fit). Each issuance's
   * DER ECDSA signature is 70, 71 or 72 octets (r and s take a leading zero half the time), and
   * the padding is fitted to the previous attempt, so an attempt lands exactly when its signature
   * is as long as the one before: 3 times in 8. 20 attempts missed once (a Stryker dry run, about
   * 1 in 8,000); 200 leave a miss at about 1e-40.
   */
  async function certificateOfSize(size: number): Promise<Uint8Array> {
    let padding = 1
    for (let attempt = 0; attempt < 200; attempt++) {
      const certificate = await createCertificate({
        commonName: 'x'.repeat(padding),
        issuer: root,
        notBefore: new Date(now.getTime() - day),
        notAfter: new Date(now.getTime() + 365 * day),
      })
      if (certificate.der.length === size) return certificate.der
      padding = Math.max(1, padding + size - certificate.der.length)
    }
    throw new Error(`no certificate of ${size} octets`)
  }

  it('keeps 128 KiB of certificates, not one octet more', async () => {
    expect(maxKeptCaIssuersBytes).toBe(131_072)
    const copies = Math.floor((maxKeptCaIssuersBytes - 1_000) / root.der.length)
    const rest = maxKeptCaIssuersBytes - copies * root.der.length
    const many = Array<Uint8Array>(copies).fill(root.der)
    for (const [extra, kept] of [
      [0, 1],
      [1, 0],
    ] as const) {
      const filler = await certificateOfSize(rest + extra)
      const bundle = [...many, filler]
      const { fetch, writes } = setup({ [url]: certsOnlyPkcs7(bundle) })
      expect(await fetch()).toEqual(bundle)
      expect(writes).toHaveLength(kept)
    }
  })
})

describe('caIssuersCertificates: a kept entry is read back as certificates or fetched again', () => {
  it('answers from an entry another writer stored, asking nobody', async () => {
    const { fetch, store, stub } = setup()
    await store.set(key, `${base64Encode(root.der)},${base64Encode(intermediate.der)}`, 600)
    expect(await fetch()).toEqual([root.der, intermediate.der])
    expect(stub.requests).toEqual([])
  })

  it('fetches again when the entry is garbage, empty or holds something that is no certificate', async () => {
    const { fetch, store, stub, writes } = setup({ [url]: root.der })
    const entries = [
      'garbage',
      '',
      'not base64!',
      base64Encode(Uint8Array.of(0x30, 0x00)),
      `${base64Encode(root.der)},garbage`,
      `${base64Encode(root.der)},`,
    ]
    for (const entry of entries) {
      await store.set(key, entry, 600)
      expect(await fetch()).toEqual([root.der])
    }
    expect(stub.count(url)).toBe(entries.length)
    expect(writes.filter((write) => write.value === base64Encode(root.der))).toHaveLength(
      entries.length,
    )
  })

  it('treats a store that answers null as empty', async () => {
    const { fetch, stub } = setup(
      { [url]: root.der },
      { ...revocationMemory(), get: async () => null },
    )
    expect(await fetch()).toEqual([root.der])
    expect(stub.count(url)).toBe(1)
  })
})

describe('caIssuersCertificates: one fetch per URL in flight', () => {
  it('shares one GET among concurrent callers, then forgets it', async () => {
    const held = heldAnswer()
    const { source, stub, writes } = setup({ [url]: held.answer })
    const calls = [caIssuersCertificates(source, url), caIssuersCertificates(source, url)]
    await vi.waitFor(() => expect(stub.count(url)).toBe(1))
    expect([...source.inFlight.keys()]).toEqual([url])
    held.release(okResponse(root.der))
    expect(await Promise.all(calls)).toEqual([[root.der], [root.der]])
    expect(stub.requests.map(({ method, accept }) => ({ method, accept }))).toEqual([
      { method: 'GET', accept: 'application/pkix-cert, application/pkcs7-mime' },
    ])
    expect(writes).toHaveLength(1)
    expect(source.inFlight.size).toBe(0)
  })

  it('shares a failure with the callers waiting, keeps nothing, and fetches again', async () => {
    const held = heldAnswer()
    const { source, stub, writes, fetch } = setup({ [url]: held.answer })
    const calls = [fetch(), caIssuersCertificates(source, url)]
    await vi.waitFor(() => expect(stub.count(url)).toBe(1))
    held.release(new Response('', { status: 404 }))
    for (const call of calls) {
      const error = await failure(call)
      expect(error).toBeInstanceOf(RevocationDocumentStatusError)
      expect(error).toMatchObject({ status: 404 })
    }
    expect(writes).toEqual([])
    expect(source.inFlight.size).toBe(0)
    stub.serve(url, root.der)
    expect(await fetch()).toEqual([root.der])
    expect(stub.count(url)).toBe(2)
  })
})
