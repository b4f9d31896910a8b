/**
 * Issue 24, findings 9–13, through `Client` against a SMART server on loopback HTTP: tokens that
 * cannot travel in a header are refused when read; a refreshed ID token never ends a session
 * (a key set outage, refreshed ID tokens without `aud`), and another `sub` keeps the rotated
 * refresh token; a failed `onTokens` is called again until it succeeds; a refresh for other
 * scopes never joins one in flight; serialized sessions are bound to their server and client.
 */
import {
  Client,
  type ClientConfigInput,
  type ClientOptions,
  ConfigurationError,
  IdTokenError,
  StoreError,
  TokenError,
  TokenSet,
  type TokensListener,
} from '@fhir-auth/client'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  type LoopbackSmartServer,
  loopbackClientId,
  loopbackNonce,
  loopbackRedirectUri,
  loopbackSubject,
  rotatingAnswer,
  startLoopbackSmartServer,
} from './support/loopback-smart-server.js'

let server: LoopbackSmartServer

beforeEach(async () => {
  server = await startLoopbackSmartServer()
})

afterEach(async () => {
  await server?.close()
})

const scopes = ['openid', 'fhirUser', 'patient/*.rs', 'offline_access']

/** A client of the loopback server, with its warnings recorded. */
function loopbackClient(config: ClientConfigInput = {}, options: ClientOptions = {}) {
  const warnings: { message: string; fields: unknown }[] = []
  const client = new Client(
    {
      baseUrl: server.baseUrl,
      clientId: loopbackClientId,
      redirectUri: loopbackRedirectUri,
      scopes,
      allowInsecureLocalhost: true,
      ...config,
    },
    {
      logger: {
        info() {},
        error() {},
        debug() {},
        warn: (message, fields) => void warnings.push({ message, fields }),
      },
      ...options,
    },
  )
  return { client, warnings }
}

/** Finishes a launch (the caller kept state, verifier and nonce) into a session. */
function signIn(client: Client, onTokens?: TokensListener) {
  return client.completeAuthorization(`${loopbackRedirectUri}?code=c-1&state=s-1`, {
    state: 's-1',
    codeVerifier: 'v'.repeat(43),
    nonce: loopbackNonce,
    onTokens,
  })
}

/** The rotating answer with the ID token replaced (`undefined`: none). */
function refreshAnswerWith(idToken: () => string | undefined) {
  server.answer = (form, smart) => {
    const { body } = rotatingAnswer(form, smart)
    const { id_token: _replaced, ...rest } = body
    const replacement = idToken()
    return { body: replacement === undefined ? rest : { ...rest, id_token: replacement } }
  }
}

describe('finding 9: tokens that cannot travel in an HTTP header', () => {
  const secret = 'at-secret-9b1e'
  it.each([
    ['CR LF (header injection)', { access_token: `${secret}\r\nX-Injected: 1` }],
    ['NUL', { access_token: `${secret}\u0000` }],
    ['a control character', { access_token: `${secret}\u0007` }],
    ['a character beyond Latin-1', { access_token: `${secret}\u20ac` }],
    ['a token_type with LF', { access_token: secret, token_type: `Bearer\n${secret}` }],
  ])('%s in the code exchange is a TokenError that never quotes it', async (_label, members) => {
    server.answer = () => ({ body: { token_type: 'Bearer', expires_in: 3600, ...members } })
    const { client, warnings } = loopbackClient()
    const error = await failureOf(signIn(client), TokenError)
    for (const shown of [error.message, JSON.stringify(error), String(error.cause)]) {
      expect(shown).not.toContain(secret)
    }
    expect(JSON.stringify(warnings)).not.toContain(secret)
    expect(server.fhirAuthorizations).toEqual([])
  })

  it('in a refresh response: a TokenError, the session keeps the tokens it had and sends nothing with it', async () => {
    const { client } = loopbackClient()
    const session = await signIn(client)
    server.answer = () => ({
      body: { access_token: 'at-2\r\nX-Injected: 1', token_type: 'Bearer', expires_in: 3600 },
    })
    const error = await failureOf(session.refresh(), TokenError)
    expect(error.message).toContain('cannot be sent in an HTTP header')
    expect(error.message).not.toContain('X-Injected')
    expect(session.tokens.accessToken).toBe('at-1')
    expect((await session.fetch('Patient/p-1')).status).toBe(200)
    expect(server.fhirAuthorizations).toEqual(['Bearer at-1'])
  })

  it('a resumed token response with such a token: session.fetch is a TokenError and sends nothing', async () => {
    const { client } = loopbackClient()
    const session = client.resumeSession({ access_token: `${secret}\r\n`, token_type: 'Bearer' })
    const error = await failureOf(session.fetch('Patient/p-1'), TokenError)
    expect(error.message).toContain('cannot be sent in an HTTP header')
    for (const shown of [error.message, JSON.stringify(error), String(error.cause)]) {
      expect(shown).not.toContain(secret)
    }
    expect(server.requestCount()).toBe(0)
  })
})

describe('finding 10: a refreshed ID token never ends a session', () => {
  it('without aud (the SMART launcher): new access and refresh tokens, the earlier identity, a warning', async () => {
    const { client, warnings } = loopbackClient()
    const session = await signIn(client)
    const launched = session.tokens
    refreshAnswerWith(() => server.idToken({ aud: undefined }))
    const refreshed = await session.refresh()
    expect(refreshed.accessToken).toBe('at-2')
    expect(refreshed.refreshToken).toBe('rt-2')
    expect(refreshed.idToken).toBe(launched.idToken)
    expect(refreshed.idTokenClaims).toEqual(launched.idTokenClaims)
    expect(refreshed.fhirUser).toBe(launched.fhirUser)
    expect(warnings).toEqual([
      expect.objectContaining({
        message: expect.stringContaining('(aud)'),
        fields: expect.objectContaining({ reason: 'aud' }),
      }),
    ])
    expect(JSON.stringify(warnings)).not.toContain('eyJ')
    // The session goes on: the next refresh sends the rotated token, the FHIR server gets at-3.
    await session.refresh()
    expect(server.tokenRequests[2]?.refresh_token).toBe('rt-2')
    await session.fetch('Patient/p-1')
    expect(server.fhirAuthorizations).toEqual(['Bearer at-3'])
  })

  it('a key set outage during the refresh of a resumed session: the session goes on', async () => {
    const first = loopbackClient()
    const serialized = (await signIn(first.client)).tokens.serialize()
    const { client, warnings } = loopbackClient()
    const session = client.resumeSession(serialized)
    await server.stopKeySet()
    const refreshed = await session.refresh()
    expect(refreshed.accessToken).toBe('at-2')
    expect(refreshed.refreshToken).toBe('rt-2')
    expect(refreshed.idTokenClaims?.sub).toBe(loopbackSubject)
    expect(warnings.map((warning) => warning.fields)).toEqual([
      expect.objectContaining({ reason: 'jwks' }),
    ])
    expect((await session.fetch('Patient/p-1')).status).toBe(200)
  })

  it('another sub is an IdTokenError sub; the session keeps only the rotated refresh token', async () => {
    const persisted: TokenSet[] = []
    const { client } = loopbackClient()
    const session = await signIn(client, (tokens) => void persisted.push(tokens))
    refreshAnswerWith(() => server.idToken({ sub: 'someone-else' }))
    const error = await failureOf(session.refresh(), IdTokenError)
    expect(error.reason).toBe('sub')
    expect(session.tokens.accessToken).toBe('at-1')
    expect(session.tokens.idTokenClaims?.sub).toBe(loopbackSubject)
    expect(session.tokens.refreshToken).toBe('rt-2')
    expect(persisted.map((tokens) => tokens.refreshToken)).toEqual(['rt-2'])
    refreshAnswerWith(() => server.idToken())
    await session.refresh()
    expect(server.tokenRequests.map((form) => form.refresh_token)).toEqual([
      undefined,
      'rt-1',
      'rt-2',
    ])
  })
})

describe('finding 11: onTokens is called again until it succeeds', () => {
  it('after a failure, by the next accessToken(), fetch() and refresh(), with the newest tokens', async () => {
    const calls: string[] = []
    let failures = 2
    const { client } = loopbackClient()
    const session = await signIn(client, (tokens) => {
      calls.push(tokens.refreshToken ?? '')
      if (failures > 0) {
        failures -= 1
        throw new Error(`store down ${tokens.accessToken}`)
      }
    })
    const first = await failureOf(session.refresh(), StoreError)
    expect(first.message).not.toContain('at-2')
    expect(session.tokens.refreshToken).toBe('rt-2')
    // accessToken() needs no refresh, but gives the tokens again: fails again.
    await failureOf(session.accessToken(), StoreError)
    // fetch() gives them again: succeeds, and the request goes out.
    expect((await session.fetch('Patient/p-1')).status).toBe(200)
    expect(calls).toEqual(['rt-2', 'rt-2', 'rt-2'])
    // Delivered: no more calls until the next refresh.
    await session.accessToken()
    await session.fetch('Patient/p-1')
    expect(calls).toHaveLength(3)
    await session.refresh()
    expect(calls).toEqual(['rt-2', 'rt-2', 'rt-2', 'rt-3'])
    expect(server.tokenRequests).toHaveLength(3)
  })

  it('a refresh the server refuses still gives onTokens the undelivered newest tokens', async () => {
    const calls: string[] = []
    let fail = true
    const { client } = loopbackClient()
    const session = await signIn(client, (tokens) => {
      calls.push(tokens.refreshToken ?? '')
      if (fail) throw new Error('store down')
    })
    await failureOf(session.refresh(), StoreError)
    fail = false
    server.answer = () => ({ body: { error: 'temporarily_unavailable' } })
    await failureOf(session.refresh(), TokenError)
    expect(calls).toEqual(['rt-2', 'rt-2'])
  })
})

describe('finding 12: a refresh for other scopes never joins one in flight', () => {
  it('a narrower refresh waits for the one in flight, then sends its own', async () => {
    server.answer = (form, smart) => ({ ...rotatingAnswer(form, smart), delayMs: 100 })
    const { client } = loopbackClient()
    const session = await signIn(client)
    const [broad, narrow, sameAsBroad] = await Promise.all([
      session.refresh(),
      session.refresh({ scopes: ['patient/*.rs'] }),
      session.refresh(),
    ])
    const refreshes = server.tokenRequests.slice(1)
    expect(refreshes).toHaveLength(2)
    expect(refreshes[0]).not.toHaveProperty('scope')
    expect(refreshes[1]?.scope).toBe('patient/*.rs')
    // The second one sent the refresh token the first one rotated.
    expect(refreshes.map((form) => form.refresh_token)).toEqual(['rt-1', 'rt-2'])
    expect(broad.scopes).toEqual(scopes)
    expect(sameAsBroad).toBe(broad)
    expect(narrow.scopes).toEqual(['patient/*.rs'])
    expect(session.tokens).toBe(narrow)
  })

  it('callers asking for the same scopes, in any order, share one request', async () => {
    server.answer = (form, smart) => ({ ...rotatingAnswer(form, smart), delayMs: 50 })
    const { client } = loopbackClient()
    const session = await signIn(client)
    const results = await Promise.all([
      session.refresh({ scopes: ['patient/*.rs', 'openid'] }),
      session.refresh({ scopes: ['openid', 'patient/*.rs', 'openid'] }),
    ])
    expect(results[0]).toBe(results[1])
    expect(server.tokenRequests).toHaveLength(2)
  })
})

describe('finding 13: serialized sessions are bound to their server and client', () => {
  async function serializedSession() {
    const { client } = loopbackClient()
    const serialized = (await signIn(client)).tokens.serialize()
    return { serialized, requestsBefore: server.requestCount() }
  }

  function resumeFailure(client: Client, tokens: string | TokenSet): ConfigurationError {
    try {
      client.resumeSession(tokens)
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigurationError)
      return error as ConfigurationError
    }
    throw new Error('expected a ConfigurationError')
  }

  it('records the token endpoint, issuer, FHIR base URL and client id', async () => {
    const { serialized } = await serializedSession()
    expect(TokenSet.deserialize(serialized)?.binding).toEqual({
      tokenEndpoint: server.tokenEndpoint,
      issuer: server.baseUrl,
      baseUrl: server.baseUrl,
      clientId: loopbackClientId,
    })
  })

  it.each([
    ['another FHIR base URL', { baseUrl: 'https://other-ehr.example.org/fhir' }],
    ['another client id', { clientId: 'another-app' }],
    ['another token endpoint', { tokenEndpoint: 'https://other-ehr.example.org/token' }],
    ['another issuer', { issuer: 'https://other-ehr.example.org' }],
  ])('a client with %s refuses it and sends nothing', async (_label, config) => {
    const { serialized, requestsBefore } = await serializedSession()
    const { client } = loopbackClient(config)
    const error = resumeFailure(client, serialized)
    expect(error.invalidAttribute).toBe('tokens')
    expect(error.message).toContain('serialized for another server or client')
    expect(error.message).not.toContain('at-1')
    // A TokenSet read from it is refused the same way.
    const tokens = TokenSet.deserialize(serialized) as TokenSet
    expect(resumeFailure(client, tokens).invalidAttribute).toBe('tokens')
    expect(server.requestCount()).toBe(requestsBefore)
  })

  it('a client whose discovered token endpoint differs refuses the refresh before sending it', async () => {
    const { client } = loopbackClient({ tokenEndpoint: 'https://third-ehr.example.org/token' })
    // Recorded for an endpoint the resuming client only discovers: checked before the refresh.
    const recorded = TokenSet.fromResponse(
      { access_token: 'at-x', refresh_token: 'rt-x', expires_in: 3600 },
      {
        obtainedAt: new Date(),
        binding: { tokenEndpoint: 'https://other-ehr.example.org/token' },
      },
    )
    expect(() => client.resumeSession(recorded)).toThrow(ConfigurationError)
    const { client: discovering } = loopbackClient()
    const session = discovering.resumeSession(recorded)
    const error = await failureOf(session.refresh(), ConfigurationError)
    expect(error.invalidAttribute).toBe('tokens')
    expect(server.tokenRequests).toEqual([])
  })

  it('the same server and client resume it, with the identity read from its ID token', async () => {
    const { serialized } = await serializedSession()
    const stored = JSON.parse(serialized) as Record<string, unknown>
    const tampered = JSON.stringify({
      ...stored,
      idTokenClaims: { sub: 'admin', fhirUser: `${server.baseUrl}/Practitioner/admin` },
    })
    const { client } = loopbackClient({ baseUrl: `${server.baseUrl}/` })
    const session = client.resumeSession(tampered)
    expect(session.tokens.idTokenClaims?.sub).toBe(loopbackSubject)
    expect(session.tokens.fhirUser).toBe(`${server.baseUrl}/Practitioner/${loopbackSubject}`)
    expect((await session.refresh()).accessToken).toBe('at-2')
  })

  it('a serialization without a binding (the 0.5 form) is refused', async () => {
    const { serialized } = await serializedSession()
    const { raw, obtainedAt, requestedScopes } = JSON.parse(serialized) as Record<string, unknown>
    const older = JSON.stringify({ v: 1, raw, obtainedAt, requestedScopes })
    const { client } = loopbackClient()
    const error = resumeFailure(client, older)
    expect(error.invalidAttribute).toBe('tokens')
    expect(error.message).toContain('serialized for another server or client')
  })
})
