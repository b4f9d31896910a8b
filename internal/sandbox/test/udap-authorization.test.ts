import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startUdapSandbox, type UdapSandbox } from '../src/index.js'
import { sharedServerKeyPair } from './support/server-key.js'
import {
  appRedirectUri,
  authorizationParameters,
  authorizationUrl,
  type CodeClient,
  pkcePair,
  registerCodeClient,
} from './udap-code-flow-client.js'
import { issueClient, registerClient } from './udap-test-client.js'

let sandbox: UdapSandbox
let client: CodeClient

beforeAll(async () => {
  sandbox = await startUdapSandbox({
    serverKeyPair: await sharedServerKeyPair(),
    grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
  })
  client = await registerCodeClient(sandbox)
})

afterAll(async () => {
  await sandbox.close()
})

/** The raw answer of one authorization request (no redirect followed). */
async function authorizeOnce(
  parameters: Record<string, string>,
  method: 'GET' | 'POST' = 'GET',
): Promise<{
  status: number
  location: URL | undefined
  json: Record<string, unknown> | undefined
}> {
  const response =
    method === 'GET'
      ? await fetch(authorizationUrl(sandbox, parameters), { redirect: 'manual' })
      : await fetch(`${sandbox.origin}/authorize`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(parameters),
        })
  const location = response.headers.get('location')
  const text = await response.text()
  return {
    status: response.status,
    location: location === null ? undefined : new URL(location),
    json: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
  }
}

function parameters(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  return authorizationParameters(client, pkcePair().challenge, overrides)
}

describe('UDAP sandbox authorization endpoint: success', () => {
  for (const method of ['GET', 'POST'] as const) {
    it(`${method}: redirects to the registered redirect URI with a code and the state`, async () => {
      const sent = parameters()
      const answer = await authorizeOnce(sent, method)
      expect(answer.status).toBe(302)
      const location = answer.location as URL
      expect(`${location.origin}${location.pathname}`).toBe(appRedirectUri)
      expect(location.searchParams.get('state')).toBe(sent.state)
      expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect([...location.searchParams.keys()].sort()).toEqual(['code', 'state'])
      expect(sandbox.authorizationRequests.at(-1)).toMatchObject({
        method,
        parameters: sent,
        unrecognizedParameters: [],
        clientId: client.clientId,
        outcome: 'code',
        redirected: true,
      })
    })
  }

  it('uses the only registered redirect URI when the request names none, keeping its query', async () => {
    const withQuery = await registerCodeClient(sandbox, {
      redirectUris: ['https://app.example.test/cb?tenant=7'],
    })
    const sent = authorizationParameters(withQuery, pkcePair().challenge, {
      redirect_uri: undefined,
    })
    const answer = await authorizeOnce(sent)
    expect(answer.location?.searchParams.get('tenant')).toBe('7')
    expect(answer.location?.searchParams.get('code')).not.toBeNull()
  })

  it('ignores and records parameters UDAP does not define (aud, launch)', async () => {
    const sent = parameters({ aud: sandbox.fhirBaseUrl, launch: 'abc', prompt: 'login' })
    const answer = await authorizeOnce(sent)
    expect(answer.location?.searchParams.get('code')).not.toBeNull()
    expect(sandbox.authorizationRequests.at(-1)?.unrecognizedParameters).toEqual([
      'aud',
      'launch',
      'prompt',
    ])
  })

  it('grants the registered subset of the requested scopes and refuses a request with none', async () => {
    const none = await authorizeOnce(parameters({ scope: 'system/Patient.rs launch' }))
    expect(none.location?.searchParams.get('error')).toBe('invalid_scope')
  })

  it('accepts loopback http redirect URIs at registration, never other http ones', async () => {
    const loopback = await registerCodeClient(sandbox, {
      redirectUris: ['http://127.0.0.1:8123/callback', 'http://[::1]/cb', 'http://localhost/cb'],
    })
    expect(loopback.clientId).toMatch(/^udap-/)
    const certificate = await issueClient(sandbox)
    const remote = await registerClient(sandbox, certificate, {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      redirect_uris: ['http://app.example.test/callback'],
      logo_uri: 'https://app.example.test/logo.png',
      scope: 'user/*.rs',
    })
    expect(remote.json).toMatchObject({ error: 'invalid_client_metadata' })
  })
})

describe('UDAP sandbox authorization endpoint: errors redirected with state (RFC 6749 §4.1.2.1)', () => {
  const cases: [string, Record<string, string | undefined>, string, RegExp][] = [
    ['no state', { state: undefined }, 'invalid_request', /state is required/],
    ['no response_type', { response_type: undefined }, 'invalid_request', /response_type/],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type', /code/],
    ['no code_challenge', { code_challenge: undefined }, 'invalid_request', /code_challenge is/],
    ['no code_challenge_method', { code_challenge_method: undefined }, 'invalid_request', /S256/],
    ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request', /S256/],
    ['a short challenge', { code_challenge: 'abc' }, 'invalid_request', /43 base64url/],
    ['no scope', { scope: undefined }, 'invalid_request', /scope is required/],
  ]
  for (const [name, overrides, error, description] of cases) {
    it(`${name} → ${error}`, async () => {
      const sent = parameters(overrides)
      const answer = await authorizeOnce(sent)
      expect(answer.status).toBe(302)
      const query = answer.location?.searchParams
      expect(query?.get('error')).toBe(error)
      expect(query?.get('error_description')).toMatch(description)
      expect(query?.get('state')).toBe(sent.state ?? null)
      expect(query?.get('code')).toBeNull()
      expect(sandbox.authorizationRequests.at(-1)).toMatchObject({
        outcome: 'error',
        redirected: true,
        error,
      })
    })
  }

  it('refuses repeated parameters', async () => {
    const sent = parameters()
    const url = `${authorizationUrl(sandbox, sent)}&scope=openid`
    const response = await fetch(url, { redirect: 'manual' })
    const location = new URL(response.headers.get('location') ?? '')
    expect(location.searchParams.get('error')).toBe('invalid_request')
    expect(location.searchParams.get('error_description')).toMatch(/scope must not be repeated/)
    // Unrecognised parameters are ignored, repeated or not (RFC 6749 §3.1).
    const ignored = await fetch(`${authorizationUrl(sandbox, parameters())}&aud=a&aud=b`, {
      redirect: 'manual',
    })
    expect(new URL(ignored.headers.get('location') ?? '').searchParams.get('code')).not.toBeNull()
  })

  it('answers access_denied when the user refuses', async () => {
    const sent = parameters()
    const result = await sandbox.authorize(
      { url: authorizationUrl(sandbox, sent) },
      { decision: 'deny' },
    )
    expect(result).toMatchObject({ error: 'access_denied', state: sent.state })
    expect(result.code).toBeUndefined()
  })
})

describe('UDAP sandbox authorization endpoint: error pages (no redirect)', () => {
  it('shows an error page for an unknown client, a foreign redirect URI, or a missing one among several', async () => {
    const several = await registerCodeClient(sandbox, {
      redirectUris: [appRedirectUri, 'https://app.example.test/other'],
    })
    const cases: [Record<string, string>, string, RegExp][] = [
      [parameters({ client_id: 'udap-unknown' }), 'invalid_client', /not a registered client/],
      [parameters({ client_id: undefined }), 'invalid_request', /client_id is required/],
      [
        parameters({ redirect_uri: 'https://attacker.example.test/callback' }),
        'invalid_request',
        /not one of the registered/,
      ],
      [
        parameters({ redirect_uri: `${appRedirectUri}/` }),
        'invalid_request',
        /not one of the registered/,
      ],
      [
        authorizationParameters(several, pkcePair().challenge, { redirect_uri: undefined }),
        'invalid_request',
        /more than one/,
      ],
    ]
    for (const [sent, error, description] of cases) {
      const answer = await authorizeOnce(sent)
      expect(answer.status, JSON.stringify(sent)).toBe(400)
      expect(answer.location).toBeUndefined()
      expect(answer.json).toMatchObject({ error })
      expect(answer.json?.error_description).toMatch(description)
      expect(sandbox.authorizationRequests.at(-1)).toMatchObject({ redirected: false, error })
    }
  })

  it('shows an error page to a client_credentials client (it has no redirect URI to answer at)', async () => {
    const certificate = await issueClient(sandbox)
    const registered = await registerClient(sandbox, certificate)
    const answer = await authorizeOnce(
      parameters({ client_id: registered.json.client_id as string }),
    )
    expect(answer).toMatchObject({ status: 400, location: undefined })
    expect(answer.json).toMatchObject({ error: 'invalid_request' })
  })

  it('shows an error page for a cancelled client', async () => {
    const cancelled = await registerCodeClient(sandbox)
    await registerClient(sandbox, cancelled.certificate, {
      iss: cancelled.uri,
      sub: cancelled.uri,
      grant_types: [],
    })
    const answer = await authorizeOnce(authorizationParameters(cancelled, pkcePair().challenge))
    expect(answer).toMatchObject({ status: 400, json: { error: 'invalid_client' } })
  })

  it('refuses a POST that is not a form, and other methods', async () => {
    const response = await fetch(`${sandbox.origin}/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(parameters()),
      redirect: 'manual',
    })
    expect(response.status).toBe(400)
    expect(((await response.json()) as Record<string, unknown>).error).toBe('invalid_request')
    const put = await fetch(`${sandbox.origin}/authorize`, { method: 'PUT' })
    expect(put.status).toBe(405)
    await put.body?.cancel()
  })

  it('has no authorization endpoint without the authorization_code grant', async () => {
    const clientCredentialsOnly = await startUdapSandbox({
      serverKeyPair: await sharedServerKeyPair(),
    })
    try {
      const response = await fetch(`${clientCredentialsOnly.origin}/authorize`)
      expect(response.status).toBe(404)
      await response.body?.cancel()
      expect(clientCredentialsOnly.endpoints.authorization).toBeUndefined()
      expect(clientCredentialsOnly.requestCounts).toMatchObject({ authorization: 0, other: 1 })
    } finally {
      await clientCredentialsOnly.close()
    }
  })
})

describe('UDAP sandbox authorization endpoint: hostile state variants', () => {
  it('wrong-state and missing-state change the state of codes and errors, and nothing else', async () => {
    try {
      sandbox.setHostile('wrong-state')
      const sent = parameters()
      const wrong = await authorizeOnce(sent)
      expect(wrong.location?.searchParams.get('state')).toBe(`${sent.state}-other`)
      expect(wrong.location?.searchParams.get('code')).not.toBeNull()
      const error = await authorizeOnce(parameters({ response_type: 'token', state: 's1' }))
      expect(error.location?.searchParams.get('state')).toBe('s1-other')

      sandbox.setHostile('missing-state')
      const missing = await authorizeOnce(parameters())
      expect(missing.location?.searchParams.has('state')).toBe(false)
      expect(missing.location?.searchParams.get('code')).not.toBeNull()
    } finally {
      sandbox.setHostile(undefined)
    }
    const sent = parameters()
    expect((await authorizeOnce(sent)).location?.searchParams.get('state')).toBe(sent.state)
  })
})
