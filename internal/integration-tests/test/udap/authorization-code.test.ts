/**
 * The UDAP authorization code through `Client` (DESIGN §10) against the sandbox, for every key
 * type (RSA 2048, P-256, P-384) on both crypto backends: consumer-facing apps (`b2c`) and
 * interactive B2B apps (`b2b`) register with the STU2 metadata, begin with the signed
 * `authorization_endpoint`, complete with a UDAP authentication token, validate the server's ID
 * token, read FHIR through the session, and refresh with a fresh authentication token; `b2b`
 * clients also get client-credentials tokens with `hl7-b2b`. Every rule of each authentication
 * token is asserted where the server judged it.
 */
import { memoryStore, TokenError, type UdapFlow } from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  appRedirectUri,
  backendMatrix,
  callbackOf,
  expectCodeFlowAuthenticationToken,
  keyMatrix,
  registeredCodeClient,
  tokenRecordsSince,
} from './support/code-flow-context.js'
import {
  b2bContext,
  clientCredentialsRegistration,
  createUdapClient,
  expectedB2bExtension,
  identityOf,
  type TrustInputs,
  trustInputsOf,
} from './support/udap-test-context.js'

let sandbox: UdapSandbox
let trust: TrustInputs

beforeAll(async () => {
  sandbox = await startUdapSandbox({
    grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
  })
  trust = trustInputsOf(sandbox.trust)
})
afterAll(() => sandbox.close())

const appScopes = ['openid', 'fhirUser', 'profile', 'user/*.rs']

describe.each(backendMatrix)('on $name', ({ name: backendName, crypto }) => {
  describe.each([
    { flow: 'b2c' as UdapFlow, method: 'get' as const },
    { flow: 'b2b' as UdapFlow, method: 'post' as const },
  ])('flow $flow ($method)', ({ flow, method }) => {
    it.each(keyMatrix)(
      'a $keyType client signs in, reads FHIR and refreshes, every token request signed $algorithm',
      async ({ keyType, algorithm }) => {
        const { client, registration } = await registeredCodeClient(sandbox, {
          flow,
          keyType,
          scopes: appScopes,
          trust,
          crypto: crypto(),
          name: `${flow}-${keyType}-${backendName}`,
        })
        const clientId = registration.client_id
        expect(registration.grant_types).toEqual(['authorization_code', 'refresh_token'])
        expect(registration.response_types).toEqual(['code'])
        const store = memoryStore()
        const since = sandbox.authenticationTokens.length
        const authorizationsBefore = sandbox.authorizationRequests.length

        const begun = await client.beginAuthorization({ store, method })
        expect(begun.authUrl.startsWith(sandbox.endpoints.authorization as string)).toBe(true)
        const session = await client.completeAuthorization(await callbackOf(sandbox, begun), {
          store,
        })

        const [request] = sandbox.authorizationRequests.slice(authorizationsBefore)
        expect(request).toMatchObject({ method: method.toUpperCase(), outcome: 'code' })
        expect(request?.unrecognizedParameters).toEqual([])
        expect(Object.keys(request?.parameters ?? {}).sort()).toEqual(
          [
            'client_id',
            'code_challenge',
            'code_challenge_method',
            'nonce',
            'redirect_uri',
            'response_type',
            'scope',
            'state',
          ].sort(),
        )
        expect(request?.parameters).toMatchObject({
          response_type: 'code',
          client_id: clientId,
          redirect_uri: appRedirectUri,
          scope: appScopes.join(' '),
          code_challenge_method: 'S256',
        })

        // The ID token: signed by the server, for this client, with the nonce sent.
        expect(session.tokens.idTokenClaims).toMatchObject({
          iss: sandbox.issuer,
          aud: clientId,
          sub: 'udap-user-1',
          nonce: request?.parameters.nonce,
        })
        expect(session.tokens.fhirUser).toBe(`${sandbox.fhirBaseUrl}/Practitioner/practitioner-1`)
        const patient = await session.fetch('Patient/patient-1')
        expect(patient.status).toBe(200)

        const firstRefreshToken = session.tokens.refreshToken
        const refreshed = await session.refresh()
        expect(refreshed.refreshToken).not.toBe(firstRefreshToken)
        const direct = await client.refreshToken({
          refreshToken: refreshed.refreshToken as string,
          scopes: ['user/*.rs'],
        })
        expect(direct.scope).toBe('user/*.rs')

        const records = tokenRecordsSince(sandbox, since)
        expect(records.map((record) => record.grantType)).toEqual([
          'authorization_code',
          'refresh_token',
          'refresh_token',
        ])
        const expected = { clientId, tokenEndpoint: sandbox.endpoints.token, algorithm }
        expectCodeFlowAuthenticationToken(records[0], {
          ...expected,
          grantType: 'authorization_code',
        })
        expectCodeFlowAuthenticationToken(records[1], { ...expected, grantType: 'refresh_token' })
        expectCodeFlowAuthenticationToken(records[2], { ...expected, grantType: 'refresh_token' })
        // A fresh authentication token each time: no jti is sent twice.
        const jtis = new Set(records.map((record) => record.claims?.jti))
        expect(jtis.size).toBe(3)
      },
    )
  })
})

describe.each(backendMatrix)('b2b client credentials on $name', ({ name: backendName, crypto }) => {
  it.each(keyMatrix)(
    'a $keyType client with flow b2b gets an hl7-b2b token signed $algorithm',
    async ({ keyType, algorithm }) => {
      const clientUri = `https://client.example.test/cc-${keyType}-${backendName}`
      const certificate = await sandbox.certificateAuthority.issue({
        commonName: `cc ${keyType}`,
        sanUris: [clientUri],
        keyType,
      })
      const backend = crypto()
      const client = createUdapClient(sandbox, identityOf(certificate), {
        flow: 'b2b',
        ...(backend === undefined ? {} : { crypto: backend }),
      })
      const registration = await client.registerClient(clientCredentialsRegistration, {
        clientUri,
        ...trust,
      })
      const token = await client.requestBackendToken({ b2b: b2bContext })
      expect(token.token_type).toBe('Bearer')
      expect(sandbox.authenticationTokens.at(-1)).toMatchObject({
        grantType: 'client_credentials',
        accepted: true,
        clientId: registration.client_id,
        header: { alg: algorithm },
        claims: { extensions: { 'hl7-b2b': expectedB2bExtension } },
      })
    },
  )
})

describe('interactive B2B keeps client credentials; consumer apps have none', () => {
  it('a b2b client gets a client-credentials token and an authorization code', async () => {
    const { client, registration } = await registeredCodeClient(sandbox, {
      flow: 'b2b',
      keyType: 'p256',
      scopes: ['user/*.rs'],
      trust,
      name: 'b2b-both',
    })
    const { authUrl, state, codeVerifier, nonce } = await client.authorizationUrl()
    expect(nonce).toBeUndefined()
    const session = await client.completeAuthorization(await callbackOf(sandbox, { authUrl }), {
      state,
      codeVerifier,
    })
    expect(session.tokens.scopes).toEqual(['user/*.rs'])
    // The server refuses client credentials for this registration (it registered the code
    // grant), but the library lets a b2b client ask: the refusal is the server's.
    const refusal = await failureOf(
      client.requestBackendToken({ scopes: ['system/*.rs'], b2b: b2bContext }),
      TokenError,
    )
    expect(refusal.error).toBe('unauthorized_client')
    expect(sandbox.authenticationTokens.at(-1)?.clientId).toBe(registration.client_id)
  })
})
