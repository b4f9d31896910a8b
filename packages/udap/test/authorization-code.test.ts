/**
 * The UDAP authorization-code functions (DESIGN §10): the authorization request (STU2
 * parameters, `state` and PKCE S256 always, no `aud` or `launch`, `nonce` and Tiered OAuth's
 * `idp` when given), and the code and refresh grants authenticated by a UDAP authentication
 * token with no `extensions`, `udap=1`, and no `Authorization` header or secret.
 */
import { ConfigurationError, type JwsSigner, TokenError } from '@fhir-auth/core'
import { webCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { type ExpectedRequest, fakeFetch, jsonResponse } from '@fhir-auth/test-utils/fake-fetch'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  buildUdapAuthorizationRequest,
  exchangeUdapAuthorizationCode,
  prepareUdapSigner,
  refreshUdapAccessToken,
  type UdapAuthorizationRequestOptions,
} from '../src/index.js'
import { clientUri, createTestPki, tokenEndpoint } from './support/pki.js'
import { verifyWithX5c } from './support/verify.js'

const authorizationEndpoint = 'https://fhir.example.org/oauth/authorize?tenant=7'
const redirectUri = 'https://app.example.org/callback'
const idp = 'https://idp.example.org/fhir'

const request: UdapAuthorizationRequestOptions = {
  authorizationEndpoint,
  clientId: 'client-123',
  redirectUri,
  scopes: ['openid', 'user/*.rs'],
}

let signer: JwsSigner

/** RFC 7636 §4.2 S256, computed here with WebCrypto and btoa (these tests run in every runtime). */
async function s256(verifier: string): Promise<string> {
  const digest = new Uint8Array(
    await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)),
  )
  return btoa(String.fromCharCode(...digest))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

beforeAll(async () => {
  const pki = await createTestPki()
  signer = (
    await prepareUdapSigner({
      crypto: webCryptoBackend,
      privateKey: pki.clientEc.privateKeyPem,
      certificateChain: pki.clientEc.chainDer,
      clientUri,
      advertisedAlgorithms: ['ES256'],
      now: pki.now,
    })
  ).signer
})

describe('buildUdapAuthorizationRequest', () => {
  it('GET: the STU2 parameters in order, the endpoint’s own query kept, no aud or launch', async () => {
    const { authUrl, state, codeVerifier } = await buildUdapAuthorizationRequest(request)
    const url = new URL(authUrl)
    expect(`${url.origin}${url.pathname}`).toBe('https://fhir.example.org/oauth/authorize')
    expect([...url.searchParams.keys()]).toEqual([
      'tenant',
      'response_type',
      'client_id',
      'redirect_uri',
      'scope',
      'state',
      'code_challenge',
      'code_challenge_method',
    ])
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'client-123',
      redirect_uri: redirectUri,
      scope: 'openid user/*.rs',
      state,
      code_challenge_method: 'S256',
    })
    expect(url.searchParams.get('code_challenge')).toBe(await s256(codeVerifier))
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('POST: the bare endpoint and the parameters as a form, nonce when given', async () => {
    const result = await buildUdapAuthorizationRequest({ ...request, method: 'post', nonce: 'n-1' })
    expect(result.authUrl).toBe(authorizationEndpoint)
    expect(result.params).toMatchObject({ nonce: 'n-1', state: result.state })
    expect(result.params).not.toHaveProperty('aud')
  })

  it('fresh state and verifier on every call', async () => {
    const [first, second] = await Promise.all([
      buildUdapAuthorizationRequest(request),
      buildUdapAuthorizationRequest(request),
    ])
    expect(first.state).not.toBe(second.state)
    expect(first.codeVerifier).not.toBe(second.codeVerifier)
  })

  describe('Tiered OAuth: idp', () => {
    it('sends idp and adds udap to the scopes when absent', async () => {
      const { params } = await buildUdapAuthorizationRequest({ ...request, idp, method: 'post' })
      expect(params).toMatchObject({ idp, scope: 'openid user/*.rs udap' })
      expect(Object.keys(params ?? {}).indexOf('idp')).toBe(
        Object.keys(params ?? {}).indexOf('scope') + 1,
      )
    })

    it('keeps udap where the caller put it', async () => {
      const { params } = await buildUdapAuthorizationRequest({
        ...request,
        scopes: ['udap', 'openid'],
        idp,
        method: 'post',
      })
      expect(params?.scope).toBe('udap openid')
    })

    it('adds nothing without idp', async () => {
      const { params } = await buildUdapAuthorizationRequest({ ...request, method: 'post' })
      expect(params).not.toHaveProperty('idp')
      expect(params?.scope).toBe('openid user/*.rs')
    })

    it('an idp must be HTTPS (loopback HTTP only with allowInsecureLocalhost)', async () => {
      for (const bad of ['http://idp.example.org/fhir', 'idp.example.org', '']) {
        const error = await failureOf(
          buildUdapAuthorizationRequest({ ...request, idp: bad }),
          ConfigurationError,
        )
        expect(error.invalidAttribute).toBe('idp')
      }
      const loopback = 'http://127.0.0.1:9000/fhir'
      await failureOf(
        buildUdapAuthorizationRequest({ ...request, idp: loopback }),
        ConfigurationError,
      )
      const { params } = await buildUdapAuthorizationRequest({
        ...request,
        idp: loopback,
        allowInsecureLocalhost: true,
        method: 'post',
      })
      expect(params?.idp).toBe(loopback)
    })
  })

  it('checks in order: method, endpoint, clientId, redirectUri, idp, scopes', async () => {
    const attribute = async (options: Partial<UdapAuthorizationRequestOptions>) =>
      (
        await failureOf(
          buildUdapAuthorizationRequest({ ...request, ...options } as never),
          ConfigurationError,
        )
      ).invalidAttribute
    const bad = {
      method: 'put',
      authorizationEndpoint: 'not a url',
      clientId: ' ',
      redirectUri: '',
      idp: 'http://idp.example.org',
      scopes: [' '],
    }
    expect(await attribute(bad as never)).toBe('method')
    const { method: _m, ...noMethod } = bad
    expect(await attribute(noMethod as never)).toBe('authorizationEndpoint')
    const { authorizationEndpoint: _e, ...noEndpoint } = noMethod
    expect(await attribute(noEndpoint as never)).toBe('clientId')
    const { clientId: _c, ...noClient } = noEndpoint
    expect(await attribute(noClient as never)).toBe('redirectUri')
    const { redirectUri: _r, ...noRedirect } = noClient
    expect(await attribute(noRedirect as never)).toBe('idp')
    const { idp: _i, ...noIdp } = noRedirect
    expect(await attribute(noIdp as never)).toBe('scopes')
  })
})

describe('the code and refresh grants', () => {
  /** One request to the token endpoint answered by `respond`. */
  function tokenFetch(respond: ExpectedRequest['respond']) {
    return fakeFetch({
      method: 'POST',
      url: tokenEndpoint,
      headers: { authorization: null },
      respond,
    })
  }

  async function expectAuthenticationToken(form: URLSearchParams): Promise<void> {
    expect(form.get('udap')).toBe('1')
    expect(form.get('client_assertion_type')).toBe(
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    )
    const { header, claims } = await verifyWithX5c(form.get('client_assertion') ?? '')
    expect(Object.keys(header).sort()).toEqual(['alg', 'x5c'])
    expect(header.alg).toBe('ES256')
    expect(claims).toMatchObject({ iss: 'client-123', sub: 'client-123', aud: tokenEndpoint })
    expect(claims).not.toHaveProperty('extensions')
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(300)
    expect(typeof claims.jti).toBe('string')
  }

  it('exchanges a code: the STU2 form, no secret, no Authorization header', async () => {
    const body = { access_token: 'a-1', token_type: 'Bearer', refresh_token: 'r-1' }
    const fetch = tokenFetch(() => jsonResponse(body))
    const response = await exchangeUdapAuthorizationCode({
      tokenEndpoint,
      issuer: 'client-123',
      signer,
      code: 'code-1',
      codeVerifier: 'verifier-1',
      redirectUri,
      fetch,
    })
    expect(response).toEqual(body)
    const form = new URLSearchParams(fetch.calls[0]?.bodyText)
    expect([...form.keys()]).toEqual([
      'grant_type',
      'code',
      'redirect_uri',
      'code_verifier',
      'client_assertion_type',
      'client_assertion',
      'udap',
    ])
    expect(Object.fromEntries(form)).toMatchObject({
      grant_type: 'authorization_code',
      code: 'code-1',
      redirect_uri: redirectUri,
      code_verifier: 'verifier-1',
    })
    await expectAuthenticationToken(form)
  })

  it('refreshes with a fresh authentication token; scope only when given', async () => {
    const jtis: unknown[] = []
    for (const scopes of [undefined, ['user/Patient.rs']]) {
      const fetch = tokenFetch(() => jsonResponse({ access_token: 'a-2', refresh_token: 'r-2' }))
      await refreshUdapAccessToken({
        tokenEndpoint,
        issuer: 'client-123',
        signer,
        refreshToken: 'r-1',
        scopes,
        fetch,
      })
      const form = new URLSearchParams(fetch.calls[0]?.bodyText)
      expect(form.get('grant_type')).toBe('refresh_token')
      expect(form.get('refresh_token')).toBe('r-1')
      expect(form.get('scope')).toBe(scopes === undefined ? null : 'user/Patient.rs')
      await expectAuthenticationToken(form)
      jtis.push((await verifyWithX5c(form.get('client_assertion') ?? '')).claims.jti)
    }
    expect(new Set(jtis).size).toBe(2)
  })

  it('a refresh answered without a refresh token keeps the one sent', async () => {
    const fetch = tokenFetch(() => jsonResponse({ access_token: 'a-3' }))
    const response = await refreshUdapAccessToken({
      tokenEndpoint,
      issuer: 'client-123',
      signer,
      refreshToken: 'r-1',
      fetch,
    })
    expect(response.refresh_token).toBe('r-1')
  })

  it('a refusal is a TokenError whose message holds no code, verifier or assertion', async () => {
    let assertion = ''
    const fetch = tokenFetch((captured) => {
      assertion = new URLSearchParams(captured.bodyText).get('client_assertion') ?? ''
      return jsonResponse(
        {
          error: 'invalid_grant',
          error_description: `bad code code-secret-1 verifier verifier-secret-1 ${assertion}`,
        },
        400,
      )
    })
    const error = await failureOf(
      exchangeUdapAuthorizationCode({
        tokenEndpoint,
        issuer: 'client-123',
        signer,
        code: 'code-secret-1',
        codeVerifier: 'verifier-secret-1',
        redirectUri,
        fetch,
      }),
      TokenError,
    )
    expect(error.error).toBe('invalid_grant')
    for (const secret of ['code-secret-1', 'verifier-secret-1', assertion]) {
      expect(error.message).not.toContain(secret)
      expect(error.errorDescription ?? '').not.toContain(secret)
    }
  })

  it('refuses bad arguments before any request', async () => {
    const fetch = fakeFetch()
    const base = { tokenEndpoint, issuer: 'client-123', signer, redirectUri, fetch }
    const attribute = async (promise: Promise<unknown>) =>
      (await failureOf(promise, ConfigurationError)).invalidAttribute
    expect(
      await attribute(exchangeUdapAuthorizationCode({ ...base, code: ' ', codeVerifier: 'v' })),
    ).toBe('code')
    expect(
      await attribute(exchangeUdapAuthorizationCode({ ...base, code: 'c', codeVerifier: '' })),
    ).toBe('codeVerifier')
    expect(
      await attribute(
        exchangeUdapAuthorizationCode({
          ...base,
          code: 'c',
          codeVerifier: 'v',
          tokenEndpoint: 'http://fhir.example.org/token',
        }),
      ),
    ).toBe('tokenEndpoint')
    expect(await attribute(refreshUdapAccessToken({ ...base, refreshToken: '' }))).toBe(
      'refreshToken',
    )
    expect(
      await attribute(refreshUdapAccessToken({ ...base, refreshToken: 'r', issuer: ' ' })),
    ).toBe('issuer')
  })
})
