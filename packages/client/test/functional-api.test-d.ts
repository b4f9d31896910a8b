/**
 * Type tests of the functional APIs beside `Client` (DESIGN §3, §7): `@fhir-auth/smart` and
 * `@fhir-auth/udap` take one options object each and return the server's JSON typed as core's
 * shared `TokenResponse` / `RegistrationResponse`; `@fhir-auth/core/backend` gives a backend
 * what it is built from. Kept with the client's type tests because the client depends on every
 * package; Vitest type-checks this file, it is never run.
 */
import type {
  AuthorizationRequest,
  CryptoBackend,
  RegistrationResponse,
  TokenResponse,
  VerifiedCertificateChain,
  VerifyCertificateChainParams,
} from '@fhir-auth/core'
import {
  type CertificateChainServices,
  type cryptoBackendSpecificationVersion,
  orderCertificateChain,
  type ParsedCertificate,
  verifyCertificateChainWith,
} from '@fhir-auth/core/backend'
import type { jwtBearerAssertionType } from '@fhir-auth/core/jws'
import {
  buildAuthorizationRequest,
  exchangeAuthorizationCode,
  parseRegistrationResponse,
  parseTokenResponse,
  registerSmartClient,
  type TokenResponse as SmartTokenResponse,
  type jwtBearerAssertionType as smartAssertionType,
} from '@fhir-auth/smart'
import {
  checkUdapTrustInputs,
  type jwtBearerClientAssertionType,
  parseUdapRegistrationResponse,
  parseUdapTokenResponse,
  registerUdapClient,
  requestUdapClientCredentialsToken,
  type TokenResponse as UdapTokenResponse,
  type UdapTrustInputs,
} from '@fhir-auth/udap'
import { describe, expectTypeOf, it } from 'vitest'

describe('functional API types', () => {
  it('smart and udap share core token and registration response types', () => {
    expectTypeOf<SmartTokenResponse>().toEqualTypeOf<TokenResponse>()
    expectTypeOf<UdapTokenResponse>().toEqualTypeOf<TokenResponse>()
    expectTypeOf(parseTokenResponse).returns.toEqualTypeOf<TokenResponse>()
    expectTypeOf(parseUdapTokenResponse).returns.toEqualTypeOf<TokenResponse>()
    expectTypeOf(exchangeAuthorizationCode).returns.resolves.toEqualTypeOf<TokenResponse>()
    expectTypeOf(requestUdapClientCredentialsToken).returns.resolves.toEqualTypeOf<TokenResponse>()
    expectTypeOf(parseRegistrationResponse).returns.toEqualTypeOf<RegistrationResponse>()
    expectTypeOf(parseUdapRegistrationResponse).returns.toEqualTypeOf<RegistrationResponse>()
    expectTypeOf(registerSmartClient).returns.resolves.toEqualTypeOf<RegistrationResponse>()
    expectTypeOf(registerUdapClient).returns.resolves.toEqualTypeOf<RegistrationResponse>()
    expectTypeOf(buildAuthorizationRequest).returns.resolves.toEqualTypeOf<AuthorizationRequest>()
  })

  it('one JWT-bearer assertion type under its three names', () => {
    type AssertionType = typeof jwtBearerAssertionType
    expectTypeOf<AssertionType>().toEqualTypeOf<'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'>()
    expectTypeOf<typeof smartAssertionType>().toEqualTypeOf<AssertionType>()
    expectTypeOf<typeof jwtBearerClientAssertionType>().toEqualTypeOf<AssertionType>()
  })

  it('each function takes one options object', () => {
    expectTypeOf(buildAuthorizationRequest).parameters.toEqualTypeOf<
      [Parameters<typeof buildAuthorizationRequest>[0]]
    >()
    expectTypeOf(checkUdapTrustInputs).returns.toEqualTypeOf<UdapTrustInputs>()
    // @ts-expect-error: options objects, not positional arguments
    buildAuthorizationRequest('https://as.example/authorize', 'client')
  })

  it('a third-party backend is built from @fhir-auth/core/backend alone', () => {
    expectTypeOf<typeof cryptoBackendSpecificationVersion>().toEqualTypeOf<1>()
    expectTypeOf(verifyCertificateChainWith).parameters.toEqualTypeOf<
      [VerifyCertificateChainParams, CertificateChainServices]
    >()
    expectTypeOf(
      verifyCertificateChainWith,
    ).returns.resolves.toEqualTypeOf<VerifiedCertificateChain>()
    expectTypeOf(orderCertificateChain).returns.toEqualTypeOf<ParsedCertificate[]>()
    const backend = {} as CryptoBackend
    expectTypeOf(backend.specificationVersion).toEqualTypeOf<1 | undefined>()
  })
})
