/**
 * Refresh with `offline_access` end to end: the original scopes (no `scope` sent) or a reduced
 * list (`scope` sent, narrower answer), refresh-token rotation (the old token is refused
 * afterwards), and client authentication on refresh for confidential clients.
 */
import { type Client, TokenError, type TokenResponse } from '@fhir-auth/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  expectAssertionAuthentication,
  expectBasicAuthentication,
  expectPublicAuthentication,
} from './support/assertions.js'
import {
  authorizeWithClient,
  lastRequestTo,
  readPatientStatus,
  rejectionOf,
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
  fixture = await startSmartFixture()
})

afterAll(async () => {
  await fixture?.sandbox.close()
})

/** Runs a standalone launch with `offline_access` and returns the first token response. */
async function initialTokens(client: Client): Promise<TokenResponse> {
  const authorization = await authorizeWithClient(client, fixture.sandbox)
  const tokens = await client.requestAccessToken({
    code: authorization.code,
    codeVerifier: authorization.codeVerifier,
  })
  expect(typeof tokens.refresh_token).toBe('string')
  return tokens
}

function refreshTokenOf(tokens: TokenResponse): string {
  const refreshToken = tokens.refresh_token
  if (typeof refreshToken !== 'string') throw new Error('the token response has no refresh_token')
  return refreshToken
}

describe.each(appKinds)('refresh by a %s client', (kind: AppKind) => {
  it('requests the original scopes without sending scope, and authenticates as its type', async () => {
    const { sandbox } = fixture
    const client = appClient(fixture, kind)
    const first = await initialTokens(client)
    const refreshed = await client.refreshToken({ refreshToken: refreshTokenOf(first) })

    const request = lastRequestTo(sandbox, sandbox.endpoints.token)
    expect(request.form?.grant_type).toBe('refresh_token')
    expect(request.form?.refresh_token === first.refresh_token).toBe(true)
    expect(request.form && 'scope' in request.form).toBe(false)
    if (kind === 'public') expectPublicAuthentication(request, clientIds.public)
    if (kind === 'symmetric') {
      expectBasicAuthentication(request, clientIds.symmetric, fixture.symmetricSecret)
    }
    if (kind === 'RS384' || kind === 'ES384') {
      await expectAssertionAuthentication(
        request,
        keysOf(fixture, kind),
        clientIds[kind],
        sandbox.endpoints.token,
      )
    }

    expect(refreshed.token_type).toBe('Bearer')
    expect(String(refreshed.scope).split(' ').sort()).toEqual([...standaloneScopes].sort())
    expect(typeof refreshed.refresh_token).toBe('string')
    expect(refreshed.refresh_token === first.refresh_token).toBe(false)
    expect(refreshed.access_token === first.access_token).toBe(false)
    expect(refreshed.patient).toBe(first.patient)
    expect(client.isTokenResponseValid(refreshed)).toBe(true)
    expect(
      await readPatientStatus(sandbox, String(refreshed.patient), refreshed.access_token),
    ).toBe(200)
  })
})

describe('refresh', () => {
  it('sends a reduced scope list and gets a narrower grant', async () => {
    const { sandbox } = fixture
    const client = appClient(fixture, 'symmetric')
    const first = await initialTokens(client)
    const reduced = ['launch/patient', 'patient/*.rs', 'offline_access']
    const refreshed = await client.refreshToken({
      refreshToken: refreshTokenOf(first),
      scopes: reduced,
    })

    const request = lastRequestTo(sandbox, sandbox.endpoints.token)
    expect(request.form?.scope).toBe(reduced.join(' '))
    expect(String(refreshed.scope).split(' ').sort()).toEqual([...reduced].sort())
    expect(String(refreshed.scope).split(' ')).not.toContain('openid')
    expect(typeof refreshed.refresh_token).toBe('string')
    expect(client.isTokenResponseValid(refreshed)).toBe(true)
  })

  it('treats a scope list of blank entries as no scopes (scope not sent)', async () => {
    const { sandbox } = fixture
    const client = appClient(fixture, 'public')
    const first = await initialTokens(client)
    const refreshed = await client.refreshToken({
      refreshToken: refreshTokenOf(first),
      scopes: [' '],
    })
    const request = lastRequestTo(sandbox, sandbox.endpoints.token)
    expect(request.form && 'scope' in request.form).toBe(false)
    expect(String(refreshed.scope).split(' ').sort()).toEqual([...standaloneScopes].sort())
  })

  it('is refused by the server when the scope list widens the grant', async () => {
    const client = appClient(fixture, 'public')
    const first = await initialTokens(client)
    const error = await rejectionOf(
      client.refreshToken({
        refreshToken: refreshTokenOf(first),
        scopes: [...standaloneScopes, 'user/*.rs'],
      }),
    )
    expect(error).toBeInstanceOf(TokenError)
    expect(error).toMatchObject({ error: 'invalid_scope', status: 400 })
  })

  it('rotates the refresh token: the old one is refused afterwards with invalid_grant', async () => {
    const client = appClient(fixture, 'ES384')
    const first = await initialTokens(client)
    const second = await client.refreshToken({ refreshToken: refreshTokenOf(first) })
    const third = await client.refreshToken({ refreshToken: refreshTokenOf(second) })
    expect(new Set([first.refresh_token, second.refresh_token, third.refresh_token]).size).toBe(3)

    const error = await rejectionOf(client.refreshToken({ refreshToken: refreshTokenOf(first) }))
    expect(error).toBeInstanceOf(TokenError)
    expect(error).toMatchObject({ code: 'ERR_TOKEN', error: 'invalid_grant', status: 400 })
  })

  it('requires confidential clients to authenticate: a wrong per-call secret is invalid_client', async () => {
    const client = appClient(fixture, 'symmetric')
    const first = await initialTokens(client)
    const error = await rejectionOf(
      client.refreshToken({
        refreshToken: refreshTokenOf(first),
        clientSecret: 'not-the-registered-secret',
      }),
    )
    expect(error).toBeInstanceOf(TokenError)
    expect(error).toMatchObject({ error: 'invalid_client' })
    // The refresh token was not spent by the refused request.
    const refreshed = await client.refreshToken({ refreshToken: refreshTokenOf(first) })
    expect(typeof refreshed.access_token).toBe('string')
  })

  it('gives no refresh token without offline_access', async () => {
    const client = appClient(fixture, 'public', {
      scopes: ['launch/patient', 'patient/*.rs'],
    })
    const authorization = await authorizeWithClient(client, fixture.sandbox)
    const tokens = await client.requestAccessToken({
      code: authorization.code,
      codeVerifier: authorization.codeVerifier,
    })
    expect(tokens.refresh_token).toBeUndefined()
  })
})
