/**
 * SMART App Launch end to end: for every client type (public, client_secret_basic,
 * private_key_jwt with RS384 and with ES384) and both authorization methods (GET redirect and
 * authorize-POST), the public `Client` builds the request, a real strict server authorizes it,
 * the library redeems the code, and the access token reads the patient in context.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  expectAssertionAuthentication,
  expectBasicAuthentication,
  expectPublicAuthentication,
} from './support/assertions.js'
import {
  authorizeWithClient,
  codeExchange,
  lastRequestTo,
  readPatientStatus,
} from './support/flows.js'
import {
  type AppKind,
  appClient,
  appKinds,
  clientIds,
  keysOf,
  type SmartFixture,
  standaloneScopes,
  startSmartFixture,
} from './support/smart-fixture.js'

let fixture: SmartFixture

beforeAll(async () => {
  fixture = await startSmartFixture({ standalonePatient: 'patient-42' })
})

afterAll(async () => {
  await fixture?.sandbox.close()
})

describe.each(appKinds)('standalone launch of a %s client', (kind: AppKind) => {
  it.each(['get', 'post'] as const)(
    'authorizes with %s, redeems the code and reads the patient in context',
    async (method) => {
      const { sandbox } = fixture
      const client = appClient(fixture, kind)
      const authorization = await authorizeWithClient(client, sandbox, { method })

      const authorizeRequest = lastRequestTo(sandbox, sandbox.endpoints.authorization)
      expect(authorizeRequest.method).toBe(method === 'get' ? 'GET' : 'POST')
      const sentParameters = method === 'get' ? authorizeRequest.query : authorizeRequest.form
      expect(sentParameters).toMatchObject({
        response_type: 'code',
        client_id: clientIds[kind],
        aud: sandbox.fhirBaseUrl,
        code_challenge_method: 'S256',
        scope: standaloneScopes.join(' '),
      })

      const tokens = await client.requestAccessToken({
        code: authorization.code,
        codeVerifier: authorization.codeVerifier,
      })
      expect(typeof tokens.access_token).toBe('string')
      expect(tokens.token_type).toBe('Bearer')
      expect(typeof tokens.expires_in).toBe('number')
      expect(String(tokens.scope).split(' ').sort()).toEqual([...standaloneScopes].sort())
      expect(tokens.patient).toBe('patient-42')
      expect(typeof tokens.refresh_token).toBe('string')
      expect(typeof tokens.id_token).toBe('string')
      expect(client.isTokenResponseValid(tokens)).toBe(true)
      expect(await readPatientStatus(sandbox, 'patient-42', tokens.access_token)).toBe(200)

      const tokenRequest = lastRequestTo(sandbox, sandbox.endpoints.token)
      expect(tokenRequest.form).toMatchObject({
        grant_type: 'authorization_code',
        redirect_uri: client.config.redirectUri,
      })
      expect(tokenRequest.form?.code === authorization.code).toBe(true)
      expect(tokenRequest.form?.code_verifier === authorization.codeVerifier).toBe(true)
      if (kind === 'public') expectPublicAuthentication(tokenRequest, clientIds.public)
      if (kind === 'symmetric') {
        expectBasicAuthentication(tokenRequest, clientIds.symmetric, fixture.symmetricSecret)
      }
      if (kind === 'RS384' || kind === 'ES384') {
        await expectAssertionAuthentication(
          tokenRequest,
          keysOf(fixture, kind),
          clientIds[kind],
          sandbox.endpoints.token,
        )
      }
    },
  )
})

describe('authorization requests', () => {
  it('generate a fresh state and PKCE verifier on every call', async () => {
    const client = appClient(fixture, 'public')
    const first = await client.authorizationUrl()
    const second = await client.authorizationUrl()
    expect(first.state).not.toBe(second.state)
    expect(first.codeVerifier).not.toBe(second.codeVerifier)
    expect(first.codeVerifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/)
  })

  it('put every parameter in the query for GET and in params (bare endpoint) for POST', async () => {
    const client = appClient(fixture, 'public')
    const get = await client.authorizationUrl({ method: 'get' })
    expect(get.params).toBeUndefined()
    expect(new URL(get.authUrl).searchParams.get('state')).toBe(get.state)
    const post = await client.authorizationUrl({ method: 'post' })
    expect(post.authUrl).toBe(fixture.sandbox.endpoints.authorization)
    expect(post.params?.state).toBe(post.state)
    expect(post.params?.client_id).toBe(clientIds.public)
  })

  it('send customScopes instead of the configured scopes', async () => {
    const { sandbox } = fixture
    const client = appClient(fixture, 'public')
    const authorization = await authorizeWithClient(client, sandbox, {
      customScopes: ['launch/patient', 'patient/Patient.rs'],
    })
    const tokens = await client.requestAccessToken(codeExchange(authorization))
    expect(String(tokens.scope).split(' ').sort()).toEqual(['launch/patient', 'patient/Patient.rs'])
    expect(tokens.refresh_token).toBeUndefined()
    expect(await readPatientStatus(sandbox, 'patient-42', tokens.access_token)).toBe(200)
  })

  it('keep a redirect URI with its own query exactly, through authorization and code exchange', async () => {
    const { sandbox } = fixture
    const redirectUri = 'https://app.example/callback?tenant=a%20b&x=1'
    await sandbox.addClient({
      client_id: 'public-app-query-redirect',
      token_endpoint_auth_method: 'none',
      redirect_uris: [redirectUri],
    })
    const client = appClient(fixture, 'public', {
      clientId: 'public-app-query-redirect',
      redirectUri,
    })
    const authorization = await authorizeWithClient(client, sandbox)
    expect(authorization.result.redirectUrl?.searchParams.get('tenant')).toBe('a b')
    const tokens = await client.requestAccessToken({
      code: authorization.code,
      codeVerifier: authorization.codeVerifier,
    })
    expect(lastRequestTo(sandbox, sandbox.endpoints.token).form?.redirect_uri).toBe(redirectUri)
    expect(typeof tokens.access_token).toBe('string')
  })

  it('send a client id and secret with reserved characters form-urlencoded in the Basic header', async () => {
    const { sandbox } = fixture
    const clientId = 'symmetric:app+1'
    const clientSecret = 'secret with: colon+plus/slash%percent&amp=1'
    await sandbox.addClient({
      client_id: clientId,
      token_endpoint_auth_method: 'client_secret_basic',
      client_secret: clientSecret,
    })
    const client = appClient(fixture, 'symmetric', { clientId, clientSecret })
    for (const method of ['get', 'post'] as const) {
      const authorization = await authorizeWithClient(client, sandbox, { method })
      const tokens = await client.requestAccessToken({
        code: authorization.code,
        codeVerifier: authorization.codeVerifier,
      })
      expectBasicAuthentication(
        lastRequestTo(sandbox, sandbox.endpoints.token),
        clientId,
        clientSecret,
      )
      const refreshed = await client.refreshToken({ refreshToken: String(tokens.refresh_token) })
      expect(typeof refreshed.access_token).toBe('string')
    }
  })

  it('carry SMART v2 scopes with query constraints intact through GET and POST', async () => {
    const { sandbox } = fixture
    const client = appClient(fixture, 'public')
    const customScopes = [
      'launch/patient',
      'patient/Observation.rs?category=laboratory&status=final',
    ]
    for (const method of ['get', 'post'] as const) {
      const authorization = await authorizeWithClient(client, sandbox, { method, customScopes })
      const tokens = await client.requestAccessToken({
        code: authorization.code,
        codeVerifier: authorization.codeVerifier,
      })
      expect(String(tokens.scope).split(' ').sort()).toEqual([...customScopes].sort())
    }
  })

  it('let a token scoped to the patient in context read no other patient', async () => {
    const { sandbox } = fixture
    const client = appClient(fixture, 'public')
    const tokens = await client.requestAccessToken(
      codeExchange(await authorizeWithClient(client, sandbox)),
    )
    expect(await readPatientStatus(sandbox, 'patient-other', tokens.access_token)).toBe(403)
  })
})

describe('private_key_jwt code exchanges', () => {
  it.each(['RS384', 'ES384'] as const)(
    'sign a fresh assertion (new jti) for every %s token request',
    async (kind) => {
      const { sandbox } = fixture
      const client = appClient(fixture, kind)
      const jtis: unknown[] = []
      for (let round = 0; round < 2; round += 1) {
        await client.requestAccessToken(codeExchange(await authorizeWithClient(client, sandbox)))
        const verified = await expectAssertionAuthentication(
          lastRequestTo(sandbox, sandbox.endpoints.token),
          keysOf(fixture, kind),
          clientIds[kind],
          sandbox.endpoints.token,
        )
        jtis.push(verified.claims.jti)
      }
      expect(new Set(jtis).size).toBe(2)
    },
  )
})
