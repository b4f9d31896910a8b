/**
 * Rules of DESIGN §8 and §9 at the edges an outside review found uncovered: the ID token of a
 * refresh is validated when `openid` was asked for even if the granted `scope` leaves it out;
 * a caller-kept launch with a `nonce` validates its ID token whatever the configured scopes;
 * a SMART configuration without `issuer` checks RFC 9207 `iss` against the configured issuer;
 * a token set made by a client reads that client's clock; a 401 to a request that cannot be sent
 * again still makes `backendTokens` forget the refused token.
 */
import { AuthorizationError, Client, IdTokenError, TokenSet } from '@fhir-auth/client'
import { describe, expect, it } from 'vitest'
import {
  baseUrl,
  capturingLogger,
  discoveryUrl,
  ecKeyPem,
  fakeServer,
  json,
  smartConfiguration,
} from './support.js'

const tokenUrl = smartConfiguration.token_endpoint
const openIdConfiguration = {
  ...smartConfiguration,
  jwks_uri: 'https://ehr.example.org/auth/jwks',
  id_token_signing_alg_values_supported: ['RS256'],
}
const appConfig = {
  baseUrl,
  clientId: 'app',
  redirectUri: 'https://app.example.org/cb',
  scopes: ['launch/patient', 'patient/*.rs'],
}
const fixedNow = new Date('2020-01-01T00:00:00Z')

describe('ID tokens the grant asked for', () => {
  it('a refresh validates the new ID token when openid was requested but not granted', async () => {
    const server = fakeServer({
      [discoveryUrl]: () => json(openIdConfiguration),
      [tokenUrl]: () =>
        json({ access_token: 'at-2', token_type: 'Bearer', expires_in: 300, id_token: 'garbage' }),
    })
    const log = capturingLogger()
    const client = new Client(appConfig, { fetch: server.fetch, logger: log.logger })
    const granted = TokenSet.fromResponse(
      { access_token: 'at-1', refresh_token: 'rt-1', scope: 'patient/*.rs', expires_in: 300 },
      { obtainedAt: new Date(), requestedScopes: ['openid', 'patient/*.rs'] },
    )
    expect(granted.scopes).toEqual(['patient/*.rs'])
    expect(granted.requestedScopes).toEqual(['openid', 'patient/*.rs'])
    const session = client.resumeSession(granted)
    // Validated, and refused: a refreshed ID token that fails (for any reason but sub) is dropped
    // with a warning naming the reason, and never ends the session (issue 24, finding 10).
    const refreshed = await session.refresh()
    expect(refreshed.accessToken).toBe('at-2')
    expect(refreshed.idToken).toBeUndefined()
    expect(refreshed.idTokenClaims).toBeUndefined()
    expect(log.lines.filter((line) => line.level === 'warn')).toEqual([
      expect.objectContaining({ fields: expect.objectContaining({ reason: 'malformed' }) }),
    ])
  })

  it('a caller-kept launch with a nonce validates the ID token though the configured scopes lack openid', async () => {
    const server = fakeServer({
      [discoveryUrl]: () => json(openIdConfiguration),
      [tokenUrl]: () => json({ access_token: 'at-1', token_type: 'Bearer', id_token: 'garbage' }),
    })
    const client = new Client(appConfig, { fetch: server.fetch })
    const completion = client.completeAuthorization(`${appConfig.redirectUri}?code=c1&state=s1`, {
      state: 's1',
      codeVerifier: 'v'.repeat(43),
      nonce: 'n1',
    })
    await expect(completion).rejects.toSatisfy(
      (error) => IdTokenError.isInstance(error) && error.reason === 'malformed',
    )
  })
})

describe('RFC 9207 iss when the SMART configuration names no issuer', () => {
  const { issuer: _issuer, ...withoutIssuer } = { ...smartConfiguration, issuer: undefined }
  const server = () =>
    fakeServer({
      [discoveryUrl]: () => json(withoutIssuer),
      [tokenUrl]: () => json({ access_token: 'at-1', token_type: 'Bearer' }),
    })
  const kept = { state: 's1', codeVerifier: 'v'.repeat(43) }

  it('accepts the configured issuer', async () => {
    const routes = server()
    const client = new Client(appConfig, { fetch: routes.fetch })
    const callback = `${appConfig.redirectUri}?code=c1&state=s1&iss=${encodeURIComponent(baseUrl)}`
    const session = await client.completeAuthorization(callback, kept)
    expect(session.tokens.accessToken).toBe('at-1')
  })

  it('refuses another one before the code is exchanged', async () => {
    const routes = server()
    const client = new Client(appConfig, { fetch: routes.fetch })
    const callback = `${appConfig.redirectUri}?code=c1&state=s1&iss=https%3A%2F%2Fevil.example`
    await expect(client.completeAuthorization(callback, kept)).rejects.toSatisfy(
      (error) => AuthorizationError.isInstance(error) && error.error === 'iss_mismatch',
    )
    expect(routes.count(tokenUrl)).toBe(0)
  })
})

describe("a client's token sets read its clock", () => {
  it('isExpired() without now follows the injected clock, after a refresh and a resume too', async () => {
    const server = fakeServer({
      [discoveryUrl]: () => json(smartConfiguration),
      [tokenUrl]: () => json({ access_token: 'at-2', token_type: 'Bearer', expires_in: 300 }),
    })
    let now = fixedNow
    const client = new Client(appConfig, { fetch: server.fetch, now: () => now })
    const session = client.resumeSession({
      access_token: 'at-1',
      refresh_token: 'rt-1',
      expires_in: 300,
    })
    // By the system clock (years later) this token expired long ago; by the client's it has not.
    expect(session.tokens.isExpired()).toBe(false)
    now = new Date(fixedNow.getTime() + 301_000)
    expect(session.tokens.isExpired()).toBe(true)
    await session.refresh()
    expect(session.tokens.isExpired()).toBe(false)
    const resumed = client.resumeSession(session.tokens.serialize())
    expect(resumed.tokens.isExpired()).toBe(false)
    expect(resumed.tokens.isExpired({ now: new Date(now.getTime() + 301_000) })).toBe(true)
  })
})

describe('a session handed over as a token provider', () => {
  it('accessToken and refresh work detached from the session, like fetch', async () => {
    const server = fakeServer({
      [discoveryUrl]: () => json(smartConfiguration),
      [tokenUrl]: () => json({ access_token: 'at-2', token_type: 'Bearer', expires_in: 300 }),
    })
    const client = new Client(appConfig, { fetch: server.fetch, now: () => fixedNow })
    const { accessToken, refresh } = client.resumeSession({
      access_token: 'at-1',
      refresh_token: 'rt-1',
      expires_in: 300,
    })
    expect(await accessToken()).toBe('at-1')
    expect((await refresh()).accessToken).toBe('at-2')
    expect(await accessToken()).toBe('at-2')
  })
})

describe('backendTokens().fetch', () => {
  it('a 401 to a body that cannot be sent again is handed over, and the refused token forgotten', async () => {
    let issued = 0
    const server = fakeServer({
      [discoveryUrl]: () => json(smartConfiguration),
      [tokenUrl]: () => {
        issued += 1
        return json({ access_token: `at-${issued}`, token_type: 'Bearer', expires_in: 3600 })
      },
      [`${baseUrl}/Patient`]: () => new Response('', { status: 401 }),
    })
    const client = new Client(
      { baseUrl, clientId: 'service', privateKey: ecKeyPem(), kid: 'k1' },
      { clientType: 'confidential_asymmetric', fetch: server.fetch },
    )
    const tokens = client.backendTokens({ scopes: ['system/Patient.rs'] })
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{}'))
        controller.close()
      },
    })
    const response = await tokens.fetch('Patient', {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit)
    expect(response.status).toBe(401)
    expect(server.count(`${baseUrl}/Patient`)).toBe(1)
    expect(await tokens.accessToken()).toBe('at-2')
    expect(issued).toBe(2)
  })
})
