import { ConfigurationError, type HttpError, RegistrationError } from '@fhir-auth/core'
import {
  type FakeFetch,
  fakeFetch,
  hangingFetch,
  jsonResponse,
} from '@fhir-auth/test-utils/fake-fetch'
import { describe, expect, it } from 'vitest'
import { registerSmartClient } from '../src/index.js'
import { rejectionOf } from './test-support.js'

const registrationEndpoint = 'https://auth.example.org/register'
const metadata = {
  client_name: 'Test App',
  redirect_uris: ['https://app.example.org/cb'],
  grant_types: ['authorization_code', 'refresh_token'],
  token_endpoint_auth_method: 'client_secret_basic',
  scope: 'openid patient/*.rs',
}

function register(fetch: FakeFetch, extra: object = {}) {
  return registerSmartClient({ registrationEndpoint, metadata, fetch, ...extra })
}

async function registrationFailure(
  respond: () => Response | Promise<Response>,
): Promise<RegistrationError> {
  const fetch = fakeFetch({ method: 'POST', url: registrationEndpoint, respond })
  const error = await rejectionOf(() => register(fetch))
  fetch.assertDone()
  expect(error).toBeInstanceOf(RegistrationError)
  return error as RegistrationError
}

describe('registerSmartClient', () => {
  it.each([201, 200])(
    'POSTs the metadata as JSON and returns the %i response as received',
    async (status) => {
      const answer = {
        ...metadata,
        client_id: 'new-client',
        client_secret: 'issued-secret',
        client_id_issued_at: 1,
      }
      const fetch = fakeFetch({
        method: 'POST',
        url: registrationEndpoint,
        headers: { authorization: null, accept: 'application/json' },
        json: metadata,
        respond: () => jsonResponse(answer, status),
      })
      expect(await register(fetch)).toEqual(answer)
      fetch.assertDone()
    },
  )

  it('sends the authorization value verbatim as the Authorization header', async () => {
    const fetch = fakeFetch({
      method: 'POST',
      url: registrationEndpoint,
      headers: { authorization: 'Bearer initial-access-token-xyz' },
      json: metadata,
      respond: () => jsonResponse({ client_id: 'c' }, 201),
    })
    await register(fetch, { authorization: 'Bearer initial-access-token-xyz' })
    fetch.assertDone()
  })

  it.each(['', '   '])(
    'sends no Authorization header for a blank authorization (%j)',
    async (authorization) => {
      const fetch = fakeFetch({
        method: 'POST',
        url: registrationEndpoint,
        headers: { authorization: null },
        respond: () => jsonResponse({ client_id: 'c' }, 201),
      })
      await register(fetch, { authorization })
      fetch.assertDone()
    },
  )

  it.each([
    'http://auth.example.org/register',
    'ftp://auth.example.org/register',
    '/register',
    'http://localhost:8080/register',
  ])('refuses %s before any request', async (endpoint) => {
    const fetch = fakeFetch()
    const error = await rejectionOf(() =>
      register(fetch, { registrationEndpoint: endpoint, authorization: 'Bearer t0ken' }),
    )
    fetch.assertDone()
    expect(error).toBeInstanceOf(ConfigurationError)
    expect((error as ConfigurationError).invalidAttribute).toBe('registrationEndpoint')
  })

  it('accepts loopback HTTP under allowInsecureLocalhost', async () => {
    const fetch = fakeFetch({
      method: 'POST',
      url: 'http://localhost:8080/register',
      respond: () => jsonResponse({ client_id: 'c' }, 201),
    })
    await register(fetch, {
      registrationEndpoint: 'http://localhost:8080/register',
      allowInsecureLocalhost: true,
    })
    fetch.assertDone()
  })

  it.each([
    ['null', null],
    ['an array', [metadata]],
    ['a string', '{}'],
    ['a class instance', new Date()],
    [
      'cyclic',
      (() => {
        const cyclic: Record<string, unknown> = { client_name: 'x' }
        cyclic.self = cyclic
        return cyclic
      })(),
    ],
    ['holding a BigInt', { client_name: 'x', size: 10n }],
  ])('refuses metadata that is %s before any request', async (_label, value) => {
    const fetch = fakeFetch()
    const error = await rejectionOf(() => register(fetch, { metadata: value }))
    fetch.assertDone()
    expect((error as ConfigurationError).invalidAttribute).toBe('metadata')
  })

  it.each([
    ['absent', {}],
    ['blank', { client_id: ' ' }],
    ['a number', { client_id: 5 }],
  ])('rejects a 2xx whose client_id is %s, naming the fields received', async (_label, body) => {
    const error = await registrationFailure(() =>
      jsonResponse({ ...body, client_secret: 'sekrit-value' }, 201),
    )
    expect(error.message).toContain('client_id')
    expect(error.message).toContain('client_secret')
    expect(error.message).not.toContain('sekrit-value')
    expect(error.status).toBe(201)
  })

  it('rejects a 2xx that is not a JSON object', async () => {
    const error = await registrationFailure(() => new Response('<html>', { status: 201 }))
    expect((error.cause as HttpError).reason).toBe('invalid-json')
  })

  it('reads an RFC 7591 §3.2.2 error', async () => {
    const error = await registrationFailure(() =>
      jsonResponse(
        { error: 'invalid_redirect_uri', error_description: 'redirect_uris must be https' },
        400,
      ),
    )
    expect(error).toMatchObject({
      status: 400,
      error: 'invalid_redirect_uri',
      errorDescription: 'redirect_uris must be https',
      errorUri: undefined,
    })
    expect(error.message).toContain('invalid_redirect_uri')
  })

  it('reports a 5xx without an OAuth body by status', async () => {
    const error = await registrationFailure(
      () => new Response('<html>oops</html>', { status: 503 }),
    )
    expect(error.status).toBe(503)
    expect(error.error).toBeUndefined()
  })

  it('refuses a redirect (POSTs are never re-sent)', async () => {
    const error = await registrationFailure(
      () =>
        new Response(null, {
          status: 307,
          headers: { location: 'https://other.example.org/register' },
        }),
    )
    expect((error.cause as HttpError).reason).toBe('redirect')
  })

  it('turns a timeout into a RegistrationError with the HttpError as cause', async () => {
    const error = await rejectionOf(() =>
      registerSmartClient({ registrationEndpoint, metadata, fetch: hangingFetch, timeoutMs: 30 }),
    )
    expect(error).toBeInstanceOf(RegistrationError)
    expect(((error as RegistrationError).cause as HttpError).reason).toBe('timeout')
  })
})
