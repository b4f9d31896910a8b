import { DiscoveryError } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import { requireDiscoveredEndpoint, SmartMetadata, validateSmartMetadata } from '../src/index.js'
import { captureLogger } from './test-support.js'

const baseUrl = 'https://fhir.example.org/r4'

const compliant = {
  issuer: 'https://auth.example.org',
  jwks_uri: 'https://auth.example.org/jwks',
  authorization_endpoint: 'https://auth.example.org/authorize',
  token_endpoint: 'https://auth.example.org/token',
  grant_types_supported: ['authorization_code', 'client_credentials'],
  capabilities: ['launch-ehr', 'launch-standalone', 'client-public', 'sso-openid-connect'],
  code_challenge_methods_supported: ['S256'],
  x_vendor_extension: { kept: true },
}

function metadata(document: Record<string, unknown>): SmartMetadata {
  return SmartMetadata.fromJson(document, { baseUrl })
}

describe('SmartMetadata.fromJson', () => {
  it.each([
    ['an array', []],
    ['null', null],
    ['a string', '{"token_endpoint":"x"}'],
    ['a number', 42],
  ])('rejects %s with a DiscoveryError naming the endpoint', (_label, json) => {
    const read = () =>
      SmartMetadata.fromJson(json, {
        baseUrl,
        endpoint: 'https://x/.well-known/smart-configuration',
      })
    expect(read).toThrow(DiscoveryError)
    expect(read).toThrow(/not a JSON object/)
    try {
      read()
    } catch (error) {
      expect((error as DiscoveryError).endpoint).toBe('https://x/.well-known/smart-configuration')
    }
  })

  it('rejects an object whose getter throws with a DiscoveryError, not the getter error', () => {
    const hostile = Object.defineProperty({}, 'token_endpoint', {
      enumerable: true,
      get() {
        throw new TypeError('boom')
      },
    })
    expect(() => SmartMetadata.fromJson(hostile, { baseUrl })).toThrow(DiscoveryError)
  })

  it('keeps the whole document, unknown fields included, frozen and detached from the input', () => {
    const input = { ...compliant }
    const parsed = metadata(input)
    input.token_endpoint = 'https://evil.example/token'
    expect(parsed.raw).toEqual(compliant)
    expect(Object.isFrozen(parsed.raw)).toBe(true)
    expect(parsed.raw.x_vendor_extension).toEqual({ kept: true })
    expect(parsed.toJSON()).toEqual(compliant)
    expect(JSON.parse(JSON.stringify(parsed))).toEqual(compliant)
  })

  it('records the discovery URL it came from', () => {
    expect(SmartMetadata.fromJson({}, { baseUrl, endpoint: 'https://d/x' }).discoveryUrl).toBe(
      'https://d/x',
    )
    expect(metadata({}).discoveryUrl).toBeUndefined()
  })
})

describe('SmartMetadata accessors', () => {
  it('reads every field in camelCase', () => {
    const parsed = metadata({
      ...compliant,
      registration_endpoint: 'https://auth.example.org/register',
      management_endpoint: 'https://auth.example.org/manage',
      introspection_endpoint: 'https://auth.example.org/introspect',
      revocation_endpoint: 'https://auth.example.org/revoke',
      scopes_supported: ['openid', 'patient/*.rs'],
      response_types_supported: ['code'],
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: ['ES384'],
      associated_endpoints: [{ url: 'https://dicom.example.org', capabilities: ['dicom'] }],
      user_access_brand_bundle: 'https://brands.example.org/bundle.json',
      user_access_brand_identifier: { system: 'urn:ietf:rfc:3986', value: 'https://brand' },
    })
    expect(parsed.issuer).toBe('https://auth.example.org')
    expect(parsed.jwksUri).toBe('https://auth.example.org/jwks')
    expect(parsed.authorizationEndpoint).toBe('https://auth.example.org/authorize')
    expect(parsed.tokenEndpoint).toBe('https://auth.example.org/token')
    expect(parsed.registrationEndpoint).toBe('https://auth.example.org/register')
    expect(parsed.managementEndpoint).toBe('https://auth.example.org/manage')
    expect(parsed.introspectionEndpoint).toBe('https://auth.example.org/introspect')
    expect(parsed.revocationEndpoint).toBe('https://auth.example.org/revoke')
    expect(parsed.capabilities).toEqual(compliant.capabilities)
    expect(parsed.grantTypesSupported).toEqual(compliant.grant_types_supported)
    expect(parsed.scopesSupported).toEqual(['openid', 'patient/*.rs'])
    expect(parsed.responseTypesSupported).toEqual(['code'])
    expect(parsed.codeChallengeMethodsSupported).toEqual(['S256'])
    expect(parsed.tokenEndpointAuthMethodsSupported).toEqual(['private_key_jwt'])
    expect(parsed.tokenEndpointAuthSigningAlgValuesSupported).toEqual(['ES384'])
    expect(parsed.associatedEndpoints).toEqual([
      { url: 'https://dicom.example.org', capabilities: ['dicom'] },
    ])
    expect(parsed.userAccessBrandBundle).toBe('https://brands.example.org/bundle.json')
    expect(parsed.userAccessBrandIdentifier).toEqual({
      system: 'urn:ietf:rfc:3986',
      value: 'https://brand',
    })
  })

  it('resolves endpoint URLs without a scheme against the FHIR base', () => {
    const parsed = metadata({
      authorization_endpoint: 'auth/authorize',
      token_endpoint: '/oauth/token',
      registration_endpoint: 'https://other.example.org/register',
      jwks_uri: '../jwks',
    })
    expect(parsed.authorizationEndpoint).toBe('https://fhir.example.org/r4/auth/authorize')
    expect(parsed.tokenEndpoint).toBe('https://fhir.example.org/oauth/token')
    expect(parsed.registrationEndpoint).toBe('https://other.example.org/register')
    expect(parsed.jwksUri).toBe('https://fhir.example.org/jwks')
  })

  it('resolves against a base URL with trailing slashes the same way', () => {
    const parsed = SmartMetadata.fromJson(
      { token_endpoint: 'token' },
      { baseUrl: 'https://fhir.example.org/r4//' },
    )
    expect(parsed.tokenEndpoint).toBe('https://fhir.example.org/r4/token')
  })

  it.each(['', ' ', '\t\n'])(
    'reads a blank endpoint (%j) as absent, never as the base URL (DESIGN §12)',
    (blank) => {
      const parsed = metadata({
        authorization_endpoint: blank,
        token_endpoint: blank,
        registration_endpoint: blank,
        jwks_uri: blank,
        issuer: blank,
        capabilities: ['launch-standalone'],
      })
      expect(parsed.authorizationEndpoint).toBeUndefined()
      expect(parsed.tokenEndpoint).toBeUndefined()
      expect(parsed.registrationEndpoint).toBeUndefined()
      expect(parsed.jwksUri).toBeUndefined()
      expect(parsed.issuer).toBeUndefined()
      expect(parsed.supportsStandaloneLaunch()).toBe(false)
    },
  )

  it('leaves a network-path reference to another server unresolved, so that it is never used', () => {
    const parsed = metadata({
      token_endpoint: '//evil.example/token',
      jwks_uri: '//fhir.example.org/jwks',
    })
    expect(parsed.tokenEndpoint).toBe('//evil.example/token')
    // The same origin written as a network path resolves (it names no other server).
    expect(parsed.jwksUri).toBe('https://fhir.example.org/jwks')
    expect(() => requireDiscoveredEndpoint(parsed, 'token_endpoint', false)).toThrow(
      /not an absolute URL/,
    )
  })

  it('leaves a value as it is when the base URL cannot resolve it', () => {
    const parsed = SmartMetadata.fromJson({ token_endpoint: 'token' }, { baseUrl: 'not a url' })
    expect(parsed.tokenEndpoint).toBe('token')
  })

  it('reads absent or mistyped fields as undefined and keeps only strings in lists', () => {
    const parsed = metadata({
      token_endpoint: 42,
      authorization_endpoint: '',
      issuer: ['x'],
      capabilities: 'launch-ehr',
      grant_types_supported: ['authorization_code', 7, null],
      associated_endpoints: [{ url: 5 }, 'x', { url: 'https://a' }],
      user_access_brand_identifier: 'id',
    })
    expect(parsed.tokenEndpoint).toBeUndefined()
    expect(parsed.authorizationEndpoint).toBeUndefined()
    expect(parsed.issuer).toBeUndefined()
    expect(parsed.capabilities).toEqual([])
    expect(parsed.grantTypesSupported).toEqual(['authorization_code'])
    expect(parsed.scopesSupported).toBeUndefined()
    expect(parsed.associatedEndpoints).toEqual([{ url: 'https://a', capabilities: [] }])
    expect(parsed.userAccessBrandIdentifier).toBeUndefined()
  })
})

describe('SmartMetadata predicates', () => {
  it('supportsSymmetricAuth needs the capability and client_secret_basic when methods are listed', () => {
    const capability = { capabilities: ['client-confidential-symmetric'] }
    expect(metadata(capability).supportsSymmetricAuth()).toBe(true)
    expect(
      metadata({
        ...capability,
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      }).supportsSymmetricAuth(),
    ).toBe(true)
    expect(
      metadata({
        ...capability,
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
      }).supportsSymmetricAuth(),
    ).toBe(false)
    expect(metadata({ capabilities: [] }).supportsSymmetricAuth()).toBe(false)
  })

  it('supportsAsymmetricAuth needs the capability, private_key_jwt and RS384 or ES384 when listed', () => {
    const capability = { capabilities: ['client-confidential-asymmetric'] }
    expect(metadata(capability).supportsAsymmetricAuth()).toBe(true)
    expect(
      metadata({
        ...capability,
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
        token_endpoint_auth_signing_alg_values_supported: ['RS384'],
      }).supportsAsymmetricAuth(),
    ).toBe(true)
    expect(
      metadata({
        ...capability,
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      }).supportsAsymmetricAuth(),
    ).toBe(false)
    expect(
      metadata({
        ...capability,
        token_endpoint_auth_signing_alg_values_supported: ['RS256', 'ES256'],
      }).supportsAsymmetricAuth(),
    ).toBe(false)
    expect(metadata({ capabilities: ['client-public'] }).supportsAsymmetricAuth()).toBe(false)
  })

  it('supportsBackendServices needs the client_credentials grant and asymmetric auth', () => {
    const asymmetric = { capabilities: ['client-confidential-asymmetric'] }
    expect(
      metadata({
        ...asymmetric,
        grant_types_supported: ['client_credentials'],
      }).supportsBackendServices(),
    ).toBe(true)
    expect(
      metadata({
        ...asymmetric,
        grant_types_supported: ['authorization_code'],
      }).supportsBackendServices(),
    ).toBe(false)
    expect(
      metadata({
        capabilities: [],
        grant_types_supported: ['client_credentials'],
      }).supportsBackendServices(),
    ).toBe(false)
  })

  it('launch predicates need the capability and an authorization endpoint', () => {
    const endpoint = { authorization_endpoint: 'https://a/authorize' }
    expect(metadata({ ...endpoint, capabilities: ['launch-ehr'] }).supportsEhrLaunch()).toBe(true)
    expect(metadata({ capabilities: ['launch-ehr'] }).supportsEhrLaunch()).toBe(false)
    expect(
      metadata({ ...endpoint, capabilities: ['launch-standalone'] }).supportsStandaloneLaunch(),
    ).toBe(true)
    expect(metadata({ ...endpoint, capabilities: ['launch-ehr'] }).supportsStandaloneLaunch()).toBe(
      false,
    )
  })

  it('capability-only predicates follow their capability', () => {
    const all = metadata({ capabilities: ['client-public', 'authorize-post'] })
    expect(all.supportsPublicAuth()).toBe(true)
    expect(all.supportsPostAuthorization()).toBe(true)
    const none = metadata({ capabilities: [] })
    expect(none.supportsPublicAuth()).toBe(false)
    expect(none.supportsPostAuthorization()).toBe(false)
  })

  it('supportsOpenIdConnect needs the capability, issuer and jwks_uri', () => {
    expect(metadata(compliant).supportsOpenIdConnect()).toBe(true)
    expect(metadata({ ...compliant, jwks_uri: undefined }).supportsOpenIdConnect()).toBe(false)
    expect(metadata({ ...compliant, capabilities: [] }).supportsOpenIdConnect()).toBe(false)
  })

  it('supportsDynamicRegistration and supportsPkceS256 follow their fields', () => {
    expect(
      metadata({ registration_endpoint: 'https://a/register' }).supportsDynamicRegistration(),
    ).toBe(true)
    expect(metadata({}).supportsDynamicRegistration()).toBe(false)
    expect(metadata({ code_challenge_methods_supported: ['S256'] }).supportsPkceS256()).toBe(true)
    expect(metadata({ code_challenge_methods_supported: ['plain'] }).supportsPkceS256()).toBe(false)
    expect(metadata({}).supportsPkceS256()).toBe(false)
  })
})

describe('validateSmartMetadata', () => {
  it('accepts a compliant document without a warning', () => {
    const logger = captureLogger()
    expect(validateSmartMetadata(metadata(compliant), logger)).toBe(true)
    expect(logger.lines).toEqual([])
  })

  it('warns once per missing required field', () => {
    const logger = captureLogger()
    expect(validateSmartMetadata(metadata({}), logger)).toBe(false)
    expect(logger.warnings()).toEqual([
      "SMART metadata non-compliance: required field 'grant_types_supported' is missing",
      "SMART metadata non-compliance: required field 'token_endpoint' is missing",
      "SMART metadata non-compliance: required field 'capabilities' is missing",
      "SMART metadata non-compliance: required field 'code_challenge_methods_supported' is missing",
    ])
  })

  it('warns about fields of the wrong type', () => {
    const logger = captureLogger()
    expect(
      validateSmartMetadata(
        metadata({ ...compliant, token_endpoint: 5, grant_types_supported: 'code' }),
        logger,
      ),
    ).toBe(false)
    expect(logger.warnings()).toEqual([
      "SMART metadata non-compliance: 'grant_types_supported' must be an array",
      "SMART metadata non-compliance: 'token_endpoint' must be a non-empty string",
    ])
  })

  it('requires authorization_endpoint for launch capabilities and issuer + jwks_uri for OpenID Connect', () => {
    const logger = captureLogger()
    const document = {
      ...compliant,
      authorization_endpoint: undefined,
      issuer: undefined,
      jwks_uri: undefined,
    }
    expect(validateSmartMetadata(metadata(document), logger)).toBe(false)
    expect(logger.warnings()).toEqual([
      "SMART metadata non-compliance: required field 'authorization_endpoint' is missing",
      "SMART metadata non-compliance: required field 'issuer' is missing",
      "SMART metadata non-compliance: required field 'jwks_uri' is missing",
    ])
    const backendOnly = captureLogger()
    const { authorization_endpoint: _a, issuer: _i, jwks_uri: _j, ...rest } = compliant
    expect(
      validateSmartMetadata(
        metadata({ ...rest, capabilities: ['client-confidential-asymmetric'] }),
        backendOnly,
      ),
    ).toBe(true)
  })

  it('warns when S256 is missing and when plain is present', () => {
    const logger = captureLogger()
    expect(
      validateSmartMetadata(
        metadata({ ...compliant, code_challenge_methods_supported: ['plain'] }),
        logger,
      ),
    ).toBe(false)
    expect(logger.warnings()).toEqual([
      "SMART metadata non-compliance: code_challenge_methods_supported lacks 'S256' (required)",
      "SMART metadata non-compliance: code_challenge_methods_supported has 'plain' (prohibited)",
    ])
  })

  it('never throws, even with a logger that throws', () => {
    const throwing = {
      info() {},
      error() {},
      warn() {
        throw new Error('logger down')
      },
    }
    expect(validateSmartMetadata(metadata({}), throwing)).toBe(false)
  })
})
