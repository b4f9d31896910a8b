/**
 * The UDAP authorization code through `Client` when something is wrong, or unusual (DESIGN
 * §10), against the sandbox:
 *
 * - a hostile server whose unsigned `authorization_endpoint` differs from the signed one: the
 *   signed one is used; an authorization response with another state, or none: no code
 *   exchange; an ID token with another `nonce` or `aud`: `IdTokenError` with that reason;
 * - a launch begun by one client and finished by another (another process): the trust inputs
 *   are passed again, and without them nothing is sent;
 * - the `flow` option's refusals, registration rules checked before any request, and a
 *   registration modified through the library.
 */
import {
  AuthorizationError,
  Client,
  ConfigurationError,
  IdTokenError,
  memoryStore,
  silentLogger,
} from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import { failureOf, syncFailureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  appRedirectUri,
  type CodeClient,
  callbackOf,
  codeRegistration,
  registeredCodeClient,
} from './support/code-flow-context.js'
import { createRecordingFetch } from './support/recording-fetch.js'
import { countsOf } from './support/sandbox-requests.js'
import {
  b2bContext,
  createUdapClient,
  identityOf,
  type TrustInputs,
  trustInputsOf,
} from './support/udap-test-context.js'

let sandbox: UdapSandbox
let trust: TrustInputs
let app: CodeClient

const scopes = ['openid', 'fhirUser', 'user/*.rs']

beforeAll(async () => {
  sandbox = await startUdapSandbox({ grantTypes: ['authorization_code', 'refresh_token'] })
  trust = trustInputsOf(sandbox.trust)
  app = await registeredCodeClient(sandbox, {
    flow: 'b2c',
    keyType: 'p256',
    scopes,
    trust,
    name: 'checks-app',
  })
})
afterAll(() => sandbox.close())
afterEach(() => sandbox.setHostile(undefined))

/**
 * A client of the same app that has validated nothing and registered nothing (a process that
 * just started): its configuration names the registered `client_id`.
 */
function freshProcessClient(): Client {
  return new Client(app.client.config.with({ clientId: app.registration.client_id }), {
    protocol: 'udap',
    flow: 'b2c',
    logger: silentLogger,
  })
}

describe('a hostile server', () => {
  it('the signed authorization_endpoint is used when the unsigned one differs', async () => {
    sandbox.setHostile('unsigned-authorization-endpoint')
    // A new client validates the metadata afresh (the registered one keeps what it validated).
    const client = freshProcessClient()
    const metadata = await client.serverMetadata(trust)
    expect(metadata.raw.authorization_endpoint).toBe(`${sandbox.publicOrigin}/unsigned-authorize`)
    expect(metadata.authorizationEndpoint).toBe(sandbox.endpoints.authorization)
    const before = countsOf(sandbox)
    const { authUrl, state, codeVerifier, nonce } = await client.authorizationUrl()
    expect(new URL(authUrl).pathname).toBe('/authorize')
    const session = await client.completeAuthorization(await callbackOf(sandbox, { authUrl }), {
      state,
      codeVerifier,
      nonce,
    })
    expect(session.tokens.idTokenClaims?.nonce).toBe(nonce)
    expect(countsOf(sandbox).other).toBe(before.other)
  })

  it.each(['wrong-state', 'missing-state'] as const)(
    '%s: state_mismatch, and the code is never exchanged',
    async (variant) => {
      sandbox.setHostile(variant)
      const store = memoryStore()
      const begun = await app.client.beginAuthorization({ store })
      const tokensBefore = sandbox.authenticationTokens.length
      const error = await failureOf(
        app.client.completeAuthorization(await callbackOf(sandbox, begun), { store }),
        AuthorizationError,
      )
      expect(error.error).toBe('state_mismatch')
      expect(sandbox.authenticationTokens.length).toBe(tokensBefore)
    },
  )

  it.each([
    { variant: 'id-token-wrong-nonce', reason: 'nonce' },
    { variant: 'id-token-wrong-aud', reason: 'aud' },
  ] as const)('$variant: IdTokenError $reason', async ({ variant, reason }) => {
    sandbox.setHostile(variant)
    const store = memoryStore()
    const begun = await app.client.beginAuthorization({ store })
    const error = await failureOf(
      app.client.completeAuthorization(await callbackOf(sandbox, begun), { store }),
      IdTokenError,
    )
    expect(error.reason).toBe(reason)
  })

  it('a replayed callback fails on state, with no second exchange', async () => {
    const store = memoryStore()
    const callback = await callbackOf(sandbox, await app.client.beginAuthorization({ store }))
    await app.client.completeAuthorization(callback, { store })
    const tokensBefore = sandbox.authenticationTokens.length
    const error = await failureOf(
      app.client.completeAuthorization(callback, { store }),
      AuthorizationError,
    )
    expect(error.error).toBe('state_mismatch')
    expect(sandbox.authenticationTokens.length).toBe(tokensBefore)
  })
})

describe('a launch finished in another process', () => {
  it('passes the trust inputs again; the session refreshes with them', async () => {
    const store = memoryStore()
    const begun = await app.client.beginAuthorization({ store })
    const callback = await callbackOf(sandbox, begun)
    const other = freshProcessClient()
    const session = await other.completeAuthorization(callback, { store, ...trust })
    expect(session.tokens.idTokenClaims?.aud).toBe(app.registration.client_id)
    const third = freshProcessClient()
    const resumed = third.resumeSession(session.tokens.serialize(), { ...trust })
    const refreshed = await resumed.refresh()
    expect(refreshed.refreshToken).not.toBe(session.tokens.refreshToken)
  })

  it('without trust inputs nothing is sent, and the launch is spent', async () => {
    const store = memoryStore()
    const begun = await app.client.beginAuthorization({ store })
    const callback = await callbackOf(sandbox, begun)
    const before = countsOf(sandbox)
    const error = await failureOf(
      freshProcessClient().completeAuthorization(callback, { store }),
      ConfigurationError,
    )
    expect(error.invalidAttribute).toBe('trustedAnchors')
    expect(countsOf(sandbox)).toEqual(before)
    // The launch was taken out of the store before the exchange was attempted: single use.
    const replay = await failureOf(
      freshProcessClient().completeAuthorization(callback, { store, ...trust }),
      AuthorizationError,
    )
    expect(replay.error).toBe('state_mismatch')
  })
})

describe('the flow option', () => {
  it('client.flow is b2b by default, the given flow, and null for SMART', () => {
    expect(createUdapClient(sandbox, {}).flow).toBe('b2b')
    expect(app.client.flow).toBe('b2c')
    expect(
      new Client({ baseUrl: sandbox.fhirBaseUrl, allowInsecureLocalhost: true }).flow,
    ).toBeNull()
  })

  it('refuses an unknown flow, and any flow on SMART', () => {
    const unknown = syncFailureOf(
      () => createUdapClient(sandbox, {}, { flow: 'b2x' as never }),
      ConfigurationError,
    )
    expect(unknown).toMatchObject({
      invalidAttribute: 'flow',
      invalidValue: 'b2x',
      validValues: ['b2b', 'b2c', 'tiered_oauth'],
    })
    const smart = syncFailureOf(
      () =>
        new Client(
          { baseUrl: sandbox.fhirBaseUrl, allowInsecureLocalhost: true },
          { protocol: 'smart', flow: 'b2b' },
        ),
      ConfigurationError,
    )
    expect(smart.invalidAttribute).toBe('flow')
  })

  it('client credentials under b2c are refused before any request', async () => {
    const before = countsOf(sandbox)
    const error = await failureOf(
      app.client.requestBackendToken({ scopes: ['system/*.rs'], b2b: b2bContext }),
      ConfigurationError,
    )
    expect(error).toMatchObject({ invalidAttribute: 'flow', validValues: ['b2b'] })
    const handle = syncFailureOf(() => app.client.backendTokens(), ConfigurationError)
    expect(handle.invalidAttribute).toBe('flow')
    expect(countsOf(sandbox)).toEqual(before)
  })

  it('idp is a tiered_oauth parameter, launch a SMART one', async () => {
    expect(
      (await failureOf(app.client.authorizationUrl({ idp: sandbox.issuer }), ConfigurationError))
        .invalidAttribute,
    ).toBe('idp')
    expect(
      (await failureOf(app.client.authorizationUrl({ launch: 'xyz' }), ConfigurationError))
        .invalidAttribute,
    ).toBe('launch')
  })

  it('a client secret is refused, never sent', async () => {
    const before = countsOf(sandbox)
    const error = await failureOf(
      app.client.requestAccessToken({ code: 'c', codeVerifier: 'v', clientSecret: 's' }),
      ConfigurationError,
    )
    expect(error.invalidAttribute).toBe('clientSecret')
    expect(countsOf(sandbox)).toEqual(before)
  })
})

describe('registration for the authorization code', () => {
  it.each([
    {
      name: 'an http logo_uri, even on loopback',
      change: { logo_uri: 'http://127.0.0.1/logo.png' },
      attribute: 'logo_uri',
    },
    {
      name: 'response_types other than ["code"]',
      change: { response_types: ['token'] },
      attribute: 'response_types',
    },
    {
      name: 'an http redirect URI off loopback',
      change: { redirect_uris: ['http://app.example.test/cb'] },
      attribute: 'redirect_uris',
    },
  ])('refuses $name before any request', async ({ change, attribute }) => {
    const before = countsOf(sandbox)
    const error = await failureOf(
      app.client.registerClient(
        { ...codeRegistration(scopes.join(' ')), ...change },
        {
          clientUri: app.clientUri,
          ...trust,
        },
      ),
      ConfigurationError,
    )
    expect(error.invalidAttribute).toBe(attribute)
    expect(countsOf(sandbox)).toEqual(before)
  })

  it('accepts response_types ["code"] and a loopback http redirect URI under the policy', async () => {
    const certificate = await sandbox.certificateAuthority.issue({
      commonName: 'native app',
      sanUris: ['https://app.example.test/native'],
      keyType: 'p256',
    })
    const client = createUdapClient(sandbox, identityOf(certificate), { flow: 'b2c' })
    const registration = await client.registerClient(
      {
        ...codeRegistration('openid user/*.rs'),
        response_types: ['code'],
        redirect_uris: ['http://127.0.0.1:8765/callback'],
      },
      { clientUri: 'https://app.example.test/native', ...trust },
    )
    expect(registration.redirect_uris).toEqual(['http://127.0.0.1:8765/callback'])
  })

  it('a modification keeps the client_id and replaces the metadata', async () => {
    const certificate = await sandbox.certificateAuthority.issue({
      commonName: 'modified app',
      sanUris: ['https://app.example.test/modified'],
      keyType: 'p384',
    })
    const recording = createRecordingFetch()
    const client = createUdapClient(
      sandbox,
      identityOf(certificate),
      { flow: 'b2c', fetch: recording.fetch },
      { redirectUri: appRedirectUri },
    )
    const options = { clientUri: 'https://app.example.test/modified', ...trust }
    const first = await client.registerClient(codeRegistration('openid user/*.rs'), options)
    const second = await client.registerClient(
      codeRegistration('openid', ['authorization_code']),
      options,
    )
    expect(second.client_id).toBe(first.client_id)
    expect(
      recording.exchanges
        .filter((exchange) => exchange.url === sandbox.endpoints.registration)
        .map((exchange) => exchange.status),
    ).toEqual([201, 200])
    expect(sandbox.registrations.get(first.client_id)?.metadata).toMatchObject({
      grant_types: ['authorization_code'],
      scope: 'openid',
    })
    const { authUrl } = await client.authorizationUrl({ customScopes: ['openid'] })
    expect(new URL(authUrl).searchParams.get('client_id')).toBe(first.client_id)
  })
})
