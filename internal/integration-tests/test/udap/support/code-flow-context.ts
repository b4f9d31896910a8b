/**
 * What the UDAP authorization-code tests share: a `Client` for each flow of DESIGN §10 with a
 * certificate the sandbox's CA issued, the registration metadata STU2 asks for, the sandbox's
 * headless user agent driving a request the library built (GET or POST), and the server's
 * record of every authentication token, to assert each rule where it is judged.
 */
import type {
  BeginAuthorizationResult,
  Client,
  CryptoBackend,
  RegistrationResponse,
  UdapFlow,
} from '@fhir-auth/client'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import type { AuthenticationTokenRecord, UdapSandbox } from '@fhir-auth/sandbox'
import type { KeyType } from '@fhir-auth/test-pki/issuer'
import { expect } from 'vitest'
import { createUdapClient, identityOf, type TrustInputs } from './udap-test-context.js'

/** The app's redirect URI: registered, never contacted (the user agent stops there). */
export const appRedirectUri = 'https://app.example.test/callback'

/** The two crypto backends of the matrix: the default (crypto-node in Node) and WebCrypto. */
export const backendMatrix: readonly {
  readonly name: string
  readonly crypto: () => CryptoBackend | undefined
}[] = [
  { name: 'crypto-node', crypto: () => undefined },
  { name: 'crypto-webcrypto', crypto: () => createWebCryptoBackend() },
]

/** The three key types of the matrix, with the algorithm each signs with. */
export const keyMatrix = [
  { keyType: 'rsa2048', algorithm: 'RS256' },
  { keyType: 'p256', algorithm: 'ES256' },
  { keyType: 'p384', algorithm: 'ES384' },
] as const satisfies readonly { keyType: KeyType; algorithm: string }[]

/** Registration metadata for the authorization code (with refresh unless told otherwise). */
export function codeRegistration(
  scope: string,
  grantTypes: readonly string[] = ['authorization_code', 'refresh_token'],
): Readonly<Record<string, unknown>> {
  return {
    client_name: 'fhir-auth authorization-code test app',
    contacts: ['mailto:ops@example.test'],
    grant_types: grantTypes,
    redirect_uris: [appRedirectUri],
    logo_uri: 'https://app.example.test/logo.png',
    scope,
  }
}

/** Options of {@link registeredCodeClient}. */
export interface CodeClientOptions {
  readonly flow: UdapFlow
  readonly keyType: KeyType
  readonly scopes: readonly string[]
  readonly trust: TrustInputs
  /** Registered scope; defaults to the client's scopes. */
  readonly registeredScope?: string
  /** Registered grant types; default authorization_code and refresh_token. */
  readonly grantTypes?: readonly string[]
  readonly crypto?: CryptoBackend | undefined
  /** A name that makes the client URI unique in the sandbox. */
  readonly name: string
}

/** A registered authorization-code client and what the tests compare with. */
export interface CodeClient {
  readonly client: Client
  readonly clientUri: string
  readonly registration: RegistrationResponse
}

/**
 * Issues a certificate of `keyType` for a fresh client URI, creates a UDAP `Client` with `flow`
 * and registers it through the library (authorization code + refresh token).
 */
export async function registeredCodeClient(
  sandbox: UdapSandbox,
  options: CodeClientOptions,
): Promise<CodeClient> {
  const clientUri = `https://app.example.test/${options.name}`
  const certificate = await sandbox.certificateAuthority.issue({
    commonName: options.name,
    sanUris: [clientUri],
    keyType: options.keyType,
  })
  const client = createUdapClient(
    sandbox,
    identityOf(certificate),
    { flow: options.flow, ...(options.crypto === undefined ? {} : { crypto: options.crypto }) },
    { redirectUri: appRedirectUri, scopes: options.scopes },
  )
  const registration = await client.registerClient(
    codeRegistration(options.registeredScope ?? options.scopes.join(' '), options.grantTypes),
    { clientUri, ...options.trust },
  )
  return { client, clientUri, registration }
}

/**
 * Sends the sandbox's user agent where the library's request says (GET URL, or POST form) and
 * returns the callback URL it stopped at.
 */
export async function callbackOf(
  sandbox: UdapSandbox,
  request: Pick<BeginAuthorizationResult, 'authUrl' | 'params'>,
  decision: 'approve' | 'deny' = 'approve',
): Promise<string> {
  const result = await sandbox.authorize(
    request.params === undefined
      ? { url: request.authUrl }
      : { endpoint: request.authUrl, params: request.params },
    { decision },
  )
  if (result.redirectUrl === undefined) {
    throw new Error(`the sandbox did not redirect: ${result.error} ${result.errorDescription}`)
  }
  return result.redirectUrl.href
}

/** The server's records of the token requests made since `since` (an index). */
export function tokenRecordsSince(
  sandbox: UdapSandbox,
  since: number,
): readonly AuthenticationTokenRecord[] {
  return sandbox.authenticationTokens.slice(since)
}

/**
 * Asserts every rule of a UDAP authentication token for the authorization code or refresh
 * grant (DESIGN §10), as the server judged and recorded it: accepted, no `Authorization`
 * header, header `alg` and `x5c` only, `iss = sub = client_id`, `aud` = the token endpoint,
 * `iat`, `exp ≤ iat + 300`, a `jti`, no `extensions`, and the form with `udap=1`, the JWT-bearer
 * assertion type and no client secret.
 */
export function expectCodeFlowAuthenticationToken(
  record: AuthenticationTokenRecord | undefined,
  expected: {
    readonly grantType: 'authorization_code' | 'refresh_token'
    readonly clientId: string
    readonly tokenEndpoint: string
    readonly algorithm: string
  },
): void {
  expect(record, 'the server recorded the token request').toBeDefined()
  const ant = record as AuthenticationTokenRecord
  expect(ant).toMatchObject({
    grantType: expected.grantType,
    accepted: true,
    authorizationHeader: false,
    signatureVerified: true,
    chainValidated: true,
    clientId: expected.clientId,
  })
  expect(Object.keys(ant.header ?? {}).sort()).toEqual(['alg', 'x5c'])
  expect(ant.header?.alg).toBe(expected.algorithm)
  const claims = ant.claims ?? {}
  expect(claims).toMatchObject({
    iss: expected.clientId,
    sub: expected.clientId,
    aud: expected.tokenEndpoint,
  })
  expect(claims).not.toHaveProperty('extensions')
  expect(typeof claims.iat).toBe('number')
  expect(typeof claims.jti).toBe('string')
  expect(Number(claims.exp) - Number(claims.iat)).toBeGreaterThan(0)
  expect(Number(claims.exp) - Number(claims.iat)).toBeLessThanOrEqual(300)
  expectCodeFlowTokenForm(ant.form, expected.grantType)
}

/**
 * Asserts the form of a UDAP token request on the authorization code or refresh grant (DESIGN
 * §10): `grant_type`, `udap=1`, the JWT-bearer assertion type and no client secret; the code
 * exchange sends exactly its own parameters, a refresh sends the refresh token and no code.
 */
export function expectCodeFlowTokenForm(
  form: AuthenticationTokenRecord['form'],
  grantType: 'authorization_code' | 'refresh_token',
): void {
  expect(form).toMatchObject({
    grant_type: grantType,
    udap: '1',
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
  })
  expect(form).not.toHaveProperty('client_secret')
  if (grantType === 'authorization_code') {
    expect(Object.keys(form).sort()).toEqual(
      [
        'client_assertion',
        'client_assertion_type',
        'code',
        'code_verifier',
        'grant_type',
        'redirect_uri',
        'udap',
      ].sort(),
    )
  } else {
    expect(form).toHaveProperty('refresh_token')
    expect(form).not.toHaveProperty('code')
  }
}
