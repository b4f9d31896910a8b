/**
 * DESIGN §8 probe, ID tokens (OIDC Core §3.1.3.7 as DESIGN states it): each refusal and its
 * `IdTokenError` reason, the algorithms allowed, where the keys come from (the SMART
 * configuration's `jwks_uri`, else OpenID discovery), their cache and the one refetch for an
 * unknown `kid`, validation on refresh, and `validateIdToken`. Written from DESIGN's words only,
 * driving the public entries as a black box.
 *
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
import { FhirAuthError, IdTokenError, memoryStore, type Session } from '@fhir-auth/client'
import { createCapturingLogger } from '@fhir-auth/test-utils'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { describe, expect, it } from 'vitest'
import {
  BASE,
  CLIENT_ID,
  type FakeServer,
  type FakeServerOptions,
  ISSUER,
  JWKS,
  OPENID_CONFIGURATION,
  OPENID_PROVIDER,
} from './support/fake-smart-server.js'
import { begin, beginLaunch, freshProbe, launchedSession } from './support/probe-client.js'
import { renderingsOf } from './support/renderings.js'
import { ec, ecJwk, hmacJwt, jwt, otherRsa, rsaJwk, unsignedJwt } from './support/signing-keys.js'

/** A launch begun on a server whose code exchange answers with `idToken(server)`. */
const launchWithIdToken = (
  idToken: (server: FakeServer) => string,
  options: FakeServerOptions = {},
) => beginLaunch({ ...options, codeAnswer: (srv) => srv.codeResponse({ id_token: idToken(srv) }) })

/** The IdTokenError that finishing a launch with `idToken(server)` fails with. */
async function idTokenFailure(
  idToken: (server: FakeServer) => string,
  options: FakeServerOptions = {},
): Promise<{ error: IdTokenError; server: FakeServer }> {
  const { server, client, store, callback } = await launchWithIdToken(idToken, options)
  const error = await failureOf(client.completeAuthorization(callback(), { store }), IdTokenError)
  return { error, server }
}

/** The session a launch with `idToken(server)` finishes into. */
async function idTokenAccepted(
  idToken: (server: FakeServer) => string,
  options: FakeServerOptions = {},
): Promise<Session> {
  const { client, store, callback } = await launchWithIdToken(idToken, options)
  return client.completeAuthorization(callback(), { store })
}

/** Discovery that advertises exactly these ID token algorithms. */
const advertising =
  (...algs: string[]) =>
  (doc: Record<string, unknown>) => ({ ...doc, id_token_signing_alg_values_supported: algs })

describe('§8 ID tokens', () => {
  it('a valid ID token gives idTokenClaims; fhirUser comes from them when the response has none', async () => {
    const { session } = await launchedSession()
    expect(session.tokens.idTokenClaims?.sub).toBe('user-1')
    expect(session.tokens.fhirUser).toBe(`${BASE}/Practitioner/p1`)
  })

  it('the token response fhirUser wins over the claim', async () => {
    const { session } = await launchedSession({
      codeAnswer: (srv) => srv.codeResponse({ fhirUser: 'Patient/from-response' }),
    })
    expect(session.tokens.fhirUser).toBe('Patient/from-response')
  })

  it.each([
    ['malformed', () => 'not.a.jwt'],
    ['malformed', () => 'abc'],
    ['alg', (s: FakeServer) => unsignedJwt(s.idClaims())],
    ['alg', (s: FakeServer) => hmacJwt(s.idClaims(), 'secret')],
    ['iss', (s: FakeServer) => s.idToken({ iss: 'https://evil.example' })],
    ['iss', (s: FakeServer) => s.idToken({ iss: BASE })],
    ['aud', (s: FakeServer) => s.idToken({ aud: 'another-client' })],
    ['aud', (s: FakeServer) => s.idToken({ aud: ['a', 'b'] })],
    ['azp', (s: FakeServer) => s.idToken({ aud: [CLIENT_ID, 'another-client'] })],
    [
      'azp',
      (s: FakeServer) => s.idToken({ aud: [CLIENT_ID, 'another-client'], azp: 'another-client' }),
    ],
    ['exp', (s: FakeServer) => s.idToken({ exp: s.clock.seconds() - 90 })],
    ['iat', (s: FakeServer) => s.idToken({ iat: s.clock.seconds() + 90 })],
    ['nonce', (s: FakeServer) => s.idToken({ nonce: 'not-the-nonce-that-was-sent' })],
    ['nonce', (s: FakeServer) => s.idToken({ nonce: undefined })],
  ])('an ID token failing the %s rule is IdTokenError with that reason', async (reason, make) => {
    const { error } = await idTokenFailure(make as (s: FakeServer) => string)
    expect(error.reason).toBe(reason)
    expect(error).toBeInstanceOf(FhirAuthError)
  })

  it.each([
    ['exp', 'exp'],
    ['iat', 'iat'],
  ])('an ID token without %s is refused (reason %s)', async (claim, reason) => {
    const { error } = await idTokenFailure((s) => s.idToken({ [claim]: undefined }))
    expect(error.reason).toBe(reason)
  })

  it('none and HS256 stay refused even when the server advertises them', async () => {
    const none = await idTokenFailure((s) => unsignedJwt(s.idClaims()), {
      discovery: advertising('none', 'RS256'),
    })
    expect(none.error.reason).toBe('alg')
    const hmac = await idTokenFailure((s) => hmacJwt(s.idClaims(), 'k'), {
      discovery: advertising('HS256'),
    })
    expect(hmac.error.reason).toBe('alg')
  })

  it('a jwks_uri that breaks the HTTP policy (plain http, not loopback) is refused without a request', async () => {
    const { error, server } = await idTokenFailure((s) => s.idToken(), {
      discovery: (doc) => ({ ...doc, jwks_uri: 'http://auth.example.org/jwks' }),
      // The issuer's own document names the same key set (ADR 0013: else the issuer is unbound).
      openidConfiguration: () => ({ ...OPENID_PROVIDER, jwks_uri: 'http://auth.example.org/jwks' }),
    })
    expect(error.reason).toBe('jwks')
    expect(server.requests.some((request) => request.url.startsWith('http://'))).toBe(false)
  })

  it('a flipped signature bit is reason signature', async () => {
    const { error } = await idTokenFailure((s) => {
      const [h, c, sig] = s.idToken().split('.')
      const bytes = Buffer.from(String(sig), 'base64url')
      bytes[10] = (bytes[10] ?? 0) ^ 1
      return `${h}.${c}.${bytes.toString('base64url')}`
    })
    expect(error.reason).toBe('signature')
  })

  it('a token signed by another key under the known kid is reason signature', async () => {
    const { error } = await idTokenFailure((s) =>
      jwt({ alg: 'RS256', kid: 'k1' }, s.idClaims(), otherRsa.privateKey),
    )
    expect(error.reason).toBe('signature')
  })

  it('60 s leeway: exp 30 s ago and iat 30 s ahead are accepted', async () => {
    const session = await idTokenAccepted((s) =>
      s.idToken({ exp: s.clock.seconds() - 30, iat: s.clock.seconds() + 30 }),
    )
    expect(session.tokens.idTokenClaims?.sub).toBe('user-1')
  })

  it('several audiences with azp = clientId are accepted; an aud array of one without azp too', async () => {
    const several = await idTokenAccepted((s) =>
      s.idToken({ aud: [CLIENT_ID, 'another'], azp: CLIENT_ID }),
    )
    expect(several.tokens.idTokenClaims?.sub).toBe('user-1')
    const single = await idTokenAccepted((s) => s.idToken({ aud: [CLIENT_ID] }))
    expect(single.tokens.idTokenClaims?.sub).toBe('user-1')
  })

  it('RS256 is the default when id_token_signing_alg_values_supported is not advertised: RS384 is refused (alg)', async () => {
    const { error } = await idTokenFailure((s) => jwt({ alg: 'RS384', kid: 'k1' }, s.idClaims()), {
      discovery: (doc) => {
        delete doc.id_token_signing_alg_values_supported
        return doc
      },
    })
    expect(error.reason).toBe('alg')
  })

  it('an alg advertised in id_token_signing_alg_values_supported is accepted (RS384)', async () => {
    const session = await idTokenAccepted((s) => jwt({ alg: 'RS384', kid: 'k1' }, s.idClaims()), {
      discovery: advertising('RS384'),
    })
    expect(session.tokens.idTokenClaims?.sub).toBe('user-1')
  })

  it('an alg not advertised is refused even when the key could verify it (RS256 when only ES256 is advertised)', async () => {
    const { error } = await idTokenFailure((s) => s.idToken(), {
      discovery: advertising('ES256'),
    })
    expect(error.reason).toBe('alg')
  })

  it('ES256 advertised and used is accepted', async () => {
    const session = await idTokenAccepted(
      (s) => jwt({ alg: 'ES256', kid: 'ec1' }, s.idClaims(), ec.privateKey),
      {
        discovery: advertising('ES256'),
        jwks: () => ({ keys: [rsaJwk, ecJwk] }),
      },
    )
    expect(session.tokens.idTokenClaims?.sub).toBe('user-1')
  })

  it('without jwks_uri in the SMART configuration, the keys come from {issuer}/.well-known/openid-configuration', async () => {
    const { session, server } = await launchedSession({
      discovery: (doc) => {
        delete doc.jwks_uri
        return doc
      },
      openidConfiguration: () => ({ ...OPENID_PROVIDER, jwks_uri: `${ISSUER}/jwks` }),
    })
    expect(session.tokens.idTokenClaims?.sub).toBe('user-1')
    expect(server.count(OPENID_CONFIGURATION)).toBe(1)
    expect(server.count(JWKS)).toBe(1)
  })

  it('with jwks_uri in the SMART configuration, openid-configuration is fetched once, to bind the issuer (ADR 0013)', async () => {
    const { server } = await launchedSession()
    expect(server.count(OPENID_CONFIGURATION)).toBe(1)
    expect(server.count(JWKS)).toBe(1)
  })

  it('the key set is cached across validations and refetched once for an unknown kid', async () => {
    let keys: unknown[] = [rsaJwk]
    let rotatedIn = false
    const { server, client } = freshProbe({
      jwks: () => ({ keys }),
      codeAnswer: (srv) =>
        srv.codeResponse({
          id_token: rotatedIn
            ? jwt({ alg: 'RS256', kid: 'k2' }, srv.idClaims(), otherRsa.privateKey)
            : srv.idToken(),
        }),
    })
    const store = memoryStore()
    const first = await begin(client, server, store)
    await client.completeAuthorization(first.callback(), { store })
    const second = await begin(client, server, store)
    await client.completeAuthorization(second.callback(), { store })
    expect(server.count(JWKS)).toBe(1)
    // rotation: a new kid is published; the client refetches once and accepts
    rotatedIn = true
    keys = [rsaJwk, { ...otherRsa.publicKey.export({ format: 'jwk' }), kid: 'k2', use: 'sig' }]
    const third = await begin(client, server, store)
    const session = await client.completeAuthorization(third.callback(), { store })
    expect(session.tokens.idTokenClaims?.sub).toBe('user-1')
    expect(server.count(JWKS)).toBe(2)
  })

  it('an unknown kid still unknown after one refetch is an IdTokenError (one refetch only)', async () => {
    const { error, server } = await idTokenFailure((s) =>
      jwt({ alg: 'RS256', kid: 'nowhere' }, s.idClaims(), otherRsa.privateKey),
    )
    expect(['jwks', 'signature']).toContain(error.reason)
    expect(server.count(JWKS)).toBe(2)
  })

  it('a key set that cannot be fetched is reason jwks', async () => {
    const { error } = await idTokenFailure((s) => s.idToken(), {
      jwks: () => 'not a key set',
    })
    expect(error.reason).toBe('jwks')
  })

  it('the ID token iss must equal the discovered issuer (not baseUrl / config issuer)', async () => {
    const session = await idTokenAccepted((s) => s.idToken(), {})
    expect(session.tokens.idTokenClaims?.iss).toBe(ISSUER)
  })

  it('without openid requested an id_token is not validated (garbage passes, no claims)', async () => {
    const { session, server } = await launchedSession(
      { codeAnswer: (srv) => srv.codeResponse({ id_token: 'garbage' }) },
      {},
      { scopes: ['launch/patient', 'patient/*.rs'] },
    )
    expect(session.tokens.idTokenClaims).toBeUndefined()
    expect(server.count(JWKS)).toBe(0)
  })

  it('with openid requested and no id_token in the response, the session is made without claims', async () => {
    const { session } = await launchedSession({
      codeAnswer: (srv) => srv.codeResponse({ id_token: undefined }),
    })
    expect(session.tokens.idTokenClaims).toBeUndefined()
  })

  it('session.refresh validates a new ID token (bad signature → dropped with a warning, the session goes on)', async () => {
    // Issue 24, finding 10: a refreshed ID token never ends a session; only another sub does.
    const logger = createCapturingLogger()
    const { session } = await launchedSession(
      {
        refreshAnswer: (srv) => ({
          access_token: 'at-r',
          token_type: 'Bearer',
          expires_in: 3600,
          id_token: jwt({ alg: 'RS256', kid: 'k1' }, srv.idClaims(), otherRsa.privateKey),
        }),
      },
      { logger },
    )
    const before = session.tokens
    const refreshed = await session.refresh()
    expect(refreshed.accessToken).toBe('at-r')
    expect(refreshed.idToken).toBe(before.idToken)
    expect(refreshed.idTokenClaims).toEqual(before.idTokenClaims)
    expect(logger.entries.filter((entry) => entry.level === 'warn')).toEqual([
      expect.objectContaining({ fields: expect.objectContaining({ reason: 'signature' }) }),
    ])
  })

  it('validateIdToken returns the verified claims and checks the nonce and maxAgeSeconds', async () => {
    const { server, client } = freshProbe()
    const now = server.clock.seconds()
    const token = server.idToken({ nonce: 'n-1', auth_time: now - 10 })
    const claims = await client.validateIdToken(token, { nonce: 'n-1', maxAgeSeconds: 60 })
    expect(claims.sub).toBe('user-1')
    const nonce = await failureOf(client.validateIdToken(token, { nonce: 'n-2' }), IdTokenError)
    expect(nonce.reason).toBe('nonce')
    const old = server.idToken({ auth_time: now - 1000 })
    const tooOld = await failureOf(client.validateIdToken(old, { maxAgeSeconds: 60 }), IdTokenError)
    expect(tooOld).toBeInstanceOf(IdTokenError)
  })

  it('IdTokenError messages carry no part of the token', async () => {
    const { error, server } = await idTokenFailure((s) => s.idToken({ aud: 'another-client' }))
    const token = server.idToken({ aud: 'another-client' })
    const signature = String(token.split('.')[2])
    const rendered = renderingsOf(error)
    expect(rendered).not.toContain(signature.slice(0, 16))
    expect(rendered).not.toContain(String(token.split('.')[1]).slice(0, 24))
  })
})
