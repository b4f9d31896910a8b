import { ConfigurationError } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import { type AuthorizationRequestOptions, buildAuthorizationRequest } from '../src/index.js'

const options: AuthorizationRequestOptions = {
  authorizationEndpoint: 'https://auth.example.org/authorize',
  clientId: 'my app',
  redirectUri: 'https://app.example.org/callback',
  scopes: ['launch/patient', 'patient/*.rs', 'openid'],
  audience: 'https://fhir.example.org/r4',
}

/** RFC 7636 S256, computed independently with WebCrypto and the platform's btoa. */
async function s256(verifier: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)),
  )
  return btoa(String.fromCharCode(...digest))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

function configurationFailure(action: () => Promise<unknown>): Promise<ConfigurationError> {
  return action().then(
    () => {
      throw new Error('expected a ConfigurationError')
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(ConfigurationError)
      return error as ConfigurationError
    },
  )
}

describe('buildAuthorizationRequest (GET)', () => {
  it('puts exactly the SMART parameters in the query', async () => {
    const request = await buildAuthorizationRequest(options)
    const url = new URL(request.authUrl)
    expect(`${url.origin}${url.pathname}`).toBe(options.authorizationEndpoint)
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'my app',
      redirect_uri: options.redirectUri,
      scope: 'launch/patient patient/*.rs openid',
      state: request.state,
      aud: options.audience,
      code_challenge: await s256(request.codeVerifier),
      code_challenge_method: 'S256',
    })
    expect([...url.searchParams.keys()]).toHaveLength(8)
    expect('params' in request).toBe(false)
  })

  it('keeps an existing query and replaces a parameter of the same name', async () => {
    const request = await buildAuthorizationRequest({
      ...options,
      authorizationEndpoint: 'https://auth.example.org/authorize?tenant=acme&scope=old&x=1&x=2',
    })
    const query = new URL(request.authUrl).searchParams
    expect(query.get('tenant')).toBe('acme')
    expect(query.getAll('x')).toEqual(['1', '2'])
    expect(query.getAll('scope')).toEqual(['launch/patient patient/*.rs openid'])
    expect(query.get('state')).toBe(request.state)
  })

  it('sends launch only when given', async () => {
    const withLaunch = new URL(
      (await buildAuthorizationRequest({ ...options, launch: 'xyz123' })).authUrl,
    )
    expect(withLaunch.searchParams.get('launch')).toBe('xyz123')
    const without = new URL((await buildAuthorizationRequest(options)).authUrl)
    expect(without.searchParams.has('launch')).toBe(false)
    const undefinedLaunch = new URL(
      (await buildAuthorizationRequest({ ...options, launch: undefined })).authUrl,
    )
    expect(undefinedLaunch.searchParams.has('launch')).toBe(false)
  })

  it('sends the audience as aud, unchanged', async () => {
    const request = await buildAuthorizationRequest({
      ...options,
      audience: 'https://fhir.example.org/r4/',
    })
    expect(new URL(request.authUrl).searchParams.get('aud')).toBe('https://fhir.example.org/r4/')
  })

  it('drops blank scope entries', async () => {
    const request = await buildAuthorizationRequest({
      ...options,
      scopes: ['openid', ' ', '', 'fhirUser'],
    })
    expect(new URL(request.authUrl).searchParams.get('scope')).toBe('openid fhirUser')
  })
})

describe('buildAuthorizationRequest (POST)', () => {
  it('returns the endpoint exactly as given and the parameters separately', async () => {
    const endpoint = 'https://auth.example.org/authorize?tenant=acme'
    const request = await buildAuthorizationRequest({
      ...options,
      authorizationEndpoint: endpoint,
      method: 'post',
      launch: 'L1',
    })
    expect(request.authUrl).toBe(endpoint)
    expect(request.params).toEqual({
      response_type: 'code',
      client_id: 'my app',
      redirect_uri: options.redirectUri,
      launch: 'L1',
      scope: 'launch/patient patient/*.rs openid',
      state: request.state,
      aud: options.audience,
      code_challenge: await s256(request.codeVerifier),
      code_challenge_method: 'S256',
    })
  })
})

describe('buildAuthorizationRequest state and PKCE', () => {
  it('makes a state of at least 128 bits and an RFC 7636 verifier', async () => {
    const request = await buildAuthorizationRequest(options)
    // base64url: 6 bits per character, so 22 characters carry at least 128 bits.
    expect(request.state).toMatch(/^[A-Za-z0-9_-]{22,}$/)
    expect(request.codeVerifier).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/)
  })

  it('makes fresh values on every call', async () => {
    const requests = await Promise.all(
      Array.from({ length: 20 }, () => buildAuthorizationRequest(options)),
    )
    expect(new Set(requests.map((request) => request.state)).size).toBe(20)
    expect(new Set(requests.map((request) => request.codeVerifier)).size).toBe(20)
    expect(new Set(requests.map((request) => request.authUrl)).size).toBe(20)
  })
})

describe('buildAuthorizationRequest option checks', () => {
  it('refuses an unknown method, listing the valid ones', async () => {
    const error = await configurationFailure(() =>
      buildAuthorizationRequest({ ...options, method: 'put' as 'get' }),
    )
    expect(error.invalidAttribute).toBe('method')
    expect(error.validValues).toEqual(['get', 'post'])
  })

  it.each([
    ['authorizationEndpoint', { authorizationEndpoint: '/authorize' }],
    ['authorizationEndpoint', { authorizationEndpoint: undefined }],
    ['clientId', { clientId: '' }],
    ['clientId', { clientId: 7 }],
    ['redirectUri', { redirectUri: undefined }],
    ['scopes', { scopes: [] }],
    ['scopes', { scopes: ['  '] }],
    ['scopes', { scopes: 'openid' }],
    ['audience', { audience: ' ' }],
    ['launch', { launch: 5 }],
  ])('names %s when it is unusable (%j)', async (attribute, change) => {
    const error = await configurationFailure(() =>
      buildAuthorizationRequest({
        ...options,
        ...change,
      } as unknown as AuthorizationRequestOptions),
    )
    expect(error.invalidAttribute).toBe(attribute)
  })

  it.each([
    [{ authorizationEndpoint: '/authorize' }, 'authorizationEndpoint must be an absolute URL'],
    [{ launch: 5 }, 'launch must be a string'],
  ])('says why %j is refused', async (change, message) => {
    const error = await configurationFailure(() =>
      buildAuthorizationRequest({
        ...options,
        ...change,
      } as unknown as AuthorizationRequestOptions),
    )
    expect(error.message).toContain(message)
  })
})
