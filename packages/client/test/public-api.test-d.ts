/**
 * Type tests of the public API (DESIGN §2, §7): the `Client` surface, its options and results,
 * the error classes' fields and codes, and the re-exports that make one import enough. Vitest
 * type-checks this file (it is never run): a wrong type fails its test, and each
 * `@ts-expect-error` fails it if the call it marks ever becomes accepted.
 */
import { describe, expectTypeOf, it } from 'vitest'
import {
  type AuthorizationUrlResult,
  type CertificateChainError,
  type CertificateInput,
  Client,
  type ClientConfig,
  type ClientConfigInput,
  type ClientOptions,
  type ClientType,
  type ConfigurationError,
  type CrlInput,
  type CryptoBackend,
  type CryptoError,
  type DiscoveryError,
  FhirAuthError,
  type FhirAuthErrorCode,
  type FhirContextItem,
  type HttpError,
  type JwsSigner,
  type Protocol,
  RegistrationError,
  type RegistrationResponse,
  type SmartMetadata,
  TokenError,
  type TokenResponse,
  type UdapFlow,
  type UdapMetadata,
  type UdapRevocationOptions,
} from '../src/index.js'

declare const client: Client
const trust = { trustedAnchors: ['pem'], crls: ['crl'] }

describe('public API types', () => {
  it('new Client takes a ClientConfig or its plain form, and ClientOptions', () => {
    expectTypeOf(Client).constructorParameters.toEqualTypeOf<
      [config: ClientConfig | ClientConfigInput, options?: ClientOptions]
    >()
    expectTypeOf<ClientOptions['protocol']>().toEqualTypeOf<Protocol | undefined>()
    expectTypeOf<Protocol>().toEqualTypeOf<'smart' | 'udap'>()
    expectTypeOf<ClientOptions['clientType']>().toEqualTypeOf<ClientType | null | undefined>()
    expectTypeOf<ClientOptions['crypto']>().toEqualTypeOf<CryptoBackend | undefined>()
    expectTypeOf<ClientOptions['timeoutMs']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<ClientOptions['now']>().toEqualTypeOf<(() => Date) | undefined>()
    expectTypeOf<ClientOptions['flow']>().toEqualTypeOf<UdapFlow | null | undefined>()
    expectTypeOf<UdapFlow>().toEqualTypeOf<'b2b' | 'b2c' | 'tiered_oauth'>()
    // @ts-expect-error: only the three UDAP flows
    new Client({}, { protocol: 'udap', flow: 'b2x' })
    // @ts-expect-error: an unknown option is a compile error as well as a ConfigurationError
    new Client({}, { protocl: 'udap' })
    // @ts-expect-error: the configuration's attributes are typed
    new Client({ baseUrl: 42 })
  })

  it('exposes config, protocol and a settable client type', () => {
    expectTypeOf(client.config).toEqualTypeOf<ClientConfig>()
    expectTypeOf(client.protocol).toEqualTypeOf<Protocol>()
    expectTypeOf(client.clientType).toEqualTypeOf<ClientType | null>()
    expectTypeOf(client.flow).toEqualTypeOf<UdapFlow | null>()
    expectTypeOf<ClientType>().toEqualTypeOf<
      'public' | 'confidential_symmetric' | 'confidential_asymmetric'
    >()
    client.clientType = 'confidential_symmetric'
    // @ts-expect-error: only the three client types
    client.clientType = 'private'
  })

  it('serverMetadata: SMART without trust inputs, UDAP with them', () => {
    expectTypeOf(client.serverMetadata()).toEqualTypeOf<Promise<SmartMetadata>>()
    expectTypeOf(client.serverMetadata(trust)).toEqualTypeOf<Promise<UdapMetadata>>()
    expectTypeOf(client.serverMetadata({ ...trust, community: 'udap://c/' })).toEqualTypeOf<
      Promise<UdapMetadata>
    >()
  })

  it('authorizationUrl returns authUrl, state, codeVerifier, for POST params, for UDAP nonce', () => {
    expectTypeOf(client.authorizationUrl).parameter(0).toEqualTypeOf<
      | {
          readonly signal?: AbortSignal | undefined
          readonly launch?: string | undefined
          readonly customScopes?: readonly string[] | undefined
          readonly method?: 'get' | 'post' | undefined
          readonly idp?: string | undefined
          readonly trustedAnchors?: readonly CertificateInput[] | undefined
          readonly crls?: readonly CrlInput[] | undefined
          readonly revocation?: UdapRevocationOptions | undefined
          readonly community?: string | undefined
        }
      | undefined
    >()
    expectTypeOf(client.authorizationUrl()).resolves.toEqualTypeOf<AuthorizationUrlResult>()
    expectTypeOf<AuthorizationUrlResult>().toEqualTypeOf<{
      readonly authUrl: string
      readonly state: string
      readonly codeVerifier: string
      readonly params?: Readonly<Record<string, string>>
      readonly nonce?: string
    }>()
    // @ts-expect-error: only GET and POST
    client.authorizationUrl({ method: 'put' })
  })

  it('token operations resolve to the server JSON with a string access_token', () => {
    expectTypeOf(
      client.requestAccessToken({ code: 'c', codeVerifier: 'v' }),
    ).resolves.toEqualTypeOf<TokenResponse>()
    expectTypeOf(
      client.refreshToken({ refreshToken: 'r', scopes: ['a'] }),
    ).resolves.toEqualTypeOf<TokenResponse>()
    expectTypeOf(client.requestBackendToken()).resolves.toEqualTypeOf<TokenResponse>()
    expectTypeOf(
      client.requestBackendToken({
        scopes: ['system/*.rs'],
        b2b: { organizationId: 'https://o', purposeOfUse: ['urn:oid:1#TREAT'] },
        ...trust,
      }),
    ).resolves.toEqualTypeOf<TokenResponse>()
    expectTypeOf<TokenResponse['access_token']>().toEqualTypeOf<string>()
    // DESIGN §8: the OAuth/SMART members are typed; others stay reachable as unknown.
    expectTypeOf<TokenResponse['expires_in']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<TokenResponse['patient']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<TokenResponse['need_patient_banner']>().toEqualTypeOf<boolean | undefined>()
    expectTypeOf<TokenResponse['fhirContext']>().toEqualTypeOf<
      readonly FhirContextItem[] | undefined
    >()
    expectTypeOf<TokenResponse['vendor_extension']>().toEqualTypeOf<unknown>()
    // @ts-expect-error: code and codeVerifier are required
    client.requestAccessToken({ code: 'c' })
  })

  it('registration: SMART RFC 7591 and UDAP signed registration, UDAP cancellation', () => {
    expectTypeOf(
      client.registerClient({ client_name: 'x' }),
    ).resolves.toEqualTypeOf<RegistrationResponse>()
    expectTypeOf(
      client.registerClient({}, { registrationEndpoint: 'https://r', authorization: 'Bearer t' }),
    ).resolves.toEqualTypeOf<RegistrationResponse>()
    expectTypeOf(
      client.registerClient({}, { ...trust, clientUri: 'https://c', certifications: ['jws'] }),
    ).resolves.toEqualTypeOf<RegistrationResponse>()
    expectTypeOf(
      client.cancelRegistration({}, { ...trust, clientUri: 'https://c' }),
    ).resolves.toEqualTypeOf<RegistrationResponse>()
    expectTypeOf<RegistrationResponse['client_id']>().toEqualTypeOf<string>()
    // @ts-expect-error: a UDAP cancellation needs the client URI and trust inputs
    client.cancelRegistration({})
  })

  it('isTokenResponseValid is a type guard to TokenResponse with an optional flow', () => {
    expectTypeOf(client.isTokenResponseValid).guards.toEqualTypeOf<TokenResponse>()
    expectTypeOf(client.isTokenResponseValid)
      .parameter(1)
      .toEqualTypeOf<
        { readonly flow?: 'app_launch' | 'backend_services' | undefined } | undefined
      >()
  })

  it('errors carry the spec fields and a literal code; isInstance narrows', () => {
    expectTypeOf<ConfigurationError['invalidAttribute']>().toEqualTypeOf<string>()
    expectTypeOf<ConfigurationError['invalidValue']>().toEqualTypeOf<unknown>()
    expectTypeOf<ConfigurationError['validValues']>().toEqualTypeOf<readonly string[] | undefined>()
    expectTypeOf<DiscoveryError['endpoint']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<DiscoveryError['status']>().toEqualTypeOf<number | undefined>()
    for (const fields of [TokenError, RegistrationError]) {
      expectTypeOf<InstanceType<typeof fields>['error']>().toEqualTypeOf<string | undefined>()
    }
    expectTypeOf<TokenError['errorDescription']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<RegistrationError['errorUri']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<ConfigurationError['code']>().toEqualTypeOf<'ERR_CONFIGURATION'>()
    expectTypeOf<DiscoveryError['code']>().toEqualTypeOf<'ERR_DISCOVERY'>()
    expectTypeOf<TokenError['code']>().toEqualTypeOf<'ERR_TOKEN'>()
    expectTypeOf<RegistrationError['code']>().toEqualTypeOf<'ERR_REGISTRATION'>()
    expectTypeOf<HttpError['code']>().toEqualTypeOf<'ERR_HTTP'>()
    expectTypeOf<CryptoError['code']>().toEqualTypeOf<'ERR_CRYPTO'>()
    expectTypeOf<CertificateChainError['code']>().toEqualTypeOf<'ERR_CERTIFICATE_CHAIN'>()
    expectTypeOf<FhirAuthError['code']>().toEqualTypeOf<FhirAuthErrorCode>()
    const thrown: unknown = new TokenError({ message: 'm' })
    if (TokenError.isInstance(thrown)) expectTypeOf(thrown).toEqualTypeOf<TokenError>()
    if (FhirAuthError.isInstance(thrown)) expectTypeOf(thrown).toEqualTypeOf<FhirAuthError>()
    expectTypeOf(TokenError.code).toEqualTypeOf<'ERR_TOKEN'>()
  })

  it('a JwsSigner is the one thing an HSM or KMS integration writes', () => {
    expectTypeOf<JwsSigner['sign']>().toEqualTypeOf<
      (signingInput: Uint8Array) => Promise<Uint8Array>
    >()
    expectTypeOf<CryptoBackend['specificationVersion']>().toEqualTypeOf<1 | undefined>()
  })
})
