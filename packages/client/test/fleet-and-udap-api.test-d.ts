/**
 * Type tests of DESIGN §9–§12's public API as a strict-mode user writes it from the examples:
 * `client.backendTokens` and its handle, the UDAP `flow` option and the authorization-code
 * operations with their trust inputs and `idp`, the certificate-path failure reasons of §11, and
 * §12's `basicAuthEncoding`. Vitest type-checks this file (it is never run); each
 * `@ts-expect-error` fails if the call it marks ever becomes accepted.
 */
import { describe, expectTypeOf, it } from 'vitest'
import {
  type AuthorizationError,
  type AuthorizationUrlResult,
  type B2bAuthorizationExtension,
  type BackendTokens,
  type BackendTokensOptions,
  type BasicAuthEncoding,
  type CertificateChainError,
  type CertificateChainFailureReason,
  Client,
  type ClientOptions,
  type KeyValueStore,
  memoryStore,
  type Session,
  type TokenResponse,
  type UdapFlow,
  udapFlows,
} from '../src/index.js'

declare const client: Client
declare const store: KeyValueStore
declare const anchorPem: string
declare const crlDer: Uint8Array

const trust = { trustedAnchors: [anchorPem], crls: [crlDer] }

describe('DESIGN §9: backendTokens', () => {
  it('is synchronous and returns a BackendTokens handle, with every option of the example', () => {
    const tokens = client.backendTokens({
      scopes: ['system/Patient.rs'],
      store: memoryStore(),
      minValiditySeconds: 120,
      b2b: {
        organizationId: 'https://org.example.org',
        purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
      },
      clientUri: 'https://client.example.org/app',
      ...trust,
      community: 'urn:oid:1.2.3',
    })
    expectTypeOf(tokens).toEqualTypeOf<BackendTokens>()
    expectTypeOf(client.backendTokens()).toEqualTypeOf<BackendTokens>()
    expectTypeOf(client.backendTokens({ store })).toEqualTypeOf<BackendTokens>()
    expectTypeOf<BackendTokensOptions['minValiditySeconds']>().toEqualTypeOf<number | undefined>()
    expectTypeOf<BackendTokensOptions['store']>().toEqualTypeOf<KeyValueStore | undefined>()
    expectTypeOf<BackendTokensOptions['b2b']>().toEqualTypeOf<
      B2bAuthorizationExtension | undefined
    >()
    // @ts-expect-error: minValiditySeconds is a number of seconds
    client.backendTokens({ minValiditySeconds: '60' })
    // @ts-expect-error: the hl7-b2b context needs organizationId and purposeOfUse
    client.backendTokens({ b2b: { organizationName: 'x' } })
  })

  it('accessToken, fetch and invalidate are async with the documented results', () => {
    const tokens = client.backendTokens()
    expectTypeOf(tokens.accessToken()).toEqualTypeOf<Promise<string>>()
    expectTypeOf(tokens.fetch('Patient/1')).toEqualTypeOf<Promise<Response>>()
    expectTypeOf(
      tokens.fetch(new URL('https://ehr.example.org/fhir/Patient'), { method: 'POST', body: '{}' }),
    ).toEqualTypeOf<Promise<Response>>()
    expectTypeOf(tokens.fetch(new Request('https://ehr.example.org/fhir/Patient'))).toEqualTypeOf<
      Promise<Response>
    >()
    expectTypeOf(tokens.invalidate()).toEqualTypeOf<Promise<void>>()
  })
})

describe('DESIGN §10: flow and the UDAP authorization code', () => {
  it('flow is a ClientOptions member of three values; client.flow reads it', () => {
    expectTypeOf<UdapFlow>().toEqualTypeOf<'b2b' | 'b2c' | 'tiered_oauth'>()
    expectTypeOf(udapFlows).toEqualTypeOf<readonly UdapFlow[]>()
    const udap = new Client(
      { baseUrl: 'https://fhir.example.org/r4' },
      { protocol: 'udap', flow: 'tiered_oauth' },
    )
    expectTypeOf(udap.flow).toEqualTypeOf<UdapFlow | null>()
    expectTypeOf<ClientOptions['flow']>().toEqualTypeOf<UdapFlow | null | undefined>()
  })

  it('authorizationUrl and beginAuthorization take the trust inputs and idp', () => {
    expectTypeOf(
      client.authorizationUrl({
        ...trust,
        community: 'urn:oid:1.2.3',
        idp: 'https://idp.example.org',
        method: 'post',
      }),
    ).toEqualTypeOf<Promise<AuthorizationUrlResult>>()
    const begun = client.beginAuthorization({ store, ...trust, idp: 'https://idp.example.org' })
    expectTypeOf(begun).resolves.toHaveProperty('authUrl').toEqualTypeOf<string>()
    expectTypeOf(begun).resolves.toHaveProperty('state').toEqualTypeOf<string>()
    // @ts-expect-error: idp is a URL string
    client.authorizationUrl({ idp: new URL('https://idp.example.org') })
  })

  it('requestAccessToken, completeAuthorization and refreshToken take the trust inputs optionally', () => {
    expectTypeOf(
      client.requestAccessToken({ code: 'c', codeVerifier: 'v', ...trust }),
    ).toEqualTypeOf<Promise<TokenResponse>>()
    expectTypeOf(client.requestAccessToken({ code: 'c', codeVerifier: 'v' })).toEqualTypeOf<
      Promise<TokenResponse>
    >()
    expectTypeOf(client.refreshToken({ refreshToken: 'r', ...trust })).toEqualTypeOf<
      Promise<TokenResponse>
    >()
    expectTypeOf(
      client.completeAuthorization('https://app.example.org/cb?code=c&state=s', {
        store,
        ...trust,
      }),
    ).toEqualTypeOf<Promise<Session>>()
    expectTypeOf(
      client.completeAuthorization('https://app.example.org/cb?code=c&state=s', {
        state: 's',
        codeVerifier: 'v',
        nonce: 'n',
      }),
    ).toEqualTypeOf<Promise<Session>>()
  })

  it('a callback error such as invalid_idp is read from AuthorizationError.error', () => {
    expectTypeOf<AuthorizationError['error']>().toEqualTypeOf<string>()
    expectTypeOf<AuthorizationError['code']>().toEqualTypeOf<'ERR_AUTHORIZATION'>()
  })
})

describe('DESIGN §11: certificate path reasons', () => {
  it('CertificateChainError.reason names the RFC 5280 rules', () => {
    expectTypeOf<CertificateChainError['reason']>().toEqualTypeOf<CertificateChainFailureReason>()
    expectTypeOf<
      'key-usage' | 'path-length' | 'name-constraints' | 'unknown-critical-extension'
    >().toExtend<CertificateChainFailureReason>()
  })
})

describe('DESIGN §12: options', () => {
  it('basicAuthEncoding is form-urlencoded or raw; timeoutMs a number', () => {
    expectTypeOf<BasicAuthEncoding>().toEqualTypeOf<'form-urlencoded' | 'raw'>()
    expectTypeOf<ClientOptions['basicAuthEncoding']>().toEqualTypeOf<
      BasicAuthEncoding | undefined
    >()
    expectTypeOf<ClientOptions['timeoutMs']>().toEqualTypeOf<number | undefined>()
    // @ts-expect-error: only the two encodings
    new Client({ baseUrl: 'https://ehr.example.org/fhir' }, { basicAuthEncoding: 'utf8' })
  })
})
