/**
 * How often a key set is fetched, counted on a real loopback JWKS server: concurrent lookups of
 * an unknown `kid` share one refetch, a key set is refetched at most once per 30 s (on the
 * clock it is given), and the first fetch is not a refetch, so a rotation right after it is
 * still picked up.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#RotateSigKeys OIDC Core §10.1.1
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { IdTokenError, type Jwk } from '../src/index.js'
import { JsonWebKeySet } from '../src/oidc.js'

const key = (kid: string): Jwk => ({ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', kid, use: 'sig' })

/** A JWKS server counting its requests; `hold()` makes it wait for `release()` before answering. */
let jwks: {
  url: string
  requests: number
  keys: Jwk[]
  hold(): void
  release(): void
  server: Server
}

beforeEach(async () => {
  const waiting: (() => void)[] = []
  let held = false
  const server = createServer((_request, response) => {
    jwks.requests += 1
    const answer = () => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ keys: jwks.keys }))
    }
    if (held) waiting.push(answer)
    else answer()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  jwks = {
    url: `http://127.0.0.1:${port}/jwks`,
    requests: 0,
    keys: [key('k1')],
    hold: () => {
      held = true
    },
    release: () => {
      held = false
      for (const answer of waiting.splice(0)) answer()
    },
    server,
  }
})

afterEach(async () => {
  jwks.server.closeAllConnections()
  await new Promise((resolve) => jwks.server.close(resolve))
})

function keySetAt(clock: { ms: number }) {
  return new JsonWebKeySet(jwks.url, () => ({ allowInsecureLocalhost: true }), {
    now: () => new Date(clock.ms),
  })
}

const kids = (keys: readonly Jwk[]) => keys.map((found) => found.kid)

it('shares one fetch among concurrent first lookups, and one refetch among concurrent lookups of a new kid', async () => {
  const clock = { ms: Date.UTC(2026, 10, 28) }
  const set = keySetAt(clock)
  jwks.hold()
  const first = Promise.all(Array.from({ length: 5 }, () => set.candidates('k1')))
  await expect.poll(() => jwks.requests).toBe(1)
  jwks.release()
  expect((await first).map(kids)).toEqual(Array(5).fill(['k1']))
  expect(jwks.requests).toBe(1)

  // A rotation right after the first fetch: the first refetch is not held back.
  jwks.keys = [key('k1'), key('k2')]
  jwks.hold()
  const rotated = Promise.all(Array.from({ length: 10 }, () => set.candidates('k2')))
  await expect.poll(() => jwks.requests).toBe(2)
  jwks.release()
  expect((await rotated).map(kids)).toEqual(Array(10).fill(['k2']))
  expect(jwks.requests).toBe(2)
})

it('refetches at most once per 30 s, and reads the kept keys in between', async () => {
  const clock = { ms: Date.UTC(2026, 10, 28) }
  const set = keySetAt(clock)
  expect(kids(await set.candidates('k1'))).toEqual(['k1'])
  await expect(set.candidates('k9')).rejects.toSatisfy(
    (error) => error instanceof IdTokenError && error.reason === 'jwks',
  )
  expect(jwks.requests).toBe(2)
  // Within 30 s of that refetch, unknown kids are refused without a request.
  jwks.keys = [key('k9')]
  clock.ms += 29_999
  for (const kid of ['k9', 'k8', 'k9']) {
    await expect(set.candidates(kid)).rejects.toThrow(
      `the key set at ${jwks.url} has no key with kid "${kid}"`,
    )
  }
  expect(jwks.requests).toBe(2)
  // Known keys still verify meanwhile, from the kept set.
  expect(kids(await set.candidates('k1'))).toEqual(['k1'])
  clock.ms += 1
  expect(kids(await set.candidates('k9'))).toEqual(['k9'])
  expect(jwks.requests).toBe(3)
})

it('lets a lookup that arrives after a refetch ended use what that refetch brought', async () => {
  const clock = { ms: Date.UTC(2026, 10, 28) }
  const set = keySetAt(clock)
  await set.candidates('k1')
  jwks.keys = [key('k1'), key('k2')]
  expect(kids(await set.candidates('k2'))).toEqual(['k2'])
  // Same key set, within the cooldown: k2 is among the kept keys now.
  expect(kids(await set.candidates('k2'))).toEqual(['k2'])
  expect(jwks.requests).toBe(2)
})
