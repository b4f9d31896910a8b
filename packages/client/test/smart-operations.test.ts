import { createPublicKey } from 'node:crypto'
import * as jose from 'jose'
import { describe, expect, it } from 'vitest'
import {
  Client,
  ConfigurationError,
  DiscoveryError,
  RegistrationError,
  TokenError,
} from '../src/index.js'
import {
  baseUrl,
  capturingLogger,
  discoveryUrl,
  ecKeyPem,
  fakeServer,
  formOf,
  json,
  rejection,
  smartConfiguration,
  testBackend,
  tokenBody,
} from './support.js'

const launchConfig = {
  baseUrl,
  clientId: 'app',
  redirectUri: 'https://app.example.org/cb',
  scopes: ['launch/patient', 'patient/*.rs', 'openid'],
}
const tokenUrl = smartConfiguration.token_endpoint

function standardServer() {
  return fakeServer({
    [discoveryUrl]: () => json(smartConfiguration),
    [tokenUrl]: () => json(tokenBody),
    [smartConfiguration.registration_endpoint]: () => json({ client_id: 'new-client' }, 201),
  })
}

describe('serverMetadata', () => {
  it('fetches once and returns the cached object afterwards', async () => {
    const server = standardServer()
    const client = new Client({ baseUrl }, { fetch: server.fetch })
    const first = await client.serverMetadata()
    expect(first.tokenEndpoint).toBe(tokenUrl)
    expect(first.supportsSymmetricAuth()).toBe(true)
    expect(await client.serverMetadata()).toBe(first)
    expect(server.count(discoveryUrl)).toBe(1)
  })

  it('shares one request between concurrent callers', async () => {
    const server = standardServer()
    const client = new Client({ baseUrl }, { fetch: server.fetch })
    const results = await Promise.all(Array.from({ length: 50 }, () => client.serverMetadata()))
    expect(new Set(results).size).toBe(1)
    expect(server.count(discoveryUrl)).toBe(1)
  })

  it('does not cache a failure: the next call retries, and the failure is logged at error', async () => {
    let attempts = 0
    const server = fakeServer({
      [discoveryUrl]: () =>
        ++attempts === 1 ? new Response('down', { status: 503 }) : json(smartConfiguration),
    })
    const { logger, lines } = capturingLogger()
    const client = new Client({ baseUrl }, { fetch: server.fetch, logger })
    const error = await rejection(client.serverMetadata())
    expect(error).toBeInstanceOf(DiscoveryError)
    expect((error as DiscoveryError).status).toBe(503)
    expect((error as DiscoveryError).endpoint).toBe(discoveryUrl)
    expect(lines.filter((line) => line.level === 'error')).toHaveLength(1)
    expect((await client.serverMetadata()).tokenEndpoint).toBe(tokenUrl)
    expect(attempts).toBe(2)
  })

  it('needs a baseUrl', async () => {
    const error = await rejection(new Client({ tokenEndpoint: tokenUrl }).serverMetadata())
    expect((error as ConfigurationError).invalidAttribute).toBe('baseUrl')
  })
})

describe('authorizationUrl', () => {
  it('builds a GET URL with every parameter, aud = issuer, and logs info first', async () => {
    const server = standardServer()
    const { logger, lines } = capturingLogger()
    const client = new Client(launchConfig, { fetch: server.fetch, logger })
    const result = await client.authorizationUrl({ launch: 'xyz' })
    const url = new URL(result.authUrl)
    expect(`${url.origin}${url.pathname}`).toBe(smartConfiguration.authorization_endpoint)
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'app',
      redirect_uri: 'https://app.example.org/cb',
      scope: 'launch/patient patient/*.rs openid',
      aud: baseUrl,
      launch: 'xyz',
      state: result.state,
      code_challenge_method: 'S256',
    })
    expect(result).not.toHaveProperty('params')
    expect(lines[0]).toMatchObject({ level: 'info' })
    expect(lines[0]?.message).toContain('method: get')
  })

  it('builds a POST form with the bare endpoint', async () => {
    const client = new Client(launchConfig, { fetch: standardServer().fetch })
    const result = await client.authorizationUrl({ method: 'post' })
    expect(result.authUrl).toBe(smartConfiguration.authorization_endpoint)
    expect(result.params).toMatchObject({
      client_id: 'app',
      state: result.state,
      response_type: 'code',
    })
    expect(result.params).not.toHaveProperty('launch')
  })

  it('creates a fresh state and verifier on every call', async () => {
    const client = new Client(launchConfig, { fetch: standardServer().fetch })
    const [first, second] = await Promise.all([
      client.authorizationUrl(),
      client.authorizationUrl(),
    ])
    expect(first.state).not.toBe(second?.state)
    expect(first.codeVerifier).not.toBe(second?.codeVerifier)
  })

  it('replaces the configured scopes with customScopes', async () => {
    const client = new Client(launchConfig, { fetch: standardServer().fetch })
    const { authUrl } = await client.authorizationUrl({ customScopes: ['openid', 'fhirUser'] })
    expect(new URL(authUrl).searchParams.get('scope')).toBe('openid fhirUser')
  })

  it('uses a configured authorization endpoint as is, without discovery', async () => {
    const server = standardServer()
    const client = new Client(
      { ...launchConfig, authorizationEndpoint: 'https://other.example.org/authorize?tenant=1' },
      { fetch: server.fetch },
    )
    const { authUrl } = await client.authorizationUrl()
    expect(authUrl.startsWith('https://other.example.org/authorize?tenant=1&')).toBe(true)
    expect(server.requests).toHaveLength(0)
  })

  describe('checks in the spec order: method, clientId, scopes, redirectUri, authorizationEndpoint', () => {
    const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['method', { baseUrl }, { method: 'put' }],
      ['method', { baseUrl }, { method: 'GET' }],
      ['clientId', { baseUrl }, {}],
      ['scopes', { baseUrl, clientId: 'app' }, {}],
      ['scopes', { baseUrl, clientId: 'app', scopes: ['openid'] }, { customScopes: [] }],
      ['redirectUri', { baseUrl, clientId: 'app', scopes: ['openid'] }, {}],
    ]
    it.each(cases)('%s', async (attribute, config, options) => {
      const server = standardServer()
      const error = await rejection(
        new Client(config, { fetch: server.fetch }).authorizationUrl(options),
      )
      expect(error).toBeInstanceOf(ConfigurationError)
      expect((error as ConfigurationError).invalidAttribute).toBe(attribute)
      expect(server.requests).toHaveLength(0)
    })

    it('accepts method as a string in lower case and names the valid values otherwise', async () => {
      const client = new Client(launchConfig, { fetch: standardServer().fetch })
      expect((await client.authorizationUrl({ method: 'get' })).authUrl).toContain('?')
      expect((await client.authorizationUrl({ method: 'post' })).params).toMatchObject({
        response_type: 'code',
      })
      const error = await rejection(client.authorizationUrl({ method: 'patch' as never }))
      expect(error).toBeInstanceOf(ConfigurationError)
      expect(error).toMatchObject({ invalidAttribute: 'method', validValues: ['get', 'post'] })
    })

    it('authorizationEndpoint when discovery has none', async () => {
      const { authorization_endpoint: _omitted, ...withoutEndpoint } = smartConfiguration
      const server = fakeServer({ [discoveryUrl]: () => json(withoutEndpoint) })
      const error = await rejection(
        new Client(launchConfig, { fetch: server.fetch }).authorizationUrl(),
      )
      expect((error as ConfigurationError).invalidAttribute).toBe('authorizationEndpoint')
    })
  })

  it.each(['http://ehr.example.org/authorize', 'javascript:alert(1)'])(
    'refuses a discovered authorization endpoint %s with a DiscoveryError',
    async (endpoint) => {
      const server = fakeServer({
        [discoveryUrl]: () => json({ ...smartConfiguration, authorization_endpoint: endpoint }),
      })
      const error = await rejection(
        new Client(launchConfig, { fetch: server.fetch }).authorizationUrl(),
      )
      expect(error).toBeInstanceOf(DiscoveryError)
      expect((error as DiscoveryError).endpoint).toBe(discoveryUrl)
    },
  )

  it('accepts a discovered loopback HTTP endpoint only under allowInsecureLocalhost', async () => {
    const localBase = 'http://127.0.0.1:8080/fhir'
    const document = {
      ...smartConfiguration,
      authorization_endpoint: 'http://127.0.0.1:8080/authorize',
    }
    const server = fakeServer({
      [`${localBase}/.well-known/smart-configuration`]: () => json(document),
    })
    const allowed = new Client(
      { ...launchConfig, baseUrl: localBase, allowInsecureLocalhost: true },
      { fetch: server.fetch },
    )
    expect(
      (await allowed.authorizationUrl()).authUrl.startsWith('http://127.0.0.1:8080/authorize?'),
    ).toBe(true)
    // The same discovered endpoint from an HTTPS server, without the flag: refused.
    const httpsServer = fakeServer({ [discoveryUrl]: () => json(document) })
    const error = await rejection(
      new Client(launchConfig, { fetch: httpsServer.fetch }).authorizationUrl(),
    )
    expect(error).toBeInstanceOf(DiscoveryError)
    expect((error as DiscoveryError).endpoint).toBe(discoveryUrl)
  })
})

describe('token flows', () => {
  it.each([
    [
      'requestAccessToken',
      (client: Client) => client.requestAccessToken({ code: 'c', codeVerifier: 'v' }),
    ],
    ['refreshToken', (client: Client) => client.refreshToken({ refreshToken: 'r' })],
    [
      'requestBackendToken',
      (client: Client) => client.requestBackendToken({ scopes: ['system/*.rs'] }),
    ],
  ] as const)('%s without clientId is a ConfigurationError on clientId', async (_name, call) => {
    const server = standardServer()
    const error = await rejection(
      call(
        new Client({ baseUrl, redirectUri: 'https://app.example.org/cb' }, { fetch: server.fetch }),
      ),
    )
    expect((error as ConfigurationError).invalidAttribute).toBe('clientId')
    expect(server.requests).toHaveLength(0)
  })

  it('public: client_id in the body, no Authorization header; discovered token endpoint memoized', async () => {
    const server = standardServer()
    const client = new Client(launchConfig, { fetch: server.fetch })
    expect(await client.requestAccessToken({ code: 'code-1', codeVerifier: 'verifier-1' })).toEqual(
      tokenBody,
    )
    await client.refreshToken({ refreshToken: 'refresh-1' })
    const [exchange, refresh] = server.requests.filter((request) => request.url === tokenUrl)
    expect(formOf(exchange)).toEqual({
      grant_type: 'authorization_code',
      code: 'code-1',
      redirect_uri: 'https://app.example.org/cb',
      code_verifier: 'verifier-1',
      client_id: 'app',
    })
    expect(exchange?.headers.get('authorization')).toBeNull()
    expect(formOf(refresh)).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'refresh-1',
      client_id: 'app',
    })
    expect(server.count(discoveryUrl)).toBe(1)
  })

  it('symmetric: HTTP Basic from the configured secret, or the per-call one', async () => {
    const server = standardServer()
    const client = new Client(
      { ...launchConfig, clientSecret: 'configured' },
      { fetch: server.fetch, clientType: 'confidential_symmetric' },
    )
    await client.requestAccessToken({ code: 'c', codeVerifier: 'v' })
    await client.requestAccessToken({ code: 'c', codeVerifier: 'v', clientSecret: 'per call' })
    const [first, second] = server.requests.filter((request) => request.url === tokenUrl)
    expect(
      Buffer.from(first?.headers.get('authorization')?.slice(6) ?? '', 'base64').toString(),
    ).toBe('app:configured')
    expect(
      Buffer.from(second?.headers.get('authorization')?.slice(6) ?? '', 'base64').toString(),
    ).toBe('app:per+call')
    expect(formOf(first)).not.toHaveProperty('client_id')
  })

  it('symmetric without a secret is a ConfigurationError on clientSecret before any request', async () => {
    const server = standardServer()
    const client = new Client(launchConfig, {
      fetch: server.fetch,
      clientType: 'confidential_symmetric',
    })
    const error = await rejection(client.requestAccessToken({ code: 'c', codeVerifier: 'v' }))
    expect((error as ConfigurationError).invalidAttribute).toBe('clientSecret')
    expect(server.requests).toHaveLength(0)
  })

  it('asymmetric: a private_key_jwt assertion with kid and jku, the signer imported once', async () => {
    const server = standardServer()
    const backend = testBackend()
    const pem = ecKeyPem()
    const client = new Client(
      { ...launchConfig, privateKey: pem, kid: 'key-1', jwksUri: 'https://app.example.org/jwks' },
      { fetch: server.fetch, clientType: 'confidential_asymmetric', crypto: backend },
    )
    await client.requestAccessToken({ code: 'c', codeVerifier: 'v' })
    await client.refreshToken({ refreshToken: 'r', scopes: ['patient/*.rs'] })
    expect(backend.imports).toBe(1)
    const [exchange, refresh] = server.requests
      .filter((request) => request.url === tokenUrl)
      .map(formOf)
    expect(exchange?.client_assertion_type).toBe(
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    )
    const verified = await jose.jwtVerify(exchange?.client_assertion ?? '', createPublicKey(pem), {
      audience: tokenUrl,
    })
    expect(verified.protectedHeader).toMatchObject({
      alg: 'ES384',
      typ: 'JWT',
      kid: 'key-1',
      jku: 'https://app.example.org/jwks',
    })
    expect(verified.payload).toMatchObject({ iss: 'app', sub: 'app' })
    expect(refresh?.scope).toBe('patient/*.rs')
    expect(refresh?.client_assertion).not.toBe(exchange?.client_assertion)
  })

  it('asymmetric: per-call privateKey and kid override the configured ones', async () => {
    const server = standardServer()
    const backend = testBackend()
    const client = new Client(
      { ...launchConfig, privateKey: ecKeyPem(), kid: 'configured' },
      { fetch: server.fetch, clientType: 'confidential_asymmetric', crypto: backend },
    )
    const other = ecKeyPem()
    await client.requestAccessToken({
      code: 'c',
      codeVerifier: 'v',
      privateKey: other,
      kid: 'per-call',
    })
    const assertion =
      formOf(server.requests.find((request) => request.url === tokenUrl)).client_assertion ?? ''
    expect(jose.decodeProtectedHeader(assertion).kid).toBe('per-call')
    await expect(jose.compactVerify(assertion, createPublicKey(other))).resolves.toBeDefined()
  })

  it.each([
    ['privateKey', { kid: 'k' }],
    ['kid', { privateKey: 'PEM' }],
  ])(
    'asymmetric without %s is a ConfigurationError before any request',
    async (attribute, extra) => {
      const server = standardServer()
      const client = new Client(
        { ...launchConfig, ...extra },
        { fetch: server.fetch, clientType: 'confidential_asymmetric', crypto: testBackend() },
      )
      const error = await rejection(client.requestAccessToken({ code: 'c', codeVerifier: 'v' }))
      expect((error as ConfigurationError).invalidAttribute).toBe(attribute)
      expect(server.requests).toHaveLength(0)
    },
  )

  it.each([
    ['code', { codeVerifier: 'v' }],
    ['codeVerifier', { code: 'c' }],
  ])('requestAccessToken without %s is a ConfigurationError', async (attribute, options) => {
    const error = await rejection(new Client(launchConfig).requestAccessToken(options as never))
    expect((error as ConfigurationError).invalidAttribute).toBe(attribute)
  })

  it('turns an OAuth error into a TokenError with its fields', async () => {
    const server = fakeServer({
      [discoveryUrl]: () => json(smartConfiguration),
      [tokenUrl]: () =>
        json(
          { error: 'invalid_grant', error_description: 'code expired', error_uri: 'https://e/x' },
          400,
        ),
    })
    const error = (await rejection(
      new Client(launchConfig, { fetch: server.fetch }).requestAccessToken({
        code: 'c0de-value',
        codeVerifier: 'v',
      }),
    )) as TokenError
    expect(error).toBeInstanceOf(TokenError)
    expect(error).toMatchObject({
      status: 400,
      error: 'invalid_grant',
      errorDescription: 'code expired',
      errorUri: 'https://e/x',
    })
    expect(error.message).not.toContain('c0de-value')
  })

  it('turns a hanging token endpoint into a TokenError after timeoutMs', async () => {
    const server = fakeServer({
      [discoveryUrl]: () => json(smartConfiguration),
      [tokenUrl]: () => new Promise<Response>(() => {}),
    })
    const error = await rejection(
      new Client(launchConfig, { fetch: server.fetch, timeoutMs: 50 }).requestAccessToken({
        code: 'c',
        codeVerifier: 'v',
      }),
    )
    expect(error).toBeInstanceOf(TokenError)
    expect((error.cause as { reason?: string }).reason).toBe('timeout')
  })
})

describe('requestBackendToken', () => {
  const backendConfig = { baseUrl, clientId: 'bulk', kid: 'k1' }

  it('sends client_credentials with an assertion and the per-call scopes', async () => {
    const server = standardServer()
    const client = new Client(
      { ...backendConfig, privateKey: ecKeyPem(), scopes: ['system/Patient.rs'] },
      { fetch: server.fetch, crypto: testBackend() },
    )
    await client.requestBackendToken({ scopes: ['system/Observation.rs'] })
    const form = formOf(server.requests.find((request) => request.url === tokenUrl))
    expect(form).toMatchObject({
      grant_type: 'client_credentials',
      scope: 'system/Observation.rs',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    })
    expect(form.client_assertion).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(form).not.toHaveProperty('client_id')
  })

  it('authenticates with the assertion only, even when a client secret is configured too', async () => {
    const server = standardServer()
    const secret = 'backend-secret-value'
    const client = new Client(
      { ...backendConfig, privateKey: ecKeyPem(), clientSecret: secret },
      { fetch: server.fetch, crypto: testBackend() },
    )
    await client.requestBackendToken({ scopes: ['system/Observation.rs'] })
    const request = server.requests.find((sent) => sent.url === tokenUrl)
    expect(formOf(request).client_assertion).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(formOf(request)).not.toHaveProperty('client_secret')
    expect(Object.keys(request?.headers ?? {}).map((name) => name.toLowerCase())).not.toContain(
      'authorization',
    )
    expect(JSON.stringify(request)).not.toContain(secret)
  })

  it('falls back to configured scopes, then to system/*.rs with one deprecation warning', async () => {
    const server = standardServer()
    const { logger, lines } = capturingLogger()
    const configured = new Client(
      { ...backendConfig, privateKey: ecKeyPem(), scopes: ['system/Patient.rs'] },
      { fetch: server.fetch, crypto: testBackend(), logger },
    )
    await configured.requestBackendToken({ scopes: [] })
    const bare = new Client(
      { ...backendConfig, privateKey: ecKeyPem() },
      { fetch: server.fetch, crypto: testBackend(), logger },
    )
    await bare.requestBackendToken()
    const scopes = server.requests
      .filter((request) => request.url === tokenUrl)
      .map((request) => formOf(request).scope)
    expect(scopes).toEqual(['system/Patient.rs', 'system/*.rs'])
    const warnings = lines.filter((line) => line.level === 'warn')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]?.message).toMatch(/deprecat/i)
  })

  it('needs a private key and kid, from config or the call', async () => {
    const server = standardServer()
    const noKey = await rejection(
      new Client(backendConfig, {
        fetch: server.fetch,
        crypto: testBackend(),
      }).requestBackendToken(),
    )
    expect((noKey as ConfigurationError).invalidAttribute).toBe('privateKey')
    const noKid = await rejection(
      new Client(
        { baseUrl, clientId: 'bulk', privateKey: ecKeyPem() },
        { fetch: server.fetch, crypto: testBackend() },
      ).requestBackendToken(),
    )
    expect((noKid as ConfigurationError).invalidAttribute).toBe('kid')
    expect(server.requests).toHaveLength(0)
  })
})

describe('registerClient (SMART)', () => {
  it('posts the metadata as JSON to the discovered endpoint with the Authorization header verbatim', async () => {
    const server = standardServer()
    const client = new Client({ baseUrl }, { fetch: server.fetch })
    const response = await client.registerClient(
      { client_name: 'x' },
      { authorization: 'Bearer initial-token' },
    )
    expect(response.client_id).toBe('new-client')
    const request = server.requests.find(
      (entry) => entry.url === smartConfiguration.registration_endpoint,
    )
    expect(request?.headers.get('authorization')).toBe('Bearer initial-token')
    expect(request?.headers.get('content-type')).toBe('application/json')
    expect(JSON.parse(request?.bodyText || '{}')).toEqual({ client_name: 'x' })
  })

  it('uses an explicit endpoint without discovery', async () => {
    const server = fakeServer({
      'https://reg.example.org/register': () => json({ client_id: 'c' }, 201),
    })
    await new Client({ baseUrl }, { fetch: server.fetch }).registerClient(
      {},
      { registrationEndpoint: 'https://reg.example.org/register' },
    )
    expect(server.requests.map((request) => request.url)).toEqual([
      'https://reg.example.org/register',
    ])
  })

  it('refuses a non-HTTPS endpoint before any request', async () => {
    const server = standardServer()
    const error = await rejection(
      new Client({ baseUrl }, { fetch: server.fetch }).registerClient(
        {},
        { registrationEndpoint: 'http://reg.example.org/register' },
      ),
    )
    expect(error).toBeInstanceOf(ConfigurationError)
    expect(server.requests).toHaveLength(0)
  })

  it('turns an RFC 7591 error into a RegistrationError', async () => {
    const server = fakeServer({
      [discoveryUrl]: () => json(smartConfiguration),
      [smartConfiguration.registration_endpoint]: () =>
        json({ error: 'invalid_client_metadata', error_description: 'bad' }, 400),
    })
    const error = (await rejection(
      new Client({ baseUrl }, { fetch: server.fetch }).registerClient({}),
    )) as RegistrationError
    expect(error).toBeInstanceOf(RegistrationError)
    expect(error).toMatchObject({
      status: 400,
      error: 'invalid_client_metadata',
      errorDescription: 'bad',
    })
  })

  it('cancelRegistration is a UDAP operation', async () => {
    const error = await rejection(new Client({ baseUrl }).cancelRegistration({}, {} as never))
    expect((error as ConfigurationError).invalidAttribute).toBe('protocol')
  })
})

describe('isTokenResponseValid', () => {
  it('accepts a compliant response and logs nothing', () => {
    const { logger, lines } = capturingLogger()
    expect(new Client({ baseUrl }, { logger }).isTokenResponseValid(tokenBody)).toBe(true)
    expect(lines).toHaveLength(0)
  })

  it('logs one warning per violation and never throws', () => {
    const { logger, lines } = capturingLogger()
    const client = new Client({ baseUrl }, { logger })
    expect(client.isTokenResponseValid({ token_type: 'MAC' }, { flow: 'backend_services' })).toBe(
      false,
    )
    expect(lines.filter((line) => line.level === 'warn')).toHaveLength(4)
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('boom')
        },
        has: () => {
          throw new Error('boom')
        },
      },
    )
    expect(() => client.isTokenResponseValid(hostile)).not.toThrow()
    expect(client.isTokenResponseValid(null)).toBe(false)
    expect(client.isTokenResponseValid(tokenBody, { flow: 'nonsense' as never })).toBe(false)
  })
})

describe('endpoints neither configured nor discoverable', () => {
  it('authorizationUrl without baseUrl or authorizationEndpoint names authorizationEndpoint', async () => {
    const client = new Client({
      clientId: 'app',
      scopes: ['openid'],
      redirectUri: 'https://app.example.org/cb',
    })
    const error = await rejection(client.authorizationUrl())
    expect((error as ConfigurationError).invalidAttribute).toBe('authorizationEndpoint')
  })

  it('a token flow without baseUrl or tokenEndpoint names tokenEndpoint', async () => {
    const client = new Client({ clientId: 'app', redirectUri: 'https://app.example.org/cb' })
    const error = await rejection(client.requestAccessToken({ code: 'c', codeVerifier: 'v' }))
    expect((error as ConfigurationError).invalidAttribute).toBe('tokenEndpoint')
  })
})
