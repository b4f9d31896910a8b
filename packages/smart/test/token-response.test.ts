import { HttpError, type HttpResponse, TokenError } from '@fhir-auth/core'
import { syncFailureOf } from '@fhir-auth/test-utils/failure'
import {
  type FakeFetch,
  fakeFetch,
  hangingFetch,
  jsonResponse,
} from '@fhir-auth/test-utils/fake-fetch'
import { describe, expect, it } from 'vitest'
import { exchangeAuthorizationCode, parseTokenResponse } from '../src/index.js'
import { rejectionOf } from './test-support.js'

const tokenEndpoint = 'https://auth.example.org/token'

function exchange(fetch: FakeFetch | typeof hangingFetch, extra: object = {}) {
  return exchangeAuthorizationCode({
    tokenEndpoint,
    fetch,
    code: 'the-code',
    codeVerifier: 'v'.repeat(43),
    redirectUri: 'https://app.example.org/cb',
    clientAuthentication: { type: 'public', clientId: 'app' },
    ...extra,
  })
}

async function tokenFailure(
  respond: () => Response | Promise<Response>,
  extra: object = {},
): Promise<TokenError> {
  const fetch = fakeFetch({ method: 'POST', url: tokenEndpoint, respond })
  const error = await rejectionOf(() => exchange(fetch, extra))
  fetch.assertDone()
  expect(error).toBeInstanceOf(TokenError)
  return error as TokenError
}

function response(status: number, bodyText: string): HttpResponse {
  return { url: tokenEndpoint, status, headers: new Headers(), bodyText }
}

describe('parseTokenResponse', () => {
  it('returns the JSON object as received, whatever the content type', () => {
    const body = {
      access_token: 'a',
      token_type: 'Bearer',
      patient: '123',
      fhirContext: [{ reference: 'x' }],
    }
    expect(parseTokenResponse(response(200, JSON.stringify(body)))).toEqual(body)
  })

  it.each([
    ['absent', {}],
    ['empty', { access_token: '' }],
    ['blank', { access_token: '  ' }],
    ['a number', { access_token: 12345 }],
  ])(
    'rejects an access_token that is %s, naming the fields received but no value',
    (_label, body) => {
      const full = { ...body, token_type: 'Bearer', refresh_token: 'secret-refresh-value' }
      const error = syncFailureOf(
        () => parseTokenResponse(response(200, JSON.stringify(full))),
        TokenError,
      )
      expect(error.message).toContain('access_token')
      expect(error.message).toContain('token_type, refresh_token')
      expect(error.message).not.toContain('secret-refresh-value')
      expect(error.message).not.toContain('Bearer')
      expect(error.status).toBe(200)
    },
  )

  it('reads an RFC 6749 §5.2 error body', () => {
    const body = {
      error: 'invalid_grant',
      error_description: 'code expired',
      error_uri: 'https://as/errors/1',
    }
    const error = syncFailureOf(
      () => parseTokenResponse(response(400, JSON.stringify(body))),
      TokenError,
    )
    expect(error).toMatchObject({
      status: 400,
      error: 'invalid_grant',
      errorDescription: 'code expired',
      errorUri: 'https://as/errors/1',
    })
    expect(error.message).toBe(
      `token request to ${tokenEndpoint} failed with HTTP 400: invalid_grant (code expired)`,
    )
  })

  it('keeps a secret echoed in error_description out of the message and the field', () => {
    const body = { error: 'invalid_grant', error_description: 'code the-code-value is unknown' }
    const error = syncFailureOf(
      () => parseTokenResponse(response(400, JSON.stringify(body)), ['the-code-value']),
      TokenError,
    )
    expect(error.message).not.toContain('the-code-value')
    expect(error.message).toContain('[REDACTED]')
    expect(error.errorDescription).toBe('code [REDACTED] is unknown')
  })
})

describe('token request failure modes', () => {
  it('non-JSON 2xx → TokenError with the HttpError as cause', async () => {
    const error = await tokenFailure(() => new Response('access_token=x', { status: 200 }))
    expect(error.cause).toBeInstanceOf(HttpError)
    expect((error.cause as HttpError).reason).toBe('invalid-json')
    expect(error.status).toBe(200)
    expect(error.error).toBeUndefined()
  })

  it('array JSON 2xx → TokenError (not-an-object)', async () => {
    const error = await tokenFailure(() => jsonResponse([{ access_token: 'x' }]))
    expect((error.cause as HttpError).reason).toBe('not-an-object')
  })

  it.each([301, 302, 303, 307, 308])(
    '%i → TokenError (POSTs are never redirected)',
    async (status) => {
      const error = await tokenFailure(
        () =>
          new Response(null, {
            status,
            headers: { location: 'https://elsewhere.example.org/token' },
          }),
      )
      expect((error.cause as HttpError).reason).toBe('redirect')
      expect(error.status).toBe(status)
    },
  )

  it.each([400, 401])(
    '%i with an OAuth body → error, errorDescription, errorUri',
    async (status) => {
      const error = await tokenFailure(() =>
        jsonResponse(
          { error: 'invalid_client', error_description: 'bad auth', error_uri: 'https://as/e' },
          status,
        ),
      )
      expect(error).toMatchObject({
        status,
        error: 'invalid_client',
        errorDescription: 'bad auth',
        errorUri: 'https://as/e',
      })
      expect(error.cause).toBeUndefined()
    },
  )

  it.each([
    ['a JSON body without error', () => jsonResponse({ message: 'nope' }, 400)],
    ['an empty body', () => new Response(null, { status: 401 })],
    [
      'an HTML 500',
      () =>
        new Response('<html><body>Internal error</body></html>', {
          status: 500,
          headers: { 'content-type': 'text/html' },
        }),
    ],
    ['an HTML 502', () => new Response('<html>Bad gateway</html>', { status: 502 })],
  ])('4xx/5xx with %s → status only', async (_label, respond) => {
    const error = await tokenFailure(respond)
    expect(error.status).toBeGreaterThanOrEqual(400)
    expect(error.error).toBeUndefined()
    expect(error.errorDescription).toBeUndefined()
    expect(error.errorUri).toBeUndefined()
    expect(error.message).toContain(`HTTP ${error.status}`)
  })

  it('a huge body (streamed) → TokenError (too-large)', async () => {
    const error = await tokenFailure(() => new Response('x'.repeat(5000), { status: 200 }), {
      maxResponseBytes: 1000,
    })
    expect((error.cause as HttpError).reason).toBe('too-large')
  })

  it('a body over the default 1 MiB cap → TokenError (too-large)', async () => {
    const error = await tokenFailure(() =>
      jsonResponse({ access_token: 'a', padding: 'x'.repeat(1_100_000) }),
    )
    expect((error.cause as HttpError).reason).toBe('too-large')
  })

  it('a hanging server → TokenError (timeout) after timeoutMs, without status', async () => {
    const error = await rejectionOf(() => exchange(hangingFetch, { timeoutMs: 50 }))
    expect(error).toBeInstanceOf(TokenError)
    expect(((error as TokenError).cause as HttpError).reason).toBe('timeout')
    // The configured timeout, not the 10 s default (a wall-clock bound would fail under load).
    expect(((error as TokenError).cause as HttpError).message).toContain('after 50 ms')
    expect((error as TokenError).status).toBeUndefined()
  })

  it('an aborted signal → TokenError (aborted)', async () => {
    const controller = new AbortController()
    controller.abort()
    const error = await rejectionOf(() => exchange(hangingFetch, { signal: controller.signal }))
    expect(error).toBeInstanceOf(TokenError)
    expect(((error as TokenError).cause as HttpError).reason).toBe('aborted')
  })

  it('a signal aborted mid-request → TokenError (aborted)', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 20)
    const error = await rejectionOf(() => exchange(hangingFetch, { signal: controller.signal }))
    expect(((error as TokenError).cause as HttpError).reason).toBe('aborted')
  })

  it('a network error → TokenError (network) without status', async () => {
    const error = await tokenFailure(() => Promise.reject(new TypeError('fetch failed')))
    expect((error.cause as HttpError).reason).toBe('network')
    expect(error.status).toBeUndefined()
  })

  it('a plain-HTTP token endpoint → TokenError (insecure-url) before any request', async () => {
    const fetch = fakeFetch()
    const error = await rejectionOf(() =>
      exchange(fetch, { tokenEndpoint: 'http://auth.example.org/token' }),
    )
    fetch.assertDone()
    expect(((error as TokenError).cause as HttpError).reason).toBe('insecure-url')
  })
})
