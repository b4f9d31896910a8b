/**
 * Time in ID token validation, through `Client` against a loopback SMART server: an `nbf` in
 * the future (RFC 7519 §4.1.5), and how often the key set is fetched again for an unknown `kid`
 * — concurrent launches share one refetch, and a client refetches at most once per 30 s of its
 * own clock, the first fetch not counting (OIDC Core §10.1.1).
 */
import { Client, IdTokenError, memoryStore } from '@fhir-auth/client'
import { sandboxDefaultRedirectUri } from '@fhir-auth/sandbox'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import { jwt, rsa } from './design-8/support/signing-keys.js'
import { type ClaimingServer, startClaimingServer } from './support/claiming-smart-server.js'
import { clientIds, standaloneScopes } from './support/smart-fixture.js'

let server: ClaimingServer

beforeAll(async () => {
  // Its issuer is its FHIR base URL: bound without asking anything else (ADR 0013).
  server = await startClaimingServer({ issuer: (origin) => `${origin}/fhir` })
})

beforeEach(() => {
  server.claims = {}
  server.kid = undefined
})

afterAll(async () => {
  await server?.close()
})

function client(offsetMs = { value: 0 }): Client {
  return new Client(
    {
      baseUrl: server.fhirBaseUrl,
      clientId: clientIds.public,
      redirectUri: sandboxDefaultRedirectUri,
      scopes: standaloneScopes,
      allowInsecureLocalhost: true,
    },
    { now: () => new Date(Date.now() + offsetMs.value) },
  )
}

/** One launch of `app`: begun, called back, completed. */
async function signIn(app: Client) {
  const store = memoryStore()
  const begun = await app.beginAuthorization({ store })
  const nonce = new URL(begun.authUrl).searchParams.get('nonce') ?? undefined
  const callback = `${sandboxDefaultRedirectUri}?code=code-1&state=${begun.state}`
  server.nonce = nonce
  return app.completeAuthorization(callback, { store })
}

const refusedFor = (reason: string) => (error: unknown) =>
  error instanceof IdTokenError && error.reason === reason

it('refuses an ID token whose nbf is in the future beyond the 60 s leeway (nbf)', async () => {
  const app = client()
  const now = Math.floor(Date.now() / 1000)
  server.claims = { nbf: now + 120 }
  await expect(signIn(app)).rejects.toSatisfy(refusedFor('nbf'))
  server.claims = { nbf: now + 30 }
  expect((await signIn(app)).tokens.idTokenClaims?.nbf).toBe(now + 30)
  server.claims = { nbf: 'soon' }
  await expect(signIn(app)).rejects.toSatisfy(refusedFor('malformed'))
})

it('shares one refetch among concurrent launches with an unknown kid, then waits 30 s of the client’s clock', async () => {
  const offset = { value: 0 }
  const app = client(offset)
  const jwksBefore = server.count('/jwks')
  await signIn(app)
  expect(server.count('/jwks') - jwksBefore).toBe(1)
  // A rotation right after the first fetch is looked for at once; concurrent tokens share it.
  server.kid = 'not-published'
  const launches = await Promise.allSettled([1, 2, 3, 4, 5].map(() => signIn(app)))
  expect(launches.map((launch) => launch.status)).toEqual(Array(5).fill('rejected'))
  for (const launch of launches) {
    expect((launch as PromiseRejectedResult).reason).toSatisfy(refusedFor('jwks'))
  }
  expect(server.count('/jwks') - jwksBefore).toBe(2)
  offset.value = 29_000
  await expect(signIn(app)).rejects.toSatisfy(refusedFor('jwks'))
  expect(server.count('/jwks') - jwksBefore).toBe(2)
  offset.value = 31_000
  await expect(signIn(app)).rejects.toSatisfy(refusedFor('jwks'))
  expect(server.count('/jwks') - jwksBefore).toBe(3)
  // Known keys verify all along, from the kept set.
  server.kid = undefined
  expect((await signIn(app)).tokens.idTokenClaims?.sub).toBe('user-of-this-server')
  expect(server.count('/jwks') - jwksBefore).toBe(3)
})

/** An ID token of `server` for the public app, signed with its published key but naming `kid`. */
function idTokenNaming(kid: string): string {
  const now = Math.floor(Date.now() / 1000)
  return jwt(
    { alg: 'RS256', kid, typ: 'JWT' },
    {
      iss: server.claimedIssuer,
      sub: 'user-of-this-server',
      aud: clientIds.public,
      iat: now,
      exp: now + 300,
    },
    rsa.privateKey,
  )
}

it('concurrent validateIdToken calls with an unknown kid share one refetch, which the server holds open while they wait', async () => {
  const app = client()
  const jwksBefore = server.count('/jwks')
  // Discovery and the first fetch of the key set (not a refetch) come before the concurrent calls.
  expect((await app.validateIdToken(idTokenNaming('k1'))).sub).toBe('user-of-this-server')
  expect(server.count('/jwks') - jwksBefore).toBe(1)
  let release = () => {}
  server.jwksGate = new Promise<void>((resolve) => {
    release = resolve
  })
  try {
    const validations = Promise.allSettled(
      Array.from({ length: 5 }, () => app.validateIdToken(idTokenNaming('rotated-in'))),
    )
    // The refetch has reached the server, which holds its answer: no call can end meanwhile.
    await expect.poll(() => server.count('/jwks') - jwksBefore).toBe(2)
    release()
    const results = await validations
    expect(results.map((result) => result.status)).toEqual(Array(5).fill('rejected'))
    for (const result of results) {
      expect((result as PromiseRejectedResult).reason).toSatisfy(refusedFor('jwks'))
    }
  } finally {
    server.jwksGate = undefined
    release()
  }
  expect(server.count('/jwks') - jwksBefore).toBe(2)
})
