/**
 * The OAuth pieces every protocol shares (`@fhir-auth/core/internal`): the authorization request
 * (state, PKCE, GET or POST), reading token and registration responses, discovery documents, and
 * the request checks of `sendRequest`. SMART and UDAP tests cover each protocol's own use.
 */
import { describe, expect, it } from 'vitest'
import {
  ConfigurationError,
  DiscoveryError,
  type FetchLike,
  HttpError,
  type HttpResponse,
  isValidCodeVerifier,
  RegistrationError,
  sendRequest,
  TokenError,
} from '../src/index.js'
import {
  authorizationMethod,
  createAuthorizationRequest,
  fetchDiscoveryDocument,
  readTokenResponse,
} from '../src/internal.js'
import { readRegistrationResponse } from '../src/internal-on-demand.js'
import { jwtBearerAssertionType } from '../src/jws.js'

function response(status: number, body: unknown): HttpResponse {
  return {
    url: 'https://as.example.org/token?x=1',
    status,
    headers: new Headers({ 'content-type': 'application/json' }),
    bodyText: typeof body === 'string' ? body : JSON.stringify(body),
  }
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection')
    },
    (error: unknown) => error,
  )
}

describe('createAuthorizationRequest', () => {
  const params = () => ({ response_type: 'code', client_id: 'app', scope: 'openid' })

  it('GET: the protocol parameters, then state and the S256 PKCE pair, on the endpoint query', async () => {
    const request = await createAuthorizationRequest({
      authorizationEndpoint: 'https://as.example.org/authorize?tenant=1&state=stale',
      params,
    })
    const url = new URL(request.authUrl)
    expect([...url.searchParams.keys()]).toEqual([
      'tenant',
      'state',
      'response_type',
      'client_id',
      'scope',
      'code_challenge',
      'code_challenge_method',
    ])
    expect(url.searchParams.get('state')).toBe(request.state)
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    expect(isValidCodeVerifier(request.codeVerifier)).toBe(true)
    expect(request.params).toBeUndefined()
  })

  it('POST: the endpoint as given and the parameters as a frozen form', async () => {
    const request = await createAuthorizationRequest({
      authorizationEndpoint: 'https://as.example.org/authorize',
      method: 'post',
      params,
    })
    expect(request.authUrl).toBe('https://as.example.org/authorize')
    expect(Object.isFrozen(request.params)).toBe(true)
    expect(request.params).toMatchObject({ ...params(), state: request.state })
  })

  it('gives fresh state and verifier on every call', async () => {
    const input = { authorizationEndpoint: 'https://as.example.org/authorize', params }
    const [first, second] = await Promise.all([
      createAuthorizationRequest(input),
      createAuthorizationRequest(input),
    ])
    expect(first.state).not.toBe(second.state)
    expect(first.codeVerifier).not.toBe(second.codeVerifier)
  })

  it('checks method, then the endpoint, before the protocol builds its parameters', async () => {
    let built = 0
    const counting = () => {
      built++
      return params()
    }
    const method = (await rejectionOf(
      createAuthorizationRequest({
        authorizationEndpoint: 'relative',
        method: 'put',
        params: counting,
      }),
    )) as ConfigurationError
    expect(method.invalidAttribute).toBe('method')
    expect(method.validValues).toEqual(['get', 'post'])
    const endpoint = (await rejectionOf(
      createAuthorizationRequest({ authorizationEndpoint: 'relative', params: counting }),
    )) as ConfigurationError
    expect(endpoint.invalidAttribute).toBe('authorizationEndpoint')
    expect(built).toBe(0)
    expect(authorizationMethod(undefined)).toBe('get')
  })
})

describe('readTokenResponse', () => {
  it('returns a 2xx JSON object with a non-blank access_token as received', () => {
    const body = { access_token: 'at', token_type: 'Bearer', patient: '123' }
    expect(readTokenResponse(response(200, body), 'token', [])).toEqual(body)
  })

  it('labels its errors and names received fields, never values', () => {
    let error: unknown
    try {
      readTokenResponse(
        response(200, { token_type: 'Bearer', refresh: 'r-secret' }),
        'UDAP token',
        [],
      )
    } catch (thrown) {
      error = thrown
    }
    expect(error).toBeInstanceOf(TokenError)
    expect((error as TokenError).message).toBe(
      'UDAP token response has no non-blank string access_token (received fields: token_type, refresh)',
    )
  })

  it('reads an RFC 6749 error body and cuts request secrets out of it', () => {
    try {
      readTokenResponse(
        response(400, { error: 'invalid_grant', error_description: 'code code-secret-1 used' }),
        'token',
        ['code-secret-1'],
      )
      expect.unreachable()
    } catch (error) {
      expect(error).toMatchObject({ status: 400, error: 'invalid_grant' })
      expect((error as TokenError).message).not.toContain('code-secret-1')
    }
  })
})

describe('readRegistrationResponse', () => {
  const rules = { label: 'UDAP registration', requestSecrets: [] }

  it('returns a 2xx JSON object with a client_id', () => {
    expect(readRegistrationResponse(response(201, { client_id: 'c1' }), rules)).toEqual({
      client_id: 'c1',
    })
  })

  it('refuses a 2xx the protocol does not define when successStatuses are given', () => {
    expect(() =>
      readRegistrationResponse(response(202, { client_id: 'c1' }), {
        ...rules,
        successStatuses: [200, 201],
      }),
    ).toThrow('UDAP registration answered HTTP 202; expected 200 or 201 with the registration')
    expect(readRegistrationResponse(response(202, { client_id: 'c1' }), rules).client_id).toBe('c1')
  })

  it('refuses a body without a client_id, naming the fields received', () => {
    expect(() =>
      readRegistrationResponse(response(200, { client_secret: 's' }), {
        ...rules,
        responseLabel: 'registration response',
      }),
    ).toThrow(
      new RegistrationError({
        message:
          'registration response has no non-empty string client_id (received fields: client_secret)',
      }).message,
    )
  })
})

describe('fetchDiscoveryDocument', () => {
  const url = 'https://as.example.org/.well-known/thing?community=secret-value'
  const answer =
    (status: number, body: string | null): FetchLike =>
    async () =>
      new Response(body, { status })

  it('returns the JSON object, whatever the content type', async () => {
    const document = await fetchDiscoveryDocument({
      url,
      label: 'Thing discovery',
      transport: { fetch: answer(200, '{"a":1}') },
    })
    expect(document).toEqual({ a: 1 })
  })

  it.each([
    [503, '{}', 'HTTP 503'],
    [200, '[]', 'is JSON but not an object'],
    [200, 'not json', 'is not valid JSON'],
  ])(
    'turns HTTP %i %s into a DiscoveryError naming the endpoint without its query',
    async (status, body, problem) => {
      const error = (await rejectionOf(
        fetchDiscoveryDocument({
          url,
          label: 'Thing discovery',
          transport: { fetch: answer(status, body) },
        }),
      )) as DiscoveryError
      expect(error).toBeInstanceOf(DiscoveryError)
      expect(error.endpoint).toBe('https://as.example.org/.well-known/thing')
      expect(error.status).toBe(status)
      expect(error.message).toMatch(
        /^Thing discovery failed for https:\/\/as\.example\.org\/\.well-known\/thing: /,
      )
      expect(error.message).toContain(problem)
      expect(error.message).not.toContain('secret-value')
    },
  )

  it('lets the protocol give a status its own meaning', async () => {
    const error = (await rejectionOf(
      fetchDiscoveryDocument({
        url,
        label: 'Thing discovery',
        transport: { fetch: answer(204, null) },
        statusProblem: (status) => (status === 204 ? 'HTTP 204, nothing for you' : undefined),
      }),
    )) as DiscoveryError
    expect(error.message).toContain('HTTP 204, nothing for you')
  })

  it('keeps the transport failure as cause', async () => {
    const error = (await rejectionOf(
      fetchDiscoveryDocument({
        url,
        label: 'Thing discovery',
        transport: { fetch: () => Promise.reject(new TypeError('fetch failed')) },
      }),
    )) as DiscoveryError
    expect(error.cause).toBeInstanceOf(HttpError)
  })
})

describe('sendRequest checks its options before sending (DESIGN §12)', () => {
  it.each([
    ['timeoutMs', { timeoutMs: 3e9 }],
    ['timeoutMs', { timeoutMs: 0 }],
    ['signal', { signal: { aborted: false } }],
    ['signal', { signal: 'abort' }],
    ['maxResponseBytes', { maxResponseBytes: 'big' }],
  ])('a wrong %s is a ConfigurationError and nothing is sent', async (attribute, options) => {
    let calls = 0
    const error = (await rejectionOf(
      sendRequest({
        method: 'GET',
        url: 'https://as.example.org/x',
        fetch: async () => {
          calls++
          return new Response('{}')
        },
        ...(options as object),
      }),
    )) as ConfigurationError
    expect(error).toBeInstanceOf(ConfigurationError)
    expect(error.invalidAttribute).toBe(attribute)
    expect(calls).toBe(0)
  })
})

describe('the JWT-bearer assertion type', () => {
  it('is RFC 7523 §2.2', () => {
    expect(jwtBearerAssertionType).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
  })
})
