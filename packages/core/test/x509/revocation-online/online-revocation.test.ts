/**
 * `createOnlineRevocation`: how CRLs, OCSP answers and caIssuers certificates are fetched
 * (method, media types, the transport's timeout and the 10 MiB cap), kept (CRLs until their
 * nextUpdate, in the cache given or a memory one), shared (one fetch per URL in flight, per
 * cache) and forgotten (failures, full memos). Requests are counted on a `fetch` double; the
 * timeout runs on fake timers.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { base64Encode } from '../../../src/crypto/base64.js'
import { CryptoError } from '../../../src/errors/crypto-error.js'
import { HttpError } from '../../../src/errors/http-error.js'
import type { ParsedCrl } from '../../../src/x509/crl.js'
import { type OcspJudge, ocspStoreKey } from '../../../src/x509/revocation-online/ocsp-answers.js'
import {
  encodeOcspRequest,
  type OcspCertificateId,
  ocspCertificateId,
} from '../../../src/x509/revocation-online/ocsp-request.js'
import { ocspStatus } from '../../../src/x509/revocation-online/ocsp-status.js'
import { createOnlineRevocation } from '../../../src/x509/revocation-online/online-revocation.js'
import { maxRevocationDocumentBytes } from '../../../src/x509/revocation-online/revocation-document.js'
import { RevocationDocumentStatusError } from '../../../src/x509/revocation-online/revocation-document-status.js'
import { revocationMemory } from '../../../src/x509/revocation-online/revocation-memory.js'
import { fetchStub, hangingAnswer, heldAnswer, okResponse } from '../fixtures/fetch-stub.js'
import { ocspResponse, singleResponse } from '../fixtures/ocsp-responses.js'
import {
  certsOnlyPkcs7,
  createCertificate,
  createCrl,
  day,
  type TestCertificate,
} from '../fixtures/online-pki.js'
import { recordingStore } from '../fixtures/recording-store.js'
import { verifyWithWebCrypto } from '../fixtures/webcrypto-keys.js'

const at = new Date('2027-01-01T00:00:00Z')
const url = 'http://crl.example.test/issuer.crl'
const usable = async () => true

let issuer: TestCertificate
let current: Uint8Array
let later: Uint8Array
let endless: Uint8Array

beforeAll(async () => {
  issuer = await createCertificate({ commonName: 'CRL Issuer', ca: true })
  current = (
    await createCrl(issuer, {
      thisUpdate: new Date(at.getTime() - day),
      nextUpdate: new Date(at.getTime() + day),
    })
  ).der
  later = (
    await createCrl(issuer, { thisUpdate: at, nextUpdate: new Date(at.getTime() + 2 * day) })
  ).der
  endless = (await createCrl(issuer, { thisUpdate: new Date(at.getTime() - day) })).der
})

afterEach(() => {
  vi.useRealTimers()
})

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('no failure')
}

describe('createOnlineRevocation: CRLs', () => {
  it('GETs a CRL as application/pkix-crl and keeps it until its nextUpdate', async () => {
    const stub = fetchStub({ [url]: current })
    const { store, writes } = recordingStore()
    const revocation = createOnlineRevocation({ cache: store, fetch: stub.fetch })
    const crl = await revocation.crl(url, at, usable)
    expect(crl.der).toEqual(current)
    expect(stub.requests).toEqual([
      {
        url,
        method: 'GET',
        accept: 'application/pkix-crl',
        contentType: undefined,
        body: undefined,
      },
    ])
    expect(writes).toEqual([
      { key: `fhir-auth:crl:${url}`, value: base64Encode(current), ttlSeconds: 86_400 },
    ])
    expect((await revocation.crl(url, at, usable)).der).toEqual(current)
    expect(stub.count(url)).toBe(1)
  })

  it('reads a PEM CRL', async () => {
    const pem = `-----BEGIN X509 CRL-----\n${base64Encode(current)}\n-----END X509 CRL-----\n`
    const stub = fetchStub({ [url]: new TextEncoder().encode(pem) })
    const crl = await createOnlineRevocation({ fetch: stub.fetch }).crl(url, at, usable)
    expect(crl.der).toEqual(current)
  })

  it('keeps CRLs in a memory store of its own by default', async () => {
    const stub = fetchStub({ [url]: current })
    const revocation = createOnlineRevocation({ fetch: stub.fetch })
    await revocation.crl(url, at, usable)
    await revocation.crl(url, at, usable)
    expect(stub.count(url)).toBe(1)
    // Another default-cache object shares nothing with the first.
    await createOnlineRevocation({ fetch: stub.fetch }).crl(url, at, usable)
    expect(stub.count(url)).toBe(2)
  })

  it('asks `usable` about the cached CRL and fetches again when it refuses it', async () => {
    const stub = fetchStub({ [url]: current })
    const revocation = createOnlineRevocation({ cache: revocationMemory(), fetch: stub.fetch })
    await revocation.crl(url, at, usable)
    const judged: ParsedCrl[] = []
    const refuseCached = async (crl: ParsedCrl) => {
      judged.push(crl)
      return judged.length > 1
    }
    stub.serve(url, later)
    const crl = await revocation.crl(url, at, refuseCached)
    expect(judged.map((candidate) => candidate.der)).toEqual([current, later])
    expect(crl.der).toEqual(later)
    expect(stub.count(url)).toBe(2)
  })

  it('returns but does not keep a fetched CRL that `usable` refuses', async () => {
    const stub = fetchStub({ [url]: current })
    const { store, writes } = recordingStore()
    const revocation = createOnlineRevocation({ cache: store, fetch: stub.fetch })
    const crl = await revocation.crl(url, at, async () => false)
    expect(crl.der).toEqual(current)
    expect(writes).toEqual([])
  })

  it('does not keep a CRL without nextUpdate, or one whose nextUpdate is not after now', async () => {
    const stub = fetchStub({ [url]: endless })
    const { store, writes } = recordingStore()
    const revocation = createOnlineRevocation({ cache: store, fetch: stub.fetch })
    await revocation.crl(url, at, usable)
    await revocation.crl(url, at, usable)
    expect(stub.count(url)).toBe(2)
    stub.serve(url, current)
    await revocation.crl(url, new Date(at.getTime() + day), usable)
    await revocation.crl(url, new Date(at.getTime() + 2 * day), usable)
    expect(writes).toEqual([])
  })

  it('keeps a CRL for the seconds left to its nextUpdate, fractions included', async () => {
    const stub = fetchStub({ [url]: current })
    const { store, writes } = recordingStore()
    await createOnlineRevocation({ cache: store, fetch: stub.fetch }).crl(
      url,
      new Date(at.getTime() + day - 1500),
      usable,
    )
    expect(writes.map((write) => write.ttlSeconds)).toEqual([1.5])
  })

  it('forgets the cached CRL at its nextUpdate', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: at })
    const stub = fetchStub({ [url]: current })
    const revocation = createOnlineRevocation({ cache: revocationMemory(), fetch: stub.fetch })
    await revocation.crl(url, at, usable)
    vi.setSystemTime(at.getTime() + day - 1)
    await revocation.crl(url, at, usable)
    expect(stub.count(url)).toBe(1)
    vi.setSystemTime(at.getTime() + day)
    await revocation.crl(url, at, usable)
    expect(stub.count(url)).toBe(2)
  })

  it('fetches again when the cached value is not a CRL', async () => {
    const stub = fetchStub({ [url]: current })
    const cache = revocationMemory()
    const revocation = createOnlineRevocation({ cache, fetch: stub.fetch })
    for (const value of ['not base64!', base64Encode(Uint8Array.of(0x30, 0x00))]) {
      await cache.set(`fhir-auth:crl:${url}`, value, 60)
      expect((await revocation.crl(url, at, usable)).der).toEqual(current)
    }
    expect(stub.count(url)).toBe(2)
  })

  it('reads a CRL another writer stored, and parses each stored value once', async () => {
    const stub = fetchStub({ [url]: current })
    const cache = revocationMemory()
    const first = await createOnlineRevocation({ cache, fetch: stub.fetch }).crl(url, at, usable)
    // The same cache, another object: the parsed CRL is shared.
    const second = createOnlineRevocation({ cache, fetch: stub.fetch })
    expect(await second.crl(url, at, usable)).toBe(first)
    await cache.set(`fhir-auth:crl:${url}`, base64Encode(later), 60)
    const replaced = await second.crl(url, at, usable)
    expect(replaced.der).toEqual(later)
    expect(await second.crl(url, at, usable)).toBe(replaced)
    expect(stub.count(url)).toBe(1)
  })

  it('makes one fetch for concurrent callers sharing a cache, then fetches again', async () => {
    const held = heldAnswer()
    const stub = fetchStub({ [url]: held.answer })
    const cache = revocationMemory()
    const callers = [
      createOnlineRevocation({ cache, fetch: stub.fetch }),
      createOnlineRevocation({ cache, fetch: stub.fetch }),
      createOnlineRevocation({ cache, fetch: stub.fetch }),
    ].map((revocation) => revocation.crl(url, at, usable))
    await vi.waitFor(() => expect(stub.count(url)).toBe(1))
    held.release(okResponse(endless))
    const crls = await Promise.all(callers)
    expect(new Set(crls).size).toBe(1)
    expect(stub.count(url)).toBe(1)
    // Not kept (no nextUpdate), and no longer in flight: the next caller fetches.
    await createOnlineRevocation({ cache, fetch: stub.fetch }).crl(url, at, usable)
    expect(stub.count(url)).toBe(2)
  })

  it('shares a failed fetch with the callers waiting on it, then tries again', async () => {
    const held = heldAnswer()
    const stub = fetchStub({ [url]: held.answer })
    const revocation = createOnlineRevocation({ fetch: stub.fetch })
    const callers = [revocation.crl(url, at, usable), revocation.crl(url, at, usable)]
    await vi.waitFor(() => expect(stub.count(url)).toBe(1))
    held.release(new Response('gone', { status: 410 }))
    for (const caller of callers) {
      const error = await failure(caller)
      expect(error).toBeInstanceOf(RevocationDocumentStatusError)
      expect(error).toMatchObject({ status: 410, message: 'answered HTTP 410' })
    }
    stub.serve(url, current)
    expect((await revocation.crl(url, at, usable)).der).toEqual(current)
    expect(stub.count(url)).toBe(2)
  })

  it('refuses a body that is not a CRL', async () => {
    const stub = fetchStub({ [url]: new TextEncoder().encode('<html>not a CRL</html>') })
    const error = await failure(createOnlineRevocation({ fetch: stub.fetch }).crl(url, at, usable))
    expect(CryptoError.isInstance(error) && error.reason).toBe('invalid-crl')
  })

  it('gives up at the transport timeout it was given', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let started = () => {}
    const begun = new Promise<void>((resolve) => {
      started = resolve
    })
    const stub = fetchStub({ [url]: hangingAnswer(() => started()) })
    const pending = createOnlineRevocation({ fetch: stub.fetch, timeoutMs: 50 }).crl(
      url,
      at,
      usable,
    )
    pending.catch(() => {})
    await begun
    await vi.advanceTimersByTimeAsync(49)
    expect(await stateOf(pending)).toBe('pending')
    await vi.advanceTimersByTimeAsync(1)
    expect(await stateOf(pending)).toBe('settled')
    const error = await failure(pending)
    expect(HttpError.isInstance(error) && error.reason).toBe('timeout')
  })

  it('waits for a slow cache up to the default time limit (10 s), then counts it as a miss and fetches', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const stub = fetchStub({ [url]: current })
    const slow = (get: () => Promise<undefined>) =>
      createOnlineRevocation({ cache: { ...revocationMemory(), get }, fetch: stub.fetch })
    const answered = slow(
      () => new Promise((resolve) => setTimeout(() => resolve(undefined), 9_999)),
    ).crl(url, at, usable)
    await vi.advanceTimersByTimeAsync(9_999)
    expect((await answered).der).toEqual(current)
    expect(stub.count(url)).toBe(1)
    const never = slow(() => new Promise(() => {})).crl(url, at, usable)
    never.catch(() => {})
    await vi.advanceTimersByTimeAsync(9_999)
    expect(await stateOf(never)).toBe('pending')
    expect(stub.count(url)).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    expect((await never).der).toEqual(current)
    expect(stub.count(url)).toBe(2)
  })

  it('refuses a body over 10 MiB, declared or streamed, without reading it whole', async () => {
    expect(maxRevocationDocumentBytes).toBe(10 * 1024 * 1024)
    const declared = new Response(new Uint8Array(1), {
      headers: { 'content-length': String(maxRevocationDocumentBytes + 1) },
    })
    let pulled = 0
    const chunk = new Uint8Array(1024 * 1024)
    const streamed = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            pulled++
            controller.enqueue(pulled <= 10 ? chunk : Uint8Array.of(0))
            if (pulled > 100) controller.close()
          },
        }),
      )
    const stub = fetchStub({ [url]: declared, 'http://crl.example.test/streamed.crl': streamed })
    const revocation = createOnlineRevocation({ fetch: stub.fetch })
    for (const target of [url, 'http://crl.example.test/streamed.crl']) {
      const error = await failure(revocation.crl(target, at, usable))
      expect(HttpError.isInstance(error) && error.reason).toBe('too-large')
    }
    expect(pulled).toBeLessThan(20)
  })
})

/** Whether `promise` has settled, after letting its pending reactions run (no timers). */
async function stateOf(promise: Promise<unknown>): Promise<'pending' | 'settled'> {
  let state: 'pending' | 'settled' = 'pending'
  promise.then(
    () => {
      state = 'settled'
    },
    () => {
      state = 'settled'
    },
  )
  for (let turn = 0; turn < 20; turn++) await Promise.resolve()
  return state
}

describe('createOnlineRevocation: OCSP', () => {
  const responder = 'http://ocsp.example.test/'
  let leaf: TestCertificate
  let id: OcspCertificateId
  let otherId: OcspCertificateId
  let good: Uint8Array

  beforeAll(async () => {
    leaf = await createCertificate({ commonName: 'OCSP Leaf', issuer })
    id = await ocspCertificateId(leaf.parsed, issuer.parsed)
    const other = await createCertificate({ commonName: 'Other Leaf', issuer })
    otherId = await ocspCertificateId(other.parsed, issuer.parsed)
    good = await ocspResponse({
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
  })

  /** `ocspStatus` for `certificateId`, recording the nonce each judgement was given. */
  function judgeOf(certificateId: OcspCertificateId = id) {
    const nonces: (Uint8Array | undefined)[] = []
    const judge: OcspJudge = (response, nonce) => {
      nonces.push(nonce)
      return ocspStatus(response, certificateId, issuer.parsed, at, verifyWithWebCrypto, nonce)
    }
    return { judge, nonces }
  }

  it('POSTs the CertID with a fresh nonce as application/ocsp-request and judges the answer with it', async () => {
    const stub = fetchStub({ [responder]: good })
    const { judge, nonces } = judgeOf()
    const revocation = createOnlineRevocation({ fetch: stub.fetch })
    expect(await revocation.ocsp(responder, id, at, judge)).toEqual({ status: 'good' })
    const [nonce] = nonces
    expect(nonces).toHaveLength(1)
    // extnValue: Nonce ::= OCTET STRING of 32 octets (RFC 8954 §2.1).
    expect(Array.from(nonce?.subarray(0, 2) ?? [])).toEqual([0x04, 32])
    expect(nonce).toHaveLength(34)
    expect(stub.requests).toEqual([
      {
        url: responder,
        method: 'POST',
        accept: 'application/ocsp-response',
        contentType: 'application/ocsp-request',
        body: encodeOcspRequest(id, nonce),
      },
    ])
    // Another request, another nonce.
    const second = judgeOf()
    await createOnlineRevocation({ fetch: stub.fetch }).ocsp(responder, id, at, second.judge)
    expect(second.nonces).toHaveLength(1)
    expect(second.nonces[0]).not.toEqual(nonce)
    expect(stub.requests[1]?.body).toEqual(encodeOcspRequest(id, second.nonces[0]))
  })

  it('shares one POST among concurrent requests for one certificate and responder only', async () => {
    const held = heldAnswer()
    const other = 'http://other.example.test/'
    const stub = fetchStub({ [responder]: held.answer, [other]: held.answer })
    const cache = revocationMemory()
    const revocation = createOnlineRevocation({ cache, fetch: stub.fetch })
    const judges = [judgeOf(), judgeOf(), judgeOf(otherId), judgeOf()]
    const calls = [
      revocation.ocsp(responder, id, at, judges[0]!.judge),
      createOnlineRevocation({ cache, fetch: stub.fetch }).ocsp(
        responder,
        id,
        at,
        judges[1]!.judge,
      ),
      revocation.ocsp(responder, otherId, at, judges[2]!.judge),
      revocation.ocsp(other, id, at, judges[3]!.judge),
    ]
    await vi.waitFor(() => expect(stub.requests).toHaveLength(3))
    held.release(okResponse(good))
    expect(await Promise.all(calls)).toEqual([
      { status: 'good' },
      { status: 'good' },
      { status: 'no-answer', problem: 'does not answer for this certificate' },
      { status: 'good' },
    ])
    expect([stub.count(responder), stub.count(other)]).toEqual([2, 1])
    // The two callers that shared the POST judged it with the nonce it carried.
    const [first, second, third, fourth] = judges.map((each) => each.nonces[0])
    expect(second).toEqual(first)
    expect(stub.requests.map((request) => request.body)).toEqual([
      encodeOcspRequest(id, first),
      encodeOcspRequest(otherId, third),
      encodeOcspRequest(id, fourth),
    ])
    expect(new Set([first, third, fourth].map((nonce) => base64Encode(nonce!))).size).toBe(3)
    // The good answer is kept: the next caller asks nobody; the other certificate's is not.
    expect(await revocation.ocsp(responder, id, at, judgeOf().judge)).toEqual({ status: 'good' })
    expect(stub.count(responder)).toBe(2)
    await revocation.ocsp(responder, otherId, at, judgeOf(otherId).judge)
    expect(stub.count(responder)).toBe(3)
  })

  it('fails with the status of a refusal and forgets the failed POST', async () => {
    const stub = fetchStub()
    const revocation = createOnlineRevocation({ fetch: stub.fetch })
    const error = await failure(revocation.ocsp(responder, id, at, judgeOf().judge))
    expect(error).toBeInstanceOf(RevocationDocumentStatusError)
    expect(error).toMatchObject({ status: 404 })
    stub.serve(responder, good)
    expect(await revocation.ocsp(responder, id, at, judgeOf().judge)).toEqual({ status: 'good' })
    expect(stub.count(responder)).toBe(2)
  })

  it('keeps answers in the cache it was given, signed DER under the responder and CertID', async () => {
    const stub = fetchStub({ [responder]: good })
    const { store, writes } = recordingStore()
    await createOnlineRevocation({ cache: store, fetch: stub.fetch }).ocsp(
      responder,
      id,
      at,
      judgeOf().judge,
    )
    expect(writes).toEqual([
      { key: ocspStoreKey(responder, id), value: base64Encode(good), ttlSeconds: 86_400 },
    ])
  })
})

describe('createOnlineRevocation: caIssuers', () => {
  const location = 'http://ca.example.test/issuer.cer'
  let other: TestCertificate

  beforeAll(async () => {
    other = await createCertificate({ commonName: 'Other' })
  })

  it('GETs a certificate or a certs-only PKCS#7 once per URL', async () => {
    const bundle = 'http://ca.example.test/issuers.p7c'
    const stub = fetchStub({
      [location]: issuer.der,
      [bundle]: certsOnlyPkcs7([other.der, issuer.der]),
    })
    const cache = revocationMemory()
    const revocation = createOnlineRevocation({ cache, fetch: stub.fetch })
    expect(await revocation.certificates(location)).toEqual([issuer.der])
    expect(await revocation.certificates(bundle)).toEqual([other.der, issuer.der])
    expect(
      await createOnlineRevocation({ cache, fetch: stub.fetch }).certificates(location),
    ).toEqual([issuer.der])
    expect(stub.requests.map(({ url, method, accept }) => ({ url, method, accept }))).toEqual([
      { url: location, method: 'GET', accept: 'application/pkix-cert, application/pkcs7-mime' },
      { url: bundle, method: 'GET', accept: 'application/pkix-cert, application/pkcs7-mime' },
    ])
  })

  it('forgets a failed fetch or a body that is no certificate, and tries again', async () => {
    const stub = fetchStub()
    const revocation = createOnlineRevocation({ fetch: stub.fetch })
    expect(await failure(revocation.certificates(location))).toBeInstanceOf(
      RevocationDocumentStatusError,
    )
    stub.serve(location, new TextEncoder().encode('<html>'))
    const error = await failure(revocation.certificates(location))
    expect(CryptoError.isInstance(error) && error.reason).toBe('invalid-certificate')
    stub.serve(location, issuer.der)
    expect(await revocation.certificates(location)).toEqual([issuer.der])
    expect(await revocation.certificates(location)).toEqual([issuer.der])
    expect(stub.count(location)).toBe(3)
  })

  it('remembers at most 256 URLs, the oldest going first', async () => {
    const stub = fetchStub()
    const urls = Array.from({ length: 257 }, (_, index) => `http://ca.example.test/${index}.cer`)
    for (const each of urls) stub.serve(each, issuer.der)
    const revocation = createOnlineRevocation({ fetch: stub.fetch })
    for (const each of urls) await revocation.certificates(each)
    await revocation.certificates(urls[1] as string)
    expect(stub.count(urls[1] as string)).toBe(1)
    await revocation.certificates(urls[0] as string)
    expect(stub.count(urls[0] as string)).toBe(2)
  })

  it('joins a fetch of the URL in flight, also once 256 other URLs filled the store, and shares its failure', async () => {
    const held = heldAnswer()
    const stub = fetchStub({ [location]: held.answer })
    const revocation = createOnlineRevocation({ fetch: stub.fetch })
    const old = revocation.certificates(location)
    old.catch(() => {})
    for (let index = 0; index < 256; index++) {
      const each = `http://ca.example.test/${index}.cer`
      stub.serve(each, issuer.der)
      await revocation.certificates(each)
    }
    const joined = revocation.certificates(location)
    joined.catch(() => {})
    held.release(new Response('', { status: 500 }))
    for (const caller of [old, joined]) {
      expect(await failure(caller)).toMatchObject({ status: 500 })
    }
    expect(stub.count(location)).toBe(1)
    // Forgotten once failed: the next caller fetches, and what it fetched is kept.
    stub.serve(location, issuer.der)
    expect(await revocation.certificates(location)).toEqual([issuer.der])
    expect(await revocation.certificates(location)).toEqual([issuer.der])
    expect(stub.count(location)).toBe(2)
  })
})

describe('createOnlineRevocation: the parsed-CRL memo', () => {
  const urls = Array.from({ length: 257 }, (_, index) => `http://crl.example.test/${index}.crl`)

  it('holds at most 256 parsed CRLs per cache, the least recently stored going first', async () => {
    const stub = fetchStub()
    for (const each of urls) stub.serve(each, current)
    const cache = revocationMemory(10_000)
    const revocation = createOnlineRevocation({ cache, fetch: stub.fetch })
    const first = await revocation.crl(urls[0] as string, at, usable)
    const second = await revocation.crl(urls[1] as string, at, usable)
    const fifth = await revocation.crl(urls[5] as string, at, usable)
    for (const each of urls.slice(2, 256)) await revocation.crl(each, at, usable)
    // 256 remembered. Another value stored for the sixth: it is parsed again and becomes the
    // most recent, with nothing evicted.
    await cache.set(`fhir-auth:crl:${urls[5]}`, base64Encode(later), 60)
    const replaced = await revocation.crl(urls[5] as string, at, usable)
    expect(replaced).not.toBe(fifth)
    expect(await revocation.crl(urls[0] as string, at, usable)).toBe(first)
    // The 257th evicts the oldest (the first), not the second.
    await revocation.crl(urls[256] as string, at, usable)
    expect(await revocation.crl(urls[1] as string, at, usable)).toBe(second)
    const again = await revocation.crl(urls[0] as string, at, usable)
    expect(again).not.toBe(first)
    expect(again.der).toEqual(current)
    expect(stub.requests).toHaveLength(257)
  })

  it('a default cache holds 256 CRLs', async () => {
    const stub = fetchStub()
    for (const each of urls) stub.serve(each, current)
    const revocation = createOnlineRevocation({ fetch: stub.fetch })
    for (const each of urls) await revocation.crl(each, at, usable)
    await revocation.crl(urls[1] as string, at, usable)
    await revocation.crl(urls[0] as string, at, usable)
    expect([stub.count(urls[0] as string), stub.count(urls[1] as string)]).toEqual([2, 1])
  })
})
