import { ConfigurationError, TokenError } from '@fhir-auth/core'
import { type CapturedRequest, fakeFetch, jsonResponse } from '@fhir-auth/test-utils/fake-fetch'
import { decodeProtectedHeader, jwtVerify } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  type ClientAuthentication,
  exchangeAuthorizationCode,
  refreshAccessToken,
  requestBackendServicesToken,
  resolveBackendScopes,
} from '../src/index.js'
import { captureLogger, createTestKey, rejectionOf, type TestKey } from './test-support.js'

const tokenEndpoint = 'https://auth.example.org/token'
const jwtBearer = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'
const now = () => new Date('2030-01-01T00:00:00Z')
const tokens = {
  access_token: 'at-123',
  token_type: 'Bearer',
  expires_in: 3600,
  scope: 'patient/*.rs',
  patient: 'p1',
}

let rsa: TestKey
let ec: TestKey

beforeAll(async () => {
  rsa = await createTestKey('RS384')
  ec = await createTestKey('ES384')
})

function formOf(request: CapturedRequest): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(request.bodyText))
}

async function verifyAssertion(
  request: CapturedRequest,
  key: TestKey,
  clientId: string,
): Promise<void> {
  const assertion = formOf(request).client_assertion!
  expect(decodeProtectedHeader(assertion)).toMatchObject({
    alg: key.signer.alg,
    typ: 'JWT',
    kid: 'test-key-1',
  })
  await jwtVerify(assertion, key.publicKey, {
    algorithms: [key.signer.alg],
    issuer: clientId,
    subject: clientId,
    audience: tokenEndpoint,
    currentDate: now(),
    maxTokenAge: 300,
  })
}

describe('exchangeAuthorizationCode', () => {
  const codeForm = {
    grant_type: 'authorization_code',
    code: 'code-abc',
    redirect_uri: 'https://app.example.org/callback',
    code_verifier: 'v'.repeat(43),
  }
  const exchange = (
    fetch: ReturnType<typeof fakeFetch>,
    clientAuthentication: ClientAuthentication,
  ) =>
    exchangeAuthorizationCode({
      tokenEndpoint,
      fetch,
      now,
      code: codeForm.code,
      codeVerifier: codeForm.code_verifier,
      redirectUri: codeForm.redirect_uri,
      clientAuthentication,
    })

  it('public client: client_id in the body, no Authorization header', async () => {
    const fetch = fakeFetch({
      method: 'POST',
      url: tokenEndpoint,
      headers: { authorization: null, accept: 'application/json' },
      form: { ...codeForm, client_id: 'public-app' },
      respond: () => jsonResponse(tokens),
    })
    expect(await exchange(fetch, { type: 'public', clientId: 'public-app' })).toEqual(tokens)
    fetch.assertDone()
  })

  it('symmetric client: HTTP Basic with id and secret form-encoded first, no client_id in the body', async () => {
    const clientId = 'my:app id/é'
    const clientSecret = 'p@ss:wörd +%&='
    // RFC 6749 §2.3.1: each part application/x-www-form-urlencoded, then joined by ':'.
    const encoded = 'my%3Aapp+id%2F%C3%A9:p%40ss%3Aw%C3%B6rd+%2B%25%26%3D'
    const fetch = fakeFetch({
      method: 'POST',
      url: tokenEndpoint,
      headers: { authorization: `Basic ${btoa(encoded)}` },
      form: codeForm,
      respond: () => jsonResponse(tokens),
    })
    await exchange(fetch, { type: 'confidential_symmetric', clientId, clientSecret })
    fetch.assertDone()
  })

  it("symmetric client with basicAuthEncoding 'raw': base64 of the UTF-8 of id:secret as they are", async () => {
    const clientSecret = 'a~b+c/d=e:f%g é'
    const raw = new TextEncoder().encode(`my-app:${clientSecret}`)
    const fetch = fakeFetch({
      method: 'POST',
      url: tokenEndpoint,
      headers: { authorization: `Basic ${btoa(String.fromCharCode(...raw))}` },
      form: codeForm,
      respond: () => jsonResponse(tokens),
    })
    await exchange(fetch, {
      type: 'confidential_symmetric',
      clientId: 'my-app',
      clientSecret,
      basicAuthEncoding: 'raw',
    })
    fetch.assertDone()
  })

  it.each([
    [{ basicAuthEncoding: 'raw', clientId: 'my:app' }, 'clientId'],
    [{ basicAuthEncoding: 'base64', clientId: 'my-app' }, 'basicAuthEncoding'],
  ])('refuses %j before any request', async (overrides, attribute) => {
    const fetch = fakeFetch()
    const error = await rejectionOf(() =>
      exchange(fetch, {
        type: 'confidential_symmetric',
        clientSecret: 'secret-value',
        ...overrides,
      } as ClientAuthentication),
    )
    expect(error).toBeInstanceOf(ConfigurationError)
    expect((error as ConfigurationError).invalidAttribute).toBe(attribute)
    fetch.assertDone()
  })

  describe('invalid_client with credentials that form encoding changes', () => {
    const refuse = () =>
      fakeFetch({
        method: 'POST',
        url: tokenEndpoint,
        respond: () => jsonResponse({ error: 'invalid_client' }, 401),
      })
    it.each([
      ['form-urlencoded', 'raw'],
      ['raw', 'form-urlencoded'],
    ] as const)(
      '%s: the TokenError names basicAuthEncoding %s, not the secret',
      async (current, other) => {
        const clientSecret = 'se~cr+et/=%é'
        const error = await rejectionOf(() =>
          exchange(refuse(), {
            type: 'confidential_symmetric',
            clientId: 'my-app',
            clientSecret,
            basicAuthEncoding: current,
          }),
        )
        expect(error).toBeInstanceOf(TokenError)
        expect(error).toMatchObject({ error: 'invalid_client', status: 401 })
        expect((error as TokenError).message).toMatch(/characters that form encoding changes/)
        expect((error as TokenError).message).toContain(`set basicAuthEncoding to '${other}'`)
        expect(JSON.stringify([(error as Error).message, error])).not.toContain('se~cr')
      },
    )
    it('gives no hint when encoding cannot be the cause, or for another error', async () => {
      const plain = await rejectionOf(() =>
        exchange(refuse(), {
          type: 'confidential_symmetric',
          clientId: 'my-app',
          clientSecret: 'plain-Secret_1',
        }),
      )
      expect((plain as TokenError).message).not.toMatch(/basicAuthEncoding/)
      const grant = await rejectionOf(() =>
        exchange(
          fakeFetch({
            method: 'POST',
            url: tokenEndpoint,
            respond: () => jsonResponse({ error: 'invalid_grant' }, 400),
          }),
          { type: 'confidential_symmetric', clientId: 'my-app', clientSecret: 'se+cret' },
        ),
      )
      expect((grant as TokenError).message).not.toMatch(/basicAuthEncoding/)
    })
  })

  it.each([
    ['RS384', () => rsa],
    ['ES384', () => ec],
  ])(
    'asymmetric client (%s): a fresh signed assertion, no client_id, no Authorization',
    async (_alg, key) => {
      const fetch = fakeFetch(
        ...[1, 2].map(() => ({
          method: 'POST' as const,
          url: tokenEndpoint,
          headers: { authorization: null },
          form: {
            ...codeForm,
            client_assertion_type: jwtBearer,
            client_assertion: expect.any(String),
          },
          respond: () => jsonResponse(tokens),
        })),
      )
      const authentication: ClientAuthentication = {
        type: 'confidential_asymmetric',
        clientId: 'asym-app',
        signer: key().signer,
      }
      await exchange(fetch, authentication)
      await exchange(fetch, authentication)
      fetch.assertDone()
      for (const call of fetch.calls) await verifyAssertion(call, key(), 'asym-app')
      expect(formOf(fetch.calls[0]!).client_assertion).not.toBe(
        formOf(fetch.calls[1]!).client_assertion,
      )
    },
  )

  it('asymmetric client with jwksUri: the assertion carries jku', async () => {
    const fetch = fakeFetch({
      method: 'POST',
      url: tokenEndpoint,
      respond: () => jsonResponse(tokens),
    })
    await exchange(fetch, {
      type: 'confidential_asymmetric',
      clientId: 'asym-app',
      signer: rsa.signer,
      jwksUri: 'https://app.example.org/jwks',
    })
    expect(decodeProtectedHeader(formOf(fetch.calls[0]!).client_assertion!).jku).toBe(
      'https://app.example.org/jwks',
    )
  })

  it.each([
    ['code', { code: '' }],
    ['codeVerifier', { codeVerifier: undefined }],
    ['redirectUri', { redirectUri: ' ' }],
    ['tokenEndpoint', { tokenEndpoint: undefined }],
    ['clientId', { clientAuthentication: { type: 'public', clientId: '' } }],
    ['clientSecret', { clientAuthentication: { type: 'confidential_symmetric', clientId: 'a' } }],
    ['clientType', { clientAuthentication: { type: 'magic', clientId: 'a' } }],
    ['clientAuthentication', { clientAuthentication: undefined }],
  ])('refuses an unusable %s before any request', async (attribute, change) => {
    const fetch = fakeFetch()
    const error = await rejectionOf(() =>
      exchangeAuthorizationCode({
        tokenEndpoint,
        fetch,
        code: 'c0de',
        codeVerifier: 'v'.repeat(43),
        redirectUri: 'https://app/cb',
        clientAuthentication: { type: 'public', clientId: 'a' },
        ...change,
      } as never),
    )
    fetch.assertDone()
    expect(error).toBeInstanceOf(ConfigurationError)
    expect((error as ConfigurationError).invalidAttribute).toBe(attribute)
  })

  it('refuses an asymmetric signer without kid before any request', async () => {
    const fetch = fakeFetch()
    const error = await rejectionOf(() =>
      exchange(fetch, {
        type: 'confidential_asymmetric',
        clientId: 'a',
        signer: { ...rsa.signer, kid: undefined },
      }),
    )
    fetch.assertDone()
    expect((error as ConfigurationError).invalidAttribute).toBe('kid')
  })
})

describe('refreshAccessToken', () => {
  const refresh = (fetch: ReturnType<typeof fakeFetch>, scopes?: readonly string[]) =>
    refreshAccessToken({
      tokenEndpoint,
      fetch,
      refreshToken: 'rt-old',
      scopes,
      clientAuthentication: { type: 'public', clientId: 'app' },
    })

  it('sends no scope when none is given', async () => {
    const fetch = fakeFetch({
      method: 'POST',
      url: tokenEndpoint,
      form: { grant_type: 'refresh_token', refresh_token: 'rt-old', client_id: 'app' },
      respond: () => jsonResponse({ ...tokens, refresh_token: 'rt-new' }),
    })
    await refresh(fetch)
    fetch.assertDone()
  })

  it('sends no scope for an empty or blank list', async () => {
    const fetch = fakeFetch({
      method: 'POST',
      url: tokenEndpoint,
      form: { grant_type: 'refresh_token', refresh_token: 'rt-old', client_id: 'app' },
      respond: () => jsonResponse(tokens),
    })
    await refresh(fetch, ['', ' '])
    fetch.assertDone()
  })

  it('sends a reduced scope list space-joined', async () => {
    const fetch = fakeFetch({
      method: 'POST',
      url: tokenEndpoint,
      form: {
        grant_type: 'refresh_token',
        refresh_token: 'rt-old',
        scope: 'patient/Observation.rs openid',
        client_id: 'app',
      },
      respond: () => jsonResponse(tokens),
    })
    await refresh(fetch, ['patient/Observation.rs', 'openid'])
    fetch.assertDone()
  })

  it('returns the new refresh token when the server rotates it', async () => {
    const fetch = fakeFetch({
      method: 'POST',
      url: tokenEndpoint,
      respond: () => jsonResponse({ ...tokens, refresh_token: 'rt-new' }),
    })
    expect((await refresh(fetch)).refresh_token).toBe('rt-new')
  })

  it('keeps the refresh token sent when the server returns none', async () => {
    const fetch = fakeFetch({
      method: 'POST',
      url: tokenEndpoint,
      respond: () => jsonResponse(tokens),
    })
    expect(await refresh(fetch)).toEqual({ ...tokens, refresh_token: 'rt-old' })
  })

  it('authenticates like the code exchange (Basic for symmetric clients)', async () => {
    const fetch = fakeFetch({
      method: 'POST',
      url: tokenEndpoint,
      headers: { authorization: `Basic ${btoa('app:s3cret')}` },
      form: { grant_type: 'refresh_token', refresh_token: 'rt-old' },
      respond: () => jsonResponse(tokens),
    })
    await refreshAccessToken({
      tokenEndpoint,
      fetch,
      refreshToken: 'rt-old',
      clientAuthentication: {
        type: 'confidential_symmetric',
        clientId: 'app',
        clientSecret: 's3cret',
      },
    })
    fetch.assertDone()
  })

  it('refuses a blank refresh token before any request', async () => {
    const fetch = fakeFetch()
    const error = await rejectionOf(() =>
      refreshAccessToken({
        tokenEndpoint,
        fetch,
        refreshToken: '',
        clientAuthentication: { type: 'public', clientId: 'a' },
      }),
    )
    fetch.assertDone()
    expect((error as ConfigurationError).invalidAttribute).toBe('refreshToken')
  })
})

describe('requestBackendServicesToken', () => {
  it.each([
    ['RS384', () => rsa],
    ['ES384', () => ec],
  ])('sends client_credentials with scope and a %s assertion only', async (_alg, key) => {
    const fetch = fakeFetch({
      method: 'POST',
      url: tokenEndpoint,
      headers: { authorization: null, 'content-type': 'application/x-www-form-urlencoded' },
      form: {
        grant_type: 'client_credentials',
        scope: 'system/Patient.rs system/Observation.rs',
        client_assertion_type: jwtBearer,
        client_assertion: expect.any(String),
      },
      respond: () => jsonResponse(tokens),
    })
    const response = await requestBackendServicesToken({
      tokenEndpoint,
      fetch,
      now,
      clientId: 'backend-app',
      signer: key().signer,
      scopes: ['system/Patient.rs', 'system/Observation.rs'],
      jwksUri: 'https://backend.example.org/jwks',
    })
    fetch.assertDone()
    expect(response).toEqual(tokens)
    await verifyAssertion(fetch.calls[0]!, key(), 'backend-app')
    expect(decodeProtectedHeader(formOf(fetch.calls[0]!).client_assertion!).jku).toBe(
      'https://backend.example.org/jwks',
    )
  })

  it('sends non-system scopes unchanged', async () => {
    const fetch = fakeFetch({
      method: 'POST',
      url: tokenEndpoint,
      form: expect.objectContaining({ scope: 'user/*.rs patient/Patient.r' }),
      respond: () => jsonResponse(tokens),
    })
    await requestBackendServicesToken({
      tokenEndpoint,
      fetch,
      clientId: 'b',
      signer: rsa.signer,
      scopes: ['user/*.rs', 'patient/Patient.r'],
    })
    fetch.assertDone()
  })

  it.each([
    ['scopes', { scopes: [] }],
    ['clientId', { clientId: undefined }],
    ['tokenEndpoint', { tokenEndpoint: '' }],
    ['kid', { signer: { alg: 'RS384', sign: async () => new Uint8Array(1) } }],
    ['jwtAlgorithm', { signer: { alg: 'RS256', kid: 'k', sign: async () => new Uint8Array(1) } }],
  ])('refuses an unusable %s before any request', async (attribute, change) => {
    const fetch = fakeFetch()
    const error = await rejectionOf(() =>
      requestBackendServicesToken({
        tokenEndpoint,
        fetch,
        clientId: 'b',
        signer: rsa.signer,
        scopes: ['system/*.rs'],
        ...change,
      } as never),
    )
    fetch.assertDone()
    expect(error).toBeInstanceOf(ConfigurationError)
    expect((error as ConfigurationError).invalidAttribute).toBe(attribute)
  })
})

describe('resolveBackendScopes', () => {
  it('uses the per-call scopes when usable', () => {
    const logger = captureLogger()
    expect(resolveBackendScopes(['system/Patient.rs'], ['system/Observation.rs'], logger)).toEqual([
      'system/Patient.rs',
    ])
    expect(logger.lines).toEqual([])
  })

  it.each([[undefined], [[]], [['', '  ']]])(
    'falls back to the configured scopes when the per-call ones are %j',
    (perCall) => {
      const logger = captureLogger()
      expect(resolveBackendScopes(perCall, ['system/Observation.rs'], logger)).toEqual([
        'system/Observation.rs',
      ])
      expect(logger.lines).toEqual([])
    },
  )

  it('drops blank entries and keeps non-system scopes unchanged', () => {
    expect(resolveBackendScopes(['', 'user/*.rs', ' '], undefined, captureLogger())).toEqual([
      'user/*.rs',
    ])
  })

  it.each([
    [undefined, undefined],
    [[], []],
    [[' '], ['']],
  ])(
    'falls back to system/*.rs with exactly one deprecation warning (%j, %j)',
    (perCall, configured) => {
      const logger = captureLogger()
      expect(resolveBackendScopes(perCall, configured, logger)).toEqual(['system/*.rs'])
      expect(logger.lines).toHaveLength(1)
      expect(logger.lines[0]!.level).toBe('warn')
      expect(logger.lines[0]!.message).toMatch(/deprecated/)
      expect(logger.lines[0]!.message).toContain('v0.6.0')
    },
  )
})
