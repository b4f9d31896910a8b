/**
 * Tiered OAuth (IG STU2 §6) through `Client` in both roles, against a data holder and an
 * identity provider on loopback (`startTieredOAuthSandboxes`), for every key type on both crypto
 * backends:
 *
 * - the app (`flow: 'tiered_oauth'`): `udap` added to its scopes, `idp` sent; the data holder
 *   sends the user to the IdP and back; the app's callback errors `invalid_idp`,
 *   `access_denied` and `server_error` are `AuthorizationError`s with that `error`;
 * - the data holder as a UDAP client of the IdP: registers with `openid udap`, sends a `nonce`,
 *   exchanges the code with an authentication token, validates the IdP's ID token with the IdP's
 *   keys (`iss` = IdP, `aud` = its client id, `nonce`) — and refuses ID tokens with another
 *   `nonce` or `aud` with the `IdTokenError` reason.
 */
import {
  AuthorizationError,
  type CryptoBackend,
  IdTokenError,
  memoryStore,
} from '@fhir-auth/client'
import { startTieredOAuthSandboxes, type TieredOAuthSandboxes } from '@fhir-auth/sandbox'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  backendMatrix,
  type CodeClient,
  callbackOf,
  expectCodeFlowAuthenticationToken,
  keyMatrix,
  registeredCodeClient,
  tokenRecordsSince,
} from './support/code-flow-context.js'
import { type TrustInputs, trustInputsOf } from './support/udap-test-context.js'

let sandboxes: TieredOAuthSandboxes
let dataHolderTrust: TrustInputs
let identityProviderTrust: TrustInputs

beforeAll(async () => {
  sandboxes = await startTieredOAuthSandboxes()
  dataHolderTrust = trustInputsOf(sandboxes.dataHolder.trust)
  identityProviderTrust = trustInputsOf(sandboxes.identityProvider.trust)
})
afterAll(() => sandboxes.close())
afterEach(() => {
  sandboxes.dataHolder.setHostile(undefined)
  sandboxes.identityProvider.setHostile(undefined)
})

/** An app of the data holder in the tiered_oauth flow (registered with `udap`). */
function tieredApp(name: string, keyType: 'rsa2048' | 'p256' | 'p384', crypto?: CryptoBackend) {
  return registeredCodeClient(sandboxes.dataHolder, {
    flow: 'tiered_oauth',
    keyType,
    scopes: ['openid', 'fhirUser', 'user/*.rs'],
    registeredScope: 'openid fhirUser udap user/*.rs',
    trust: dataHolderTrust,
    crypto,
    name,
  })
}

/** A data holder built with the library: a UDAP client of the IdP asking only who the user is. */
function dataHolderClient(
  name: string,
  keyType: 'rsa2048' | 'p256' | 'p384',
  crypto?: CryptoBackend,
) {
  return registeredCodeClient(sandboxes.identityProvider, {
    flow: 'tiered_oauth',
    keyType,
    scopes: ['openid', 'udap'],
    // An IdP issues no refresh token for Tiered OAuth logins, and offers none.
    grantTypes: ['authorization_code'],
    trust: identityProviderTrust,
    crypto,
    name,
  })
}

describe.each(backendMatrix)('on $name', ({ name: backendName, crypto }) => {
  describe('the app: udap scope and idp, through the data holder to the IdP and back', () => {
    it.each(keyMatrix)(
      'a $keyType app signs in at the IdP and reads FHIR at the data holder ($algorithm)',
      async ({ keyType, algorithm }) => {
        const { dataHolder, identityProvider } = sandboxes
        const { client, registration } = await tieredApp(
          `tiered-app-${keyType}-${backendName}`,
          keyType,
          crypto(),
        )
        const store = memoryStore()
        const tokensBefore = dataHolder.authenticationTokens.length
        const authorizationsBefore = dataHolder.authorizationRequests.length

        const begun = await client.beginAuthorization({ store, idp: identityProvider.issuer })
        const session = await client.completeAuthorization(await callbackOf(dataHolder, begun), {
          store,
        })

        const [request] = dataHolder.authorizationRequests.slice(authorizationsBefore)
        expect(request?.parameters).toMatchObject({
          scope: 'openid fhirUser user/*.rs udap',
          idp: identityProvider.issuer,
          client_id: registration.client_id,
        })
        expect(request?.outcome).toBe('identity-provider')
        expect(dataHolder.tieredLogins.at(-1)).toMatchObject({
          outcome: 'code',
          identity: { issuer: identityProvider.issuer, subject: 'udap-user-1' },
        })
        expect(session.tokens.scopes).toContain('udap')
        expect(session.tokens.idTokenClaims).toMatchObject({
          iss: dataHolder.issuer,
          aud: registration.client_id,
          nonce: request?.parameters.nonce,
        })
        expect((await session.fetch('Patient/patient-1')).status).toBe(200)
        await session.refresh()
        const records = tokenRecordsSince(dataHolder, tokensBefore).filter(
          (record) => record.clientId === registration.client_id,
        )
        const expected = {
          clientId: registration.client_id,
          tokenEndpoint: dataHolder.endpoints.token,
          algorithm,
        }
        expect(records).toHaveLength(2)
        expectCodeFlowAuthenticationToken(records[0], {
          ...expected,
          grantType: 'authorization_code',
        })
        expectCodeFlowAuthenticationToken(records[1], { ...expected, grantType: 'refresh_token' })
      },
    )
  })

  describe('the data holder: a UDAP client of the IdP', () => {
    it.each(keyMatrix)(
      'a $keyType data holder registers with openid udap, sends a nonce and validates the IdP’s ID token ($algorithm)',
      async ({ keyType, algorithm }) => {
        const { identityProvider } = sandboxes
        const { client, registration } = await dataHolderClient(
          `data-holder-${keyType}-${backendName}`,
          keyType,
          crypto(),
        )
        expect(registration.scope).toBe('openid udap')
        const store = memoryStore()
        const tokensBefore = identityProvider.authenticationTokens.length
        const authorizationsBefore = identityProvider.authorizationRequests.length

        const begun = await client.beginAuthorization({ store })
        const session = await client.completeAuthorization(
          await callbackOf(identityProvider, begun),
          { store },
        )

        const [request] = identityProvider.authorizationRequests.slice(authorizationsBefore)
        expect(request?.parameters.scope).toBe('openid udap')
        expect(request?.parameters).not.toHaveProperty('idp')
        const nonce = request?.parameters.nonce
        expect(nonce).toMatch(/^[A-Za-z0-9_-]{43,}$/)
        // What a data holder maps to a local user: the verified (iss, sub).
        expect(session.tokens.idTokenClaims).toMatchObject({
          iss: identityProvider.issuer,
          sub: 'udap-user-1',
          aud: registration.client_id,
          nonce,
        })
        // IdP tokens of a udap grant: no refresh token, five minutes at most.
        expect(session.tokens.refreshToken).toBeUndefined()
        expect(session.tokens.raw.expires_in).toBeLessThanOrEqual(300)
        const [exchange] = tokenRecordsSince(identityProvider, tokensBefore)
        expectCodeFlowAuthenticationToken(exchange, {
          grantType: 'authorization_code',
          clientId: registration.client_id,
          tokenEndpoint: identityProvider.endpoints.token,
          algorithm,
        })
      },
    )
  })
})

describe('the app: errors on the callback are AuthorizationErrors with their error', () => {
  let app: CodeClient

  beforeAll(async () => {
    app = await tieredApp('tiered-app-errors', 'p256')
  })

  /** Runs one login through the data holder and returns how completeAuthorization failed. */
  async function failedLogin(decision: 'approve' | 'deny' = 'approve') {
    const store = memoryStore()
    const tokensBefore = sandboxes.dataHolder.authenticationTokens.length
    const begun = await app.client.beginAuthorization({
      store,
      idp: sandboxes.identityProvider.issuer,
    })
    const callback = await callbackOf(sandboxes.dataHolder, begun, decision)
    const error = await failureOf(
      app.client.completeAuthorization(callback, { store }),
      AuthorizationError,
    )
    expect(error.state).toBe(begun.state)
    // No code exchange follows a refused login.
    expect(sandboxes.dataHolder.authenticationTokens.length).toBe(tokensBefore)
    return error
  }

  it('invalid_idp: the data holder cannot use the IdP', async () => {
    sandboxes.dataHolder.setHostile('invalid-idp')
    expect((await failedLogin()).error).toBe('invalid_idp')
  })

  it('access_denied: the user refused', async () => {
    expect((await failedLogin('deny')).error).toBe('access_denied')
  })

  it('server_error: the IdP answered the data holder with another state', async () => {
    sandboxes.identityProvider.setHostile('wrong-state')
    expect((await failedLogin()).error).toBe('server_error')
  })

  it('a tiered_oauth app without idp and with data scopes is refused before any request', async () => {
    const requestsBefore = sandboxes.dataHolder.requests.length
    const error = await failureOf(app.client.authorizationUrl(), Error)
    expect(error).toMatchObject({ code: 'ERR_CONFIGURATION', invalidAttribute: 'idp' })
    expect(sandboxes.dataHolder.requests.length).toBe(requestsBefore)
  })
})

describe('the data holder refuses an IdP ID token that is not for this login', () => {
  let holder: CodeClient

  beforeAll(async () => {
    holder = await dataHolderClient('data-holder-hostile', 'p384')
  })

  it.each([
    { variant: 'id-token-wrong-nonce', reason: 'nonce' },
    { variant: 'id-token-wrong-aud', reason: 'aud' },
  ] as const)('$variant is an IdTokenError $reason', async ({ variant, reason }) => {
    sandboxes.identityProvider.setHostile(variant)
    const store = memoryStore()
    const begun = await holder.client.beginAuthorization({ store })
    const callback = await callbackOf(sandboxes.identityProvider, begun)
    const error = await failureOf(
      holder.client.completeAuthorization(callback, { store }),
      IdTokenError,
    )
    expect(error.reason).toBe(reason)
  })
})

describe('the app reads Tiered OAuth support from the signed metadata (IG STU2 §2.3)', () => {
  it('refuses tiered_oauth when only the unsigned metadata lists udap', async () => {
    const { dataHolder, identityProvider } = sandboxes
    dataHolder.setHostile('signed-scopes-without-udap')
    const { client } = await tieredApp('tiered-app-signed-scopes', 'p256')
    const authorizationsBefore = dataHolder.authorizationRequests.length
    const error = await failureOf(
      client.beginAuthorization({ store: memoryStore(), idp: identityProvider.issuer }),
      Error,
    )
    expect(error).toMatchObject({ code: 'ERR_CONFIGURATION', invalidAttribute: 'flow' })
    expect(error.message).toMatch(/no udap_to profile or no udap scope/)
    expect(dataHolder.authorizationRequests.length).toBe(authorizationsBefore)
  })
})
