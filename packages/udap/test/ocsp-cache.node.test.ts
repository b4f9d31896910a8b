/**
 * Issue 30, OCSP answers kept and nonces checked, with `openssl ocsp` as the real responder
 * behind the loopback proxy of the OCSP PKI (started on free ports, stopped by PID). Every
 * figure is a count of requests the responders saw:
 *
 * - a `good` or `revoked` answer is kept in the revocation cache until its `nextUpdate`: a second
 *   validation asks nobody, also through another `OnlineRevocation` on the same store (another
 *   client, another process); once the validation time passes `nextUpdate` it asks again;
 * - `unknown` is never kept; a rewritten store entry (another certificate's `good`, flipped
 *   bytes) never makes a revoked certificate pass;
 * - each request carries a 32-octet nonce (RFC 8954); an answer that echoes another nonce is no
 *   answer, one without a nonce is taken;
 * - a missing intermediate fetched from AIA caIssuers is kept in the store too: fetched once
 *   for two clients.
 *
 * Both backends, in Node (openssl is a Node-side process).
 */
import type { CryptoBackend, KeyValueStore } from '@fhir-auth/core'
import { memoryStore } from '@fhir-auth/core'
import { createOnlineRevocation } from '@fhir-auth/core/revocation'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { webCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import type { IssuedCertificate } from '@fhir-auth/test-pki/issuer'
import { type OcspPki, ocspRequestNonceOf, startOcspPki } from '@fhir-auth/test-pki/revocation'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { chainVerdict } from './support/ocsp-verdict.js'

const minute = 60_000

let pki: OcspPki

beforeAll(async () => {
  pki = await startOcspPki()
}, 60_000)

afterAll(() => pki?.stop())

afterEach(() => {
  pki.setNonceMode('/ocsp/intermediate', 'echo')
})

/**
 * A view of `shared` with an identity of its own, like a client of another process on one
 * Redis: it shares nothing in memory with other views (fetches in flight are shared per store
 * object), only what the store holds. Records what it writes.
 */
function storeView(shared: KeyValueStore) {
  const writes: { key: string; value: string; ttlSeconds: number }[] = []
  const store: KeyValueStore = {
    get: (key) => shared.get(key),
    set: (key, value, ttlSeconds) => {
      writes.push({ key, value, ttlSeconds })
      return shared.set(key, value, ttlSeconds)
    },
    delete: (key) => shared.delete(key),
    setIfAbsent: (key, value, ttlSeconds) => shared.setIfAbsent(key, value, ttlSeconds),
  }
  return { store, writes }
}

/** Requests the responders (and the caIssuers URL) saw while `run` ran. */
async function requestsDuring<T>(run: () => Promise<T>) {
  const paths = [
    '/ocsp/root',
    '/ocsp/intermediate',
    '/ocsp/revoked-intermediate',
    '/intermediate.cer',
  ] as const
  const before = paths.map((path) => pki.server.count(path))
  const result = await run()
  const counts = Object.fromEntries(
    paths.map((path, index) => [path, pki.server.count(path) - (before[index] ?? 0)]),
  ) as Record<(typeof paths)[number], number>
  return { result, counts }
}

for (const [name, backend] of [
  ['crypto-node', createNodeCryptoBackend()],
  ['crypto-webcrypto', webCryptoBackend],
] as const satisfies readonly (readonly [string, CryptoBackend])[]) {
  const verdict = (
    certificate: Pick<IssuedCertificate, 'chainDer'>,
    cache: KeyValueStore,
    at?: Date,
  ) =>
    requestsDuring(() =>
      chainVerdict(backend, pki, certificate, {
        at,
        revocation: createOnlineRevocation({ cache, timeoutMs: 5_000 }),
      }),
    )

  describe(`OCSP answers kept in the revocation cache (${name})`, () => {
    it('asks each responder once, then answers from the store until nextUpdate, also for another client on it', async () => {
      const shared = memoryStore()
      const first = storeView(shared)
      const at = new Date()
      const asked = await verdict(pki.leaves.good, first.store, at)
      const elapsedSeconds = (Date.now() - at.getTime()) / 1000
      expect(asked.result.reason, asked.result.message).toBe('ok')
      expect(asked.counts['/ocsp/intermediate']).toBe(1)
      expect(asked.counts['/ocsp/root']).toBe(1)
      // Kept until nextUpdate, counted from the validation time `at`. openssl makes each answer
      // after `at` and writes thisUpdate in whole seconds, so nextUpdate − at is the validity
      // give or take a second, plus the time the validation took when a second boundary passed
      // in between (3600.038 s was seen for a 60-minute validity).
      const validitySeconds = pki.validityMinutes * 60
      const ocspWrites = first.writes.filter((write) => write.key.startsWith('fhir-auth:ocsp:'))
      expect(ocspWrites).toHaveLength(2)
      for (const write of ocspWrites) {
        expect(write.ttlSeconds).toBeGreaterThan(validitySeconds - 1)
        expect(write.ttlSeconds).toBeLessThanOrEqual(validitySeconds + elapsedSeconds)
      }
      const again = await verdict(pki.leaves.good, first.store)
      expect(again.result.reason).toBe('ok')
      expect(again.counts).toMatchObject({ '/ocsp/intermediate': 0, '/ocsp/root': 0 })
      const otherClient = await verdict(pki.leaves.good, storeView(shared).store)
      expect(otherClient.result.reason).toBe('ok')
      expect(otherClient.counts).toMatchObject({ '/ocsp/intermediate': 0, '/ocsp/root': 0 })
    })

    it('asks again once the validation time passes the kept answer’s nextUpdate (no sleep)', async () => {
      const cache = memoryStore()
      expect((await verdict(pki.leaves.good, cache)).result.reason).toBe('ok')
      const start = Date.now()
      const beforeNextUpdate = await verdict(
        pki.leaves.good,
        cache,
        new Date(start + (pki.validityMinutes - 2) * minute),
      )
      expect(beforeNextUpdate.result.reason).toBe('ok')
      expect(beforeNextUpdate.counts).toMatchObject({ '/ocsp/intermediate': 0, '/ocsp/root': 0 })
      // Past nextUpdate and the 5-minute skew: the kept answer is stale, the responder is asked
      // (its new answer is stale at that time as well, so no source answers).
      const after = await verdict(
        pki.leaves.good,
        cache,
        new Date(start + (pki.validityMinutes + 6) * minute),
      )
      expect(after.result.reason).toBe('revocation-unavailable')
      expect(after.result.message).toContain('is stale')
      expect(after.counts['/ocsp/intermediate'] + after.counts['/ocsp/root']).toBeGreaterThan(0)
    })

    it('keeps a revoked answer too, and refuses from the store without asking', async () => {
      const cache = memoryStore()
      const first = await verdict(pki.leaves.revoked, cache)
      expect(first.result.reason).toBe('revoked')
      const again = await verdict(pki.leaves.revoked, cache)
      expect(again.result.reason).toBe('revoked')
      expect(again.result.message).toContain('OCSP responder')
      expect(again.counts).toMatchObject({ '/ocsp/intermediate': 0, '/ocsp/root': 0 })
    })

    it('never keeps unknown: every validation asks again', async () => {
      const view = storeView(memoryStore())
      for (let round = 0; round < 2; round += 1) {
        const outcome = await verdict(pki.leaves.unknown, view.store)
        expect(outcome.result.reason).toBe('revocation-unavailable')
        expect(outcome.counts['/ocsp/intermediate']).toBe(1)
      }
      const intermediateKeys = view.writes.filter((write) =>
        write.key.endsWith('/ocsp/intermediate'),
      )
      expect(intermediateKeys).toEqual([])
    })

    it('takes only an explicit good from an OnlineRevocation: one written for the old ocsp(url, request) shape fails closed', async () => {
      const own = createOnlineRevocation({ cache: memoryStore() })
      const oldShape = {
        crl: own.crl,
        certificates: own.certificates,
        ocsp: async () => new Uint8Array([0x30, 0x03, 0x0a, 0x01, 0x00]),
      } as unknown as typeof own
      const outcome = await chainVerdict(backend, pki, pki.leaves.good, { revocation: oldShape })
      expect(outcome.reason).toBe('revocation-unavailable')
    })

    it('takes an OnlineRevocation whose ocsp resolves to nothing or to a non-object for no answer: revocation-unavailable, never a TypeError', async () => {
      const own = createOnlineRevocation({ cache: memoryStore() })
      for (const odd of [undefined, null, 'good']) {
        const broken = { ...own, ocsp: async () => odd } as unknown as typeof own
        const outcome = await chainVerdict(backend, pki, pki.leaves.good, { revocation: broken })
        expect(outcome.reason).toBe('revocation-unavailable')
      }
    })

    it('shares one request per certificate and responder among concurrent validations on a cold store', async () => {
      const cache = memoryStore()
      const { result, counts } = await requestsDuring(() =>
        Promise.all(
          Array.from({ length: 10 }, () =>
            chainVerdict(backend, pki, pki.leaves.good, {
              revocation: createOnlineRevocation({ cache }),
            }),
          ),
        ),
      )
      expect(result.map((outcome) => outcome.reason)).toEqual(Array(10).fill('ok'))
      expect(counts).toMatchObject({ '/ocsp/intermediate': 1, '/ocsp/root': 1 })
    })
  })

  describe(`a rewritten store entry never passes a revoked certificate (${name})`, () => {
    /** The key and value the revoked leaf's answer (from `/ocsp/intermediate`) was kept under. */
    async function keptAnswers() {
      const view = storeView(memoryStore())
      expect((await verdict(pki.leaves.good, view.store)).result.reason).toBe('ok')
      expect((await verdict(pki.leaves.revoked, view.store)).result.reason).toBe('revoked')
      const leafAnswers = view.writes.filter((write) => write.key.endsWith('/ocsp/intermediate'))
      expect(leafAnswers).toHaveLength(2)
      const [good, revoked] = leafAnswers as [(typeof leafAnswers)[0], (typeof leafAnswers)[0]]
      expect(good.key).not.toBe(revoked.key)
      return { view, good, revoked }
    }

    it('another certificate’s good answer under the revoked one’s key: asked again, revoked', async () => {
      const { view, good, revoked } = await keptAnswers()
      await view.store.set(revoked.key, good.value, 600)
      const outcome = await verdict(pki.leaves.revoked, view.store)
      expect(outcome.result.reason).toBe('revoked')
      expect(outcome.counts['/ocsp/intermediate']).toBe(1)
    })

    it('flipped bytes in the kept revoked answer: asked again, revoked', async () => {
      const { view, revoked } = await keptAnswers()
      const der = Buffer.from(revoked.value, 'base64')
      for (const offset of [Math.floor(der.length / 2), der.length - 1]) {
        const flipped = Buffer.from(der)
        flipped[offset] = (flipped[offset] ?? 0) ^ 0x01
        await view.store.set(revoked.key, flipped.toString('base64'), 600)
        const outcome = await verdict(pki.leaves.revoked, view.store)
        expect(outcome.result.reason).toBe('revoked')
        expect(outcome.counts['/ocsp/intermediate']).toBe(1)
      }
      await view.store.set(revoked.key, 'not base64 at all!', 600)
      expect((await verdict(pki.leaves.revoked, view.store)).result.reason).toBe('revoked')
    })
  })

  describe(`OCSP request nonce (${name})`, () => {
    it('sends 32 fresh octets in every request and takes an answer that echoes them (openssl does)', async () => {
      const before = pki.requests('/ocsp/intermediate').length
      for (let round = 0; round < 2; round += 1) {
        const outcome = await verdict(pki.leaves.good, memoryStore())
        expect(outcome.result.reason, outcome.result.message).toBe('ok')
      }
      const nonces = pki
        .requests('/ocsp/intermediate')
        .slice(before)
        .map((request) => ocspRequestNonceOf(request))
      expect(nonces).toHaveLength(2)
      for (const nonce of nonces) {
        // extnValue: Nonce ::= OCTET STRING of 32 octets.
        expect(Array.from(nonce?.subarray(0, 2) ?? [])).toEqual([0x04, 32])
        expect(nonce).toHaveLength(34)
      }
      expect(Buffer.from(nonces[0] ?? []).equals(Buffer.from(nonces[1] ?? []))).toBe(false)
    })

    it('refuses an answer that echoes another nonce, and keeps nothing of it', async () => {
      pki.setNonceMode('/ocsp/intermediate', 'other')
      const cache = memoryStore()
      const outcome = await verdict(pki.leaves.good, cache)
      expect(outcome.result.reason).toBe('revocation-unavailable')
      expect(outcome.result.message).toContain('carries another nonce than the request')
      pki.setNonceMode('/ocsp/intermediate', 'echo')
      const next = await verdict(pki.leaves.good, cache)
      expect(next.result.reason).toBe('ok')
      expect(next.counts['/ocsp/intermediate']).toBe(1)
    })

    it('takes an answer without a nonce (responders need not echo one)', async () => {
      pki.setNonceMode('/ocsp/intermediate', 'none')
      const revoked = await verdict(pki.leaves.revoked, memoryStore())
      expect(revoked.result.reason).toBe('revoked')
      const good = await verdict(pki.leaves.good, memoryStore())
      expect(good.result.reason, good.result.message).toBe('ok')
    })
  })

  describe(`missing intermediates from AIA caIssuers kept in the store (${name})`, () => {
    const withoutIntermediate = () => ({ chainDer: [pki.leaves.server.certificateDer] })
    const caIssuersKey = () => `fhir-auth:ca-issuers:${pki.server.origin}/intermediate.cer`

    it('fetches the intermediate once for two clients on one store, kept for a day at most', async () => {
      const shared = memoryStore()
      const first = storeView(shared)
      const fetched = await verdict(withoutIntermediate(), first.store)
      expect(fetched.result.reason, fetched.result.message).toBe('ok')
      expect(fetched.counts['/intermediate.cer']).toBe(1)
      const kept = first.writes.find((write) => write.key === caIssuersKey())
      expect(kept?.ttlSeconds).toBeGreaterThan(86_400 - 60)
      expect(kept?.ttlSeconds).toBeLessThanOrEqual(86_400)
      const second = await verdict(withoutIntermediate(), storeView(shared).store)
      expect(second.result.reason).toBe('ok')
      expect(second.counts).toMatchObject({
        '/intermediate.cer': 0,
        '/ocsp/intermediate': 0,
        '/ocsp/root': 0,
      })
    })

    it('checks what the store gives like any certificate of the path: another CA’s certificate does not complete it', async () => {
      const cache = memoryStore()
      await cache.set(caIssuersKey(), Buffer.from(pki.root.certificateDer).toString('base64'), 600)
      const outcome = await verdict(withoutIntermediate(), cache)
      expect(outcome.result.reason).toBe('no-path')
      expect(outcome.counts['/intermediate.cer']).toBe(0)
      await cache.set(caIssuersKey(), 'garbage', 600)
      const refetched = await verdict(withoutIntermediate(), cache)
      expect(refetched.result.reason).toBe('ok')
      expect(refetched.counts['/intermediate.cer']).toBe(1)
    })
  })
}
