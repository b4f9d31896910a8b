import { randomBytes } from 'node:crypto'
import { Client, type ClientConfigInput, type ClientOptions } from '@fhir-auth/client'
import {
  type ClientKeys,
  generateClientKeys,
  type SandboxClient,
  type SmartSandbox,
  type SmartSandboxOptions,
  sandboxDefaultRedirectUri,
  startSmartSandbox,
} from '@fhir-auth/sandbox'

/** The four ways a SMART app authenticates that these tests drive: one client id each. */
export type AppKind = 'public' | 'symmetric' | 'RS384' | 'ES384'

/** Every {@link AppKind}, in the order the tests report them. */
export const appKinds: readonly AppKind[] = ['public', 'symmetric', 'RS384', 'ES384']

/** The client ids the fixture registers. */
export const clientIds = {
  public: 'public-app',
  symmetric: 'symmetric-app',
  RS384: 'asymmetric-rs384-app',
  ES384: 'asymmetric-es384-app',
  backendRs384: 'backend-rs384',
  backendEs384: 'backend-es384',
} as const

/** A standalone launch with a refresh token: patient context, an ID token and offline access. */
export const standaloneScopes: readonly string[] = [
  'launch/patient',
  'patient/*.rs',
  'openid',
  'fhirUser',
  'offline_access',
]

/** The backend clients may be granted these and nothing else. */
export const backendScopes: readonly string[] = ['system/*.rs', 'system/Patient.rs']

/** A running SMART sandbox with one client of each kind and the secrets to use them. */
export interface SmartFixture {
  readonly sandbox: SmartSandbox
  readonly rs384Keys: ClientKeys
  readonly es384Keys: ClientKeys
  readonly symmetricSecret: string
}

/**
 * Starts a sandbox with a public, a `client_secret_basic`, an RS384 and an ES384 app client,
 * and RS384 and ES384 backend-services clients restricted to {@link backendScopes}. Keys and
 * the client secret are fresh for every fixture.
 */
export async function startSmartFixture(options: SmartSandboxOptions = {}): Promise<SmartFixture> {
  const [rs384Keys, es384Keys] = await Promise.all([
    generateClientKeys('RS384'),
    generateClientKeys('ES384'),
  ])
  const symmetricSecret = randomBytes(24).toString('base64url')
  const backendScope = backendScopes.join(' ')
  const clients: SandboxClient[] = [
    { client_id: clientIds.public, token_endpoint_auth_method: 'none' },
    {
      client_id: clientIds.symmetric,
      token_endpoint_auth_method: 'client_secret_basic',
      client_secret: symmetricSecret,
    },
    {
      client_id: clientIds.RS384,
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [rs384Keys.publicJwk] },
    },
    {
      client_id: clientIds.ES384,
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [es384Keys.publicJwk] },
    },
    {
      client_id: clientIds.backendRs384,
      token_endpoint_auth_method: 'private_key_jwt',
      grant_types: ['client_credentials'],
      jwks: { keys: [rs384Keys.publicJwk] },
      scope: backendScope,
    },
    {
      client_id: clientIds.backendEs384,
      token_endpoint_auth_method: 'private_key_jwt',
      grant_types: ['client_credentials'],
      jwks: { keys: [es384Keys.publicJwk] },
      scope: backendScope,
    },
    ...(options.clients ?? []),
  ]
  const sandbox = await startSmartSandbox({ ...options, clients })
  return { sandbox, rs384Keys, es384Keys, symmetricSecret }
}

/** The keys of an asymmetric kind. */
export function keysOf(fixture: SmartFixture, kind: 'RS384' | 'ES384'): ClientKeys {
  return kind === 'RS384' ? fixture.rs384Keys : fixture.es384Keys
}

/**
 * The configuration of an app client of `kind` against the fixture's sandbox: discovery from
 * `fhirBaseUrl`, the sandbox's redirect URI, {@link standaloneScopes}, and the kind's credential.
 */
export function appConfig(
  fixture: SmartFixture,
  kind: AppKind,
  overrides: ClientConfigInput = {},
): ClientConfigInput {
  const common: ClientConfigInput = {
    baseUrl: fixture.sandbox.fhirBaseUrl,
    clientId: clientIds[kind],
    redirectUri: sandboxDefaultRedirectUri,
    scopes: standaloneScopes,
    allowInsecureLocalhost: true,
  }
  switch (kind) {
    case 'public':
      return { ...common, ...overrides }
    case 'symmetric':
      return { ...common, clientSecret: fixture.symmetricSecret, ...overrides }
    case 'RS384':
    case 'ES384': {
      const keys = keysOf(fixture, kind)
      return { ...common, privateKey: keys.privateKeyPem, kid: keys.kid, ...overrides }
    }
  }
}

/** The SMART client type that goes with an {@link AppKind}. */
export function clientTypeOf(kind: AppKind): NonNullable<ClientOptions['clientType']> {
  if (kind === 'public') return 'public'
  if (kind === 'symmetric') return 'confidential_symmetric'
  return 'confidential_asymmetric'
}

/** A `Client` for an app of `kind`, with the default crypto backend unless `options` names one. */
export function appClient(
  fixture: SmartFixture,
  kind: AppKind,
  overrides: ClientConfigInput = {},
  options: ClientOptions = {},
): Client {
  return new Client(appConfig(fixture, kind, overrides), {
    clientType: clientTypeOf(kind),
    ...options,
  })
}

/** A backend-services `Client` (RS384 or ES384 key) against the fixture's sandbox. */
export function backendClient(
  fixture: SmartFixture,
  algorithm: 'RS384' | 'ES384',
  overrides: ClientConfigInput = {},
  options: ClientOptions = {},
): Client {
  const keys = keysOf(fixture, algorithm)
  return new Client(
    {
      baseUrl: fixture.sandbox.fhirBaseUrl,
      clientId: algorithm === 'RS384' ? clientIds.backendRs384 : clientIds.backendEs384,
      privateKey: keys.privateKeyPem,
      kid: keys.kid,
      allowInsecureLocalhost: true,
      ...overrides,
    },
    { clientType: 'confidential_asymmetric', ...options },
  )
}
