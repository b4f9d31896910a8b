/**
 * `askOcsp`: OCSP answers kept in the revocation store as the responder's signed DER
 * (`fhir-auth:ocsp:<CertID>@<url>`) until their `nextUpdate` (or `thisUpdate` + five minutes
 * without one), `unknown` and refusals never kept, every kept entry judged again on read (a
 * rewritten, foreign or garbage entry is no answer and the responder is asked), a fresh nonce
 * in each request and the RFC 8954 rule for the echo, one exchange per URL and CertID in flight.
 * Real signatures (the in-test P-256 PKI); requests counted on a `fetch` double.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { base64Encode } from '../../../src/crypto/base64.js'
import { CryptoError } from '../../../src/errors/crypto-error.js'
import type { KeyValueStore } from '../../../src/stores/key-value-store.js'
import {
  askOcsp,
  type OcspAnswerSource,
  type OcspJudge,
  ocspStoreKey,
} from '../../../src/x509/revocation-online/ocsp-answers.js'
import {
  encodeOcspRequest,
  type OcspCertificateId,
  ocspCertificateId,
} from '../../../src/x509/revocation-online/ocsp-request.js'
import { ocspStatus } from '../../../src/x509/revocation-online/ocsp-status.js'
import { RevocationDocumentStatusError } from '../../../src/x509/revocation-online/revocation-document-status.js'
import { revocationMemory } from '../../../src/x509/revocation-online/revocation-memory.js'
import { type Answer, fetchStub, heldAnswer, okResponse } from '../fixtures/fetch-stub.js'
import { nonceExtension, ocspResponse, singleResponse } from '../fixtures/ocsp-responses.js'
import {
  createCertificate,
  day,
  type TestCertificate,
  type TestKey,
} from '../fixtures/online-pki.js'
import { recordingStore } from '../fixtures/recording-store.js'
import { verifyWithWebCrypto } from '../fixtures/webcrypto-keys.js'

const at = new Date('2027-01-01T12:00:00Z')
const minute = 60_000
const url = 'http://ocsp.example.test/issuer'
const validity = {
  notBefore: new Date('2026-01-01T00:00:00Z'),
  notAfter: new Date('2028-01-01T00:00:00Z'),
}

let issuer: TestCertificate
let leaf: TestCertificate
let other: TestCertificate
let id: OcspCertificateId
let otherId: OcspCertificateId

beforeAll(async () => {
  issuer = await createCertificate({ commonName: 'OCSP Issuer', ca: true, ...validity })
  leaf = await createCertificate({ commonName: 'Leaf', issuer, ...validity })
  other = await createCertificate({ commonName: 'Other', issuer, ...validity })
  id = await ocspCertificateId(leaf.parsed, issuer.parsed)
  otherId = await ocspCertificateId(other.parsed, issuer.parsed)
})

interface AnswerOptions {
  readonly status?: 'good' | 'revoked' | 'unknown'
  readonly certificateId?: OcspCertificateId
  readonly thisUpdate?: Date
  /** `null`: no nextUpdate. */
  readonly nextUpdate?: Date | null
  /** The nonce extension's value, when the answer carries one. */
  readonly nonce?: Uint8Array
  readonly signer?: TestKey
}

/** A signed answer about `leaf` (good, an hour old, a day to its nextUpdate by default). */
function answer(options: AnswerOptions = {}): Promise<Uint8Array> {
  return ocspResponse({
    signer: options.signer ?? issuer.key,
    responses: [
      singleResponse({
        certId: (options.certificateId ?? id).der,
        status: options.status ?? 'good',
        thisUpdate: options.thisUpdate ?? new Date(at.getTime() - 60 * minute),
        nextUpdate:
          options.nextUpdate === null
            ? undefined
            : (options.nextUpdate ?? new Date(at.getTime() + day)),
      }),
    ],
    extensions: options.nonce === undefined ? undefined : [nonceExtension(options.nonce)],
  })
}

/** The nonce a request body carries: its last 34 octets (OCTET STRING of 32). */
function requestNonce(body: Uint8Array | undefined): Uint8Array {
  const bytes = body ?? new Uint8Array()
  return bytes.subarray(bytes.length - 34)
}

/** An answer built for each request, echoing what `nonceOf` makes of the request's nonce. */
function echoing(nonceOf: (nonce: Uint8Array) => Uint8Array, options: AnswerOptions = {}): Answer {
  return async (request) =>
    okResponse(await answer({ ...options, nonce: nonceOf(requestNonce(request.body)) }))
}

/** `ocspStatus` about `certificateId` at `when`, recording the nonce of each judgement. */
function judgeOf(certificateId: OcspCertificateId = id, when: Date = at) {
  const nonces: (Uint8Array | undefined)[] = []
  const judge: OcspJudge = (response, nonce) => {
    nonces.push(nonce)
    return ocspStatus(response, certificateId, issuer.parsed, when, verifyWithWebCrypto, nonce)
  }
  return { judge, nonces }
}

function setup(answers: Record<string, Answer> = {}, cache?: KeyValueStore) {
  const stub = fetchStub(answers)
  const recording = recordingStore(cache)
  const source: OcspAnswerSource = {
    cache: recording.store,
    inFlight: new Map(),
    fetch: stub.fetch,
  }
  const ask = (when: Date = at, certificateId: OcspCertificateId = id) => {
    const { judge, nonces } = judgeOf(certificateId, when)
    return askOcsp(source, url, certificateId, when, judge).then((status) => ({ status, nonces }))
  }
  return { stub, source, writes: recording.writes, store: recording.store, ask }
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('no failure')
}

describe('ocspStoreKey', () => {
  it('names the responder URL and the CertID in hex, two digits an octet', () => {
    const certificate = {
      issuerNameHash: Uint8Array.of(0x00, 0x0f, 0xab),
      issuerKeyHash: Uint8Array.of(0x10, 0xff),
      serialNumber: Uint8Array.of(0x01),
      der: new Uint8Array(),
    }
    expect(ocspStoreKey(url, certificate)).toBe(
      'fhir-auth:ocsp:000fab:10ff:01@http://ocsp.example.test/issuer',
    )
    expect(ocspStoreKey('http://ocsp.example.test/other', certificate)).toBe(
      'fhir-auth:ocsp:000fab:10ff:01@http://ocsp.example.test/other',
    )
  })
})

describe('askOcsp: what is kept', () => {
  it('keeps a good answer, the signed DER, until its nextUpdate, and answers from it', async () => {
    const good = await answer()
    const { ask, writes, stub } = setup({ [url]: good })
    expect((await ask()).status).toEqual({ status: 'good' })
    expect(writes).toEqual([
      { key: ocspStoreKey(url, id), value: base64Encode(good), ttlSeconds: 86_400 },
    ])
    const again = await ask()
    expect(again).toEqual({ status: { status: 'good' }, nonces: [undefined] })
    expect(stub.count(url)).toBe(1)
  })

  it('keeps a revoked answer for the seconds left to its nextUpdate, fractions included', async () => {
    const { ask, writes, stub } = setup({
      [url]: await answer({ status: 'revoked', nextUpdate: new Date(at.getTime() + 90_000) }),
    })
    expect((await ask(new Date(at.getTime() + 1500))).status).toEqual({ status: 'revoked' })
    expect(writes.map((write) => write.ttlSeconds)).toEqual([88.5])
    expect((await ask()).status).toEqual({ status: 'revoked' })
    expect(stub.count(url)).toBe(1)
  })

  it('keeps an answer without nextUpdate only until thisUpdate + five minutes', async () => {
    const { ask, writes } = setup({
      [url]: await answer({ thisUpdate: new Date(at.getTime() - minute), nextUpdate: null }),
    })
    expect((await ask()).status).toEqual({ status: 'good' })
    expect(writes.map((write) => write.ttlSeconds)).toEqual([240])
  })

  it('does not keep an answer whose time is up at the validation time, though it counts', async () => {
    for (const options of [
      { thisUpdate: new Date(at.getTime() - 5 * minute), nextUpdate: null },
      { thisUpdate: new Date(at.getTime() - 60 * minute), nextUpdate: at },
      {
        thisUpdate: new Date(at.getTime() - 60 * minute),
        nextUpdate: new Date(at.getTime() - minute),
      },
    ]) {
      const { ask, writes, stub } = setup({ [url]: await answer(options) })
      expect((await ask()).status).toEqual({ status: 'good' })
      expect((await ask()).status).toEqual({ status: 'good' })
      expect(writes).toEqual([])
      expect(stub.count(url)).toBe(2)
    }
  })

  it('never keeps unknown, nor an answer the judge refuses', async () => {
    const { ask, writes, stub } = setup({ [url]: await answer({ status: 'unknown' }) })
    for (let round = 0; round < 2; round++) {
      expect((await ask()).status).toEqual({ status: 'no-answer', problem: 'answers unknown' })
    }
    stub.serve(url, await answer({ certificateId: otherId }))
    expect((await ask()).status).toEqual({
      status: 'no-answer',
      problem: 'does not answer for this certificate',
    })
    expect(writes).toEqual([])
    expect(stub.count(url)).toBe(3)
  })

  it('keeps nothing when the judge takes an answer with no SingleResponse for the CertID', async () => {
    const { source, writes } = setup({ [url]: await answer({ certificateId: otherId }) })
    const lenient: OcspJudge = async () => ({ status: 'good' })
    expect(await askOcsp(source, url, id, at, lenient)).toEqual({ status: 'good' })
    expect(writes).toEqual([])
  })

  it('asks again once the validation time passes the kept answer', async () => {
    const { ask, stub } = setup({ [url]: await answer() })
    await ask()
    const later = new Date(at.getTime() + day + 6 * minute)
    // The kept answer is stale then, and so is the responder's (the same one): no answer.
    expect((await ask(later)).status).toMatchObject({ problem: expect.stringMatching(/^is stale/) })
    expect(stub.count(url)).toBe(2)
  })
})

describe('askOcsp: a kept entry is judged again on every read', () => {
  it('ignores another certificate’s good answer under this key, and asks', async () => {
    const revoked = await answer({ status: 'revoked' })
    const { ask, store, stub } = setup({ [url]: revoked })
    await store.set(
      ocspStoreKey(url, id),
      base64Encode(await answer({ certificateId: otherId })),
      600,
    )
    expect((await ask()).status).toEqual({ status: 'revoked' })
    expect(stub.count(url)).toBe(1)
  })

  it('ignores a good answer signed by a key the issuer never delegated to', async () => {
    const stranger = await createCertificate({ commonName: 'Stranger', ...validity })
    const { ask, store, stub } = setup({ [url]: await answer({ status: 'revoked' }) })
    await store.set(
      ocspStoreKey(url, id),
      base64Encode(await answer({ signer: stranger.key })),
      600,
    )
    expect((await ask()).status).toEqual({ status: 'revoked' })
    expect(stub.count(url)).toBe(1)
  })

  it('ignores flipped bytes, garbage and values that are no OCSP response, and asks', async () => {
    const revoked = await answer({ status: 'revoked' })
    const { ask, store, stub, writes } = setup({ [url]: revoked })
    const flipped = (offset: number) => {
      const bytes = new Uint8Array(revoked)
      bytes[offset] = (bytes[offset] ?? 0) ^ 1
      return base64Encode(bytes)
    }
    const entries = [
      flipped(Math.floor(revoked.length / 2)),
      flipped(revoked.length - 1),
      'not base64 at all!',
      base64Encode(Uint8Array.of(0x30, 0x00)),
      '',
    ]
    for (const entry of entries) {
      await store.set(ocspStoreKey(url, id), entry, 600)
      expect((await ask()).status).toEqual({ status: 'revoked' })
    }
    expect(stub.count(url)).toBe(entries.length)
    // Each fetched answer replaced the bad entry.
    expect(writes.filter((write) => write.value === base64Encode(revoked))).toHaveLength(
      entries.length,
    )
  })

  it('treats a store that answers null as empty', async () => {
    const nullStore: KeyValueStore = { ...revocationMemory(), get: async () => null }
    const { ask, stub } = setup({ [url]: await answer() }, nullStore)
    expect((await ask()).status).toEqual({ status: 'good' })
    expect(stub.count(url)).toBe(1)
  })
})

describe('askOcsp: the nonce', () => {
  it('sends a fresh nonce in each request and judges the answer with it', async () => {
    const { ask, stub } = setup({ [url]: await answer({ status: 'unknown' }) })
    const first = await ask()
    const second = await ask()
    const sent = stub.requests.map((request) => requestNonce(request.body))
    expect([first.nonces[0], second.nonces[0]]).toEqual(sent)
    expect(sent[0]).not.toEqual(sent[1])
    for (const [index, request] of stub.requests.entries()) {
      expect(request.body).toEqual(encodeOcspRequest(id, sent[index]))
    }
  })

  it('takes an answer that echoes the nonce, or carries none; refuses one with another', async () => {
    const equal = setup({ [url]: echoing((nonce) => nonce, { status: 'revoked' }) })
    expect((await equal.ask()).status).toEqual({ status: 'revoked' })
    const absent = setup({ [url]: await answer({ status: 'revoked' }) })
    expect((await absent.ask()).status).toEqual({ status: 'revoked' })
    const another = setup({
      [url]: echoing((nonce) =>
        Uint8Array.from(nonce, (octet, index) => (index === 2 ? octet ^ 1 : octet)),
      ),
    })
    expect((await another.ask()).status).toEqual({
      status: 'no-answer',
      problem: 'carries another nonce than the request (a replayed or misdirected answer)',
    })
    expect(another.writes).toEqual([])
  })

  it('takes a kept answer with its old nonce when read back (judged without a nonce)', async () => {
    const { ask, stub } = setup({ [url]: echoing((nonce) => nonce) })
    const fetched = await ask()
    expect(fetched.status).toEqual({ status: 'good' })
    const kept = await ask()
    expect(kept).toEqual({ status: { status: 'good' }, nonces: [undefined] })
    expect(stub.count(url)).toBe(1)
  })
})

describe('askOcsp: one exchange in flight per URL and CertID', () => {
  it('shares one request among concurrent callers, each judging it with its nonce', async () => {
    const held = heldAnswer()
    const { source, stub, writes } = setup({ [url]: held.answer })
    const judges = [judgeOf(), judgeOf(), judgeOf()]
    const calls = judges.map(({ judge }) => askOcsp(source, url, id, at, judge))
    await vi.waitFor(() => expect(stub.count(url)).toBe(1))
    expect(source.inFlight.size).toBe(1)
    held.release(okResponse(await answer()))
    expect(await Promise.all(calls)).toEqual(Array(3).fill({ status: 'good' }))
    const nonces = judges.map(({ nonces }) => nonces)
    expect(nonces[1]).toEqual(nonces[0])
    expect(nonces[2]).toEqual(nonces[0])
    expect(nonces[0]).toEqual([requestNonce(stub.requests[0]?.body)])
    expect(stub.count(url)).toBe(1)
    expect(writes).toHaveLength(1)
    expect(source.inFlight.size).toBe(0)
  })

  it('shares a failure with the callers waiting, then forgets it', async () => {
    const held = heldAnswer()
    const { source, stub, ask } = setup({ [url]: held.answer })
    const calls = [ask(), ask()]
    await vi.waitFor(() => expect(stub.count(url)).toBe(1))
    held.release(new Response('', { status: 503 }))
    for (const call of calls) {
      const error = await failure(call)
      expect(error).toBeInstanceOf(RevocationDocumentStatusError)
      expect(error).toMatchObject({ status: 503 })
    }
    expect(source.inFlight.size).toBe(0)
    stub.serve(url, await answer())
    expect((await ask()).status).toEqual({ status: 'good' })
    expect(stub.count(url)).toBe(2)
  })

  it('refuses a body that is no OCSP response, keeping nothing', async () => {
    const { ask, source, writes } = setup({ [url]: new TextEncoder().encode('<html>') })
    const error = await failure(ask())
    expect(CryptoError.isInstance(error) && error.reason).toBe('invalid-crl')
    expect(writes).toEqual([])
    expect(source.inFlight.size).toBe(0)
  })
})
