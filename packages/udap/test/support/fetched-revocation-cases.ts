import {
  base64Decode,
  CertificateChainError,
  type CryptoBackend,
  memoryStore,
} from '@fhir-auth/core'
import { createOnlineRevocation } from '@fhir-auth/core/revocation'
import type { RevocationCaseName } from '@fhir-auth/test-pki/revocation'
import { describe, expect, inject, it } from 'vitest'
import { countingFetch } from './counting-fetch.js'

/**
 * Registers the "revocation fetched" cases (issue 30) for one backend: every case of the
 * revocation PKI validated with `crls: []` and CRLs fetched from the certificates' distribution
 * points on the loopback server of the global setup, with the verdicts, the fetches made and
 * the cache.
 */
export function describeFetchedRevocation(name: string, backend: () => CryptoBackend): void {
  const pki = inject('revocationPki')
  const url = (path: string) => `${pki.origin}${path}`

  async function verdict(
    caseName: RevocationCaseName,
    options: { crls?: readonly string[]; cache?: ReturnType<typeof memoryStore> } = {},
  ) {
    const counting = countingFetch()
    const revocation = createOnlineRevocation({
      fetch: counting.fetch,
      timeoutMs: 1_000,
      cache: options.cache ?? memoryStore(),
    })
    const entry = pki.cases[caseName]
    try {
      await backend().verifyCertificateChain({
        chain: entry.x5c.map((certificate) => base64Decode(certificate) ?? new Uint8Array()),
        trustAnchors: [pki.anchorPem],
        crls: options.crls ?? [],
        at: new Date(),
        revocation,
      })
      return { reason: 'ok', counting, message: '', subject: undefined }
    } catch (error) {
      if (!CertificateChainError.isInstance(error)) throw error
      return { reason: error.reason, counting, message: error.message, subject: error.subject }
    }
  }

  describe(`revocation fetched from CRL distribution points (${name})`, () => {
    for (const caseName of Object.keys(pki.cases) as RevocationCaseName[]) {
      const entry = pki.cases[caseName]
      it(`${caseName}: ${entry.expected}`, async () => {
        const outcome = await verdict(caseName)
        expect(outcome.reason, outcome.message).toBe(entry.expected)
        if (entry.expected !== 'ok')
          expect(outcome.subject).toContain(`CN=${entry.failingCommonName}`)
        for (const path of entry.forbiddenPaths) expect(outcome.counting.count(url(path))).toBe(0)
      })
    }

    it('fetches nothing for a chain that does not chain to an anchor, or whose signature fails', async () => {
      for (const caseName of ['untrusted', 'bad-signature'] as const) {
        const outcome = await verdict(caseName)
        expect(outcome.counting.requested).toEqual([])
      }
    })

    it('fetches each CRL once, then serves it from the cache until its nextUpdate', async () => {
      const cache = memoryStore()
      const first = await verdict('good', { cache })
      expect(first.reason).toBe('ok')
      expect(first.counting.requested.sort()).toEqual(
        [pki.intermediateCrlUrl, pki.rootCrlUrl].sort(),
      )
      const second = await verdict('good', { cache })
      expect(second.reason).toBe('ok')
      expect(second.counting.requested).toEqual([])
      // A revoked certificate under the same CRL is refused from the cache as well.
      const revoked = await verdict('revoked', { cache })
      expect(revoked.reason).toBe('revoked')
      expect(revoked.counting.requested).toEqual([])
      expect(await cache.get(`fhir-auth:crl:${pki.intermediateCrlUrl}`)).toEqual(expect.any(String))
    })

    it('shares one fetch per URL among concurrent validations on a cold cache', async () => {
      const counting = countingFetch()
      const revocation = createOnlineRevocation({ fetch: counting.fetch, cache: memoryStore() })
      const entry = pki.cases.good
      const validations = Array.from({ length: 10 }, () =>
        backend().verifyCertificateChain({
          chain: entry.x5c.map((certificate) => base64Decode(certificate) ?? new Uint8Array()),
          trustAnchors: [pki.anchorPem],
          crls: [],
          at: new Date(),
          revocation,
        }),
      )
      await Promise.all(validations)
      expect(counting.count(pki.intermediateCrlUrl)).toBe(1)
      expect(counting.count(pki.rootCrlUrl)).toBe(1)
    })

    it('shares the cache between revocation sources on one store (a fleet on a shared store)', async () => {
      const cache = memoryStore()
      expect((await verdict('good', { cache })).counting.requested).toHaveLength(2)
      // Another source (another client, another process) on the same store fetches nothing.
      expect((await verdict('good', { cache })).counting.requested).toEqual([])
    })

    it('fetches a missing intermediate from caIssuers once per URL, and checks it like the rest', async () => {
      const cache = memoryStore()
      const first = await verdict('missing-intermediate-der', { cache })
      expect(first.reason).toBe('ok')
      expect(first.counting.count(url('/intermediate.cer'))).toBe(1)
      const second = await verdict('missing-intermediate-der', { cache })
      expect(second.reason).toBe('ok')
      expect(second.counting.requested).toEqual([])
      // What a caIssuers URL sends must be the issuer: anything else leaves the path open.
      const wrong = await verdict('missing-intermediate-wrong-certificate')
      expect(wrong.reason).toBe('no-path')
      expect(wrong.counting.requested).toEqual([url('/wrong.cer')])
    })

    it("uses the caller's CRLs first and fetches nothing they cover", async () => {
      const outcome = await verdict('revoked', { crls: pki.crlsPem })
      expect(outcome.reason).toBe('revoked')
      expect(outcome.counting.requested).toEqual([])
    })

    it('names what each distribution point said', async () => {
      expect((await verdict('crl-not-found')).message).toContain('answered HTTP 404')
      expect((await verdict('crl-hangs')).message).toContain('timeout')
      expect((await verdict('crl-too-large')).message).toContain('too-large')
      expect((await verdict('crl-too-large-declared')).message).toContain('too-large')
      expect((await verdict('stale-crl')).message).toContain('crl-stale')
      expect((await verdict('crl-bad-signature')).message).toContain('crl-bad-signature')
      expect((await verdict('not-a-crl')).message).toContain('did not send a CRL')
      const points = await verdict('ldap-and-file-points')
      expect(points.message).toContain('"ldap://ldap.example.test/')
      expect(points.message).toContain('"file:///var/crl/intermediate.crl" is not fetched')
      expect(points.counting.requested).toEqual([])
      expect((await verdict('no-distribution-point')).message).toContain(
        'names no CRL distribution point',
      )
    })
  })
}
