import { type CertificateInfo, DiscoveryError } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import { parseUdapMetadata, UdapMetadata } from '../src/index.js'
import { authorizationEndpoint, registrationEndpoint, tokenEndpoint } from './support/pki.js'
import { metadataDocument } from './support/udap-server.js'

const endpoint = 'https://fhir.example.test/r4/.well-known/udap'
const jwsShape = 'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ4In0.c2ln'

function parse(overrides: Record<string, unknown> = {}, allowInsecureLocalhost = false) {
  return parseUdapMetadata(metadataDocument(jwsShape, overrides), {
    endpoint,
    allowInsecureLocalhost,
  })
}

function fatal(overrides: Record<string, unknown>, pattern: RegExp): void {
  let caught: unknown
  try {
    parse(overrides)
  } catch (error) {
    caught = error
  }
  expect(caught).toBeInstanceOf(DiscoveryError)
  expect((caught as DiscoveryError).endpoint).toBe(endpoint)
  expect((caught as DiscoveryError).message).toMatch(pattern)
}

describe('parseUdapMetadata', () => {
  it('accepts a conformant document without problems', () => {
    const { document, problems } = parse()
    expect(problems).toEqual([])
    expect(document.token_endpoint).toBe(tokenEndpoint)
    expect(document.registration_endpoint).toBe(registrationEndpoint)
    expect(document.grant_types_supported).toEqual(['client_credentials'])
    expect(document.signed_metadata).toBe(jwsShape)
    expect(Object.isFrozen(document)).toBe(true)
  })

  describe('fatal problems', () => {
    it('refuses a value that is not a JSON object', () => {
      for (const value of [null, [], 'text', 1]) {
        expect(() => parseUdapMetadata(value, { endpoint, allowInsecureLocalhost: false })).toThrow(
          /not a JSON object/,
        )
      }
    })

    it('refuses missing or non-HTTPS token and registration endpoints', () => {
      fatal({ token_endpoint: undefined }, /token_endpoint is missing/)
      fatal(
        { token_endpoint: 'http://auth.example.test/token' },
        /token_endpoint is not an HTTPS URL/,
      )
      fatal({ token_endpoint: ['x'] }, /token_endpoint is not a string/)
      fatal({ registration_endpoint: undefined }, /registration_endpoint is missing/)
      fatal({ registration_endpoint: '/register' }, /registration_endpoint is not an absolute URL/)
    })

    it('counts a blank endpoint as absent (DESIGN §12)', () => {
      fatal({ token_endpoint: '' }, /token_endpoint is missing/)
      fatal({ registration_endpoint: '  ' }, /registration_endpoint is missing/)
      for (const blank of ['', ' ', '\t']) {
        const { document } = parse({ authorization_endpoint: blank })
        expect(document.authorization_endpoint).toBeUndefined()
      }
    })

    it('refuses an authorization endpoint that is present but not HTTPS', () => {
      fatal(
        { authorization_endpoint: 'http://auth.example.test/authorize' },
        /authorization_endpoint is not an HTTPS URL/,
      )
    })

    it('accepts loopback HTTP endpoints only with allowInsecureLocalhost', () => {
      const loopback = { token_endpoint: 'http://localhost:8080/token' }
      expect(() => parse(loopback)).toThrow(DiscoveryError)
      expect(parse(loopback, true).document.token_endpoint).toBe('http://localhost:8080/token')
    })

    it('refuses missing or empty signing algorithm lists', () => {
      fatal(
        { token_endpoint_auth_signing_alg_values_supported: undefined },
        /token_endpoint_auth_signing_alg_values_supported is missing/,
      )
      fatal(
        { token_endpoint_auth_signing_alg_values_supported: [] },
        /token_endpoint_auth_signing_alg_values_supported is empty/,
      )
      fatal(
        { registration_endpoint_jwt_signing_alg_values_supported: 'RS256' },
        /registration_endpoint_jwt_signing_alg_values_supported is not an array/,
      )
      fatal(
        { registration_endpoint_jwt_signing_alg_values_supported: [256] },
        /registration_endpoint_jwt_signing_alg_values_supported contains entries that are not strings/,
      )
    })

    it('refuses a missing or malformed signed_metadata', () => {
      fatal({ signed_metadata: undefined }, /signed_metadata is missing/)
      fatal({ signed_metadata: 'abc.def' }, /signed_metadata is not a compact JWS/)
      fatal({ signed_metadata: { jwt: 'x' } }, /signed_metadata is not a compact JWS/)
    })

    it('refuses a document without UDAP version 1', () => {
      fatal({ udap_versions_supported: ['2'] }, /udap_versions_supported does not include "1"/)
      fatal({ udap_versions_supported: undefined }, /udap_versions_supported is missing/)
    })

    it('lists every fatal problem at once', () => {
      fatal(
        { token_endpoint: undefined, signed_metadata: undefined },
        /token_endpoint is missing; signed_metadata is missing/,
      )
    })
  })

  describe('tolerated problems', () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      [
        'extra UDAP versions',
        { udap_versions_supported: ['1', '2'] },
        /udap_versions_supported is not exactly \["1"\]/,
      ],
      [
        'profiles without udap_dcr',
        { udap_profiles_supported: ['udap_authn', 'udap_authz'] },
        /udap_profiles_supported lacks udap_dcr/,
      ],
      [
        'profiles without udap_authn',
        { udap_profiles_supported: ['udap_dcr', 'udap_authz'] },
        /udap_profiles_supported lacks udap_authn/,
      ],
      [
        'client_credentials without udap_authz',
        { udap_profiles_supported: ['udap_dcr', 'udap_authn'] },
        /lacks udap_authz although client_credentials/,
      ],
      [
        'missing profiles',
        { udap_profiles_supported: undefined },
        /udap_profiles_supported is missing/,
      ],
      [
        'no main grant type',
        { grant_types_supported: ['refresh_token'] },
        /neither authorization_code nor client_credentials/,
      ],
      [
        'refresh_token without authorization_code',
        { grant_types_supported: ['client_credentials', 'refresh_token'] },
        /refresh_token without authorization_code/,
      ],
      [
        'authorization_code without authorization_endpoint',
        { grant_types_supported: ['authorization_code'] },
        /authorization_endpoint is missing although authorization_code/,
      ],
      [
        'authorization_endpoint without authorization_code',
        { authorization_endpoint: authorizationEndpoint },
        /authorization_endpoint is present although authorization_code is not supported/,
      ],
      ['empty scopes_supported', { scopes_supported: [] }, /scopes_supported is empty/],
      ['missing scopes_supported', { scopes_supported: undefined }, /scopes_supported is missing/],
      [
        'other auth methods',
        { token_endpoint_auth_methods_supported: ['private_key_jwt', 'client_secret_basic'] },
        /not exactly \["private_key_jwt"\]/,
      ],
      [
        'required extensions missing',
        { udap_authorization_extensions_required: undefined },
        /udap_authorization_extensions_required is missing although udap_authorization_extensions_supported is not empty/,
      ],
      [
        'required extensions not a subset',
        { udap_authorization_extensions_required: ['hl7-b2b', 'tefca-ias'] },
        /udap_authorization_extensions_required is not a subset/,
      ],
      [
        'required certifications missing',
        { udap_certifications_supported: ['https://cert.example/a'] },
        /udap_certifications_required is missing/,
      ],
      [
        'required certifications not a subset',
        { udap_certifications_required: ['https://cert.example/b'] },
        /udap_certifications_required is not a subset/,
      ],
      [
        'missing extensions_supported',
        {
          udap_authorization_extensions_supported: undefined,
          udap_authorization_extensions_required: undefined,
        },
        /udap_authorization_extensions_supported is missing/,
      ],
    ]
    for (const [name, overrides, pattern] of cases) {
      it(`reports ${name} as a problem`, () => {
        const { problems } = parse(overrides)
        expect(
          problems.some((problem) => pattern.test(problem)),
          problems.join(' | '),
        ).toBe(true)
      })
    }

    it('reads malformed lists as empty, so capabilities read as unsupported', () => {
      const { document, problems } = parse({
        grant_types_supported: 'client_credentials',
        scopes_supported: ['a', 1],
      })
      expect(document.grant_types_supported).toEqual([])
      expect(document.scopes_supported).toEqual(['a'])
      expect(problems).toContain('grant_types_supported is not an array')
      expect(problems).toContain('scopes_supported contains entries that are not strings')
    })
  })
})

describe('UdapMetadata', () => {
  const certificate: CertificateInfo = {
    der: new Uint8Array([1]),
    subject: 'CN=server',
    issuer: 'CN=intermediate',
    serialNumber: '0a',
    notBefore: new Date('2026-01-01T00:00:00Z'),
    notAfter: new Date('2027-01-01T00:00:00Z'),
    subjectAltNameUris: ['https://fhir.example.test/r4'],
    publicKeySpki: new Uint8Array([2]),
    publicKeyJwk: { kty: 'EC' },
    isCertificateAuthority: false,
  }

  function metadata(overrides: Record<string, unknown> = {}, signed: Record<string, unknown> = {}) {
    const { document } = parse(overrides)
    return new UdapMetadata({
      raw: metadataDocument(jwsShape, overrides),
      document,
      signedClaims: {
        token_endpoint: tokenEndpoint,
        registration_endpoint: registrationEndpoint,
        ...signed,
      },
      serverCertificate: certificate,
    })
  }

  it('exposes every STU2 list', () => {
    const value = metadata()
    expect(value.udapVersionsSupported).toEqual(['1'])
    expect(value.udapProfilesSupported).toEqual(['udap_dcr', 'udap_authn', 'udap_authz'])
    expect(value.udapAuthorizationExtensionsSupported).toEqual(['hl7-b2b'])
    expect(value.udapAuthorizationExtensionsRequired).toEqual(['hl7-b2b'])
    expect(value.udapCertificationsSupported).toEqual([])
    expect(value.udapCertificationsRequired).toEqual([])
    expect(value.grantTypesSupported).toEqual(['client_credentials'])
    expect(value.scopesSupported).toEqual(['system/*.rs', 'system/Patient.rs'])
    expect(value.tokenEndpointAuthMethodsSupported).toEqual(['private_key_jwt'])
    expect(value.tokenEndpointAuthSigningAlgValuesSupported).toEqual(['RS256', 'ES256', 'ES384'])
    expect(value.registrationEndpointJwtSigningAlgValuesSupported).toEqual([
      'RS256',
      'ES256',
      'ES384',
    ])
  })

  it('takes endpoints from the signed claims only', () => {
    const value = metadata(
      {
        authorization_endpoint: 'https://unsigned.example/authorize',
        grant_types_supported: ['authorization_code'],
      },
      { token_endpoint: 'https://signed.example/token' },
    )
    expect(value.tokenEndpoint).toBe('https://signed.example/token')
    expect(value.authorizationEndpoint).toBeUndefined()
    expect(value.supportsAuthorizationCode()).toBe(false)
  })

  it('answers capability predicates from the lists', () => {
    const b2b = metadata()
    expect(b2b.supportsClientCredentials()).toBe(true)
    expect(b2b.supportsAuthorizationCode()).toBe(false)
    expect(b2b.supportsRefreshToken()).toBe(false)
    expect(b2b.supportsRegistration()).toBe(true)
    expect(b2b.supportsB2bExtension()).toBe(true)
    expect(b2b.requiresB2bExtension()).toBe(true)
    expect(b2b.supportsTieredOAuth()).toBe(false)
    const consumer = metadata(
      {
        grant_types_supported: ['authorization_code', 'refresh_token'],
        udap_profiles_supported: ['udap_authn', 'udap_to'],
        udap_authorization_extensions_required: [],
        scopes_supported: ['openid', 'udap'],
        authorization_endpoint: authorizationEndpoint,
      },
      { authorization_endpoint: authorizationEndpoint },
    )
    expect(consumer.supportsClientCredentials()).toBe(false)
    expect(consumer.supportsAuthorizationCode()).toBe(true)
    expect(consumer.supportsRefreshToken()).toBe(true)
    expect(consumer.supportsRegistration()).toBe(false)
    expect(consumer.requiresB2bExtension()).toBe(false)
    expect(consumer.supportsTieredOAuth()).toBe(true)
  })

  it('is immutable, including the documents it holds', () => {
    const value = metadata()
    expect(Object.isFrozen(value)).toBe(true)
    expect(Object.isFrozen(value.raw)).toBe(true)
    expect(Object.isFrozen(value.raw.grant_types_supported)).toBe(true)
    expect(Object.isFrozen(value.signedClaims)).toBe(true)
    expect(() => {
      ;(value.udapProfilesSupported as string[]).push('x')
    }).toThrow(TypeError)
  })

  it('serialises to a plain view with the endpoints in use', () => {
    const json = JSON.parse(JSON.stringify(metadata()))
    expect(json).toMatchObject({
      tokenEndpoint,
      registrationEndpoint,
      serverCertificate: { subject: 'CN=server', notAfter: '2027-01-01T00:00:00.000Z' },
    })
  })

  it('reads authorization_response_iss_parameter_supported signed first, else unsigned', () => {
    const flag = 'authorization_response_iss_parameter_supported'
    expect(metadata().authorizationResponseIssParameterSupported).toBe(false)
    expect(metadata({ [flag]: true }).authorizationResponseIssParameterSupported).toBe(true)
    expect(metadata({}, { [flag]: true }).authorizationResponseIssParameterSupported).toBe(true)
    // IG STU2 §2.3: a signed value wins over the unsigned one, either way.
    expect(
      metadata({ [flag]: true }, { [flag]: false }).authorizationResponseIssParameterSupported,
    ).toBe(false)
    expect(
      metadata({ [flag]: false }, { [flag]: true }).authorizationResponseIssParameterSupported,
    ).toBe(true)
    // Only JSON true counts: "true" is not a boolean.
    expect(metadata({ [flag]: 'true' }).authorizationResponseIssParameterSupported).toBe(false)
  })

  it('holds until the signed exp or the earliest notAfter of its chain, whichever comes first', () => {
    const exp = Date.parse('2026-06-01T00:00:00Z') / 1000
    const { document } = parse()
    const signedClaims = {
      token_endpoint: tokenEndpoint,
      registration_endpoint: registrationEndpoint,
    }
    const build = (claims: Record<string, unknown>, chainNotAfter?: Date) =>
      new UdapMetadata({
        raw: {},
        document,
        signedClaims: { ...signedClaims, ...claims },
        serverCertificate: certificate,
        chainNotAfter,
      })
    expect(build({ exp }).validUntil.toISOString()).toBe('2026-06-01T00:00:00.000Z')
    // The leaf expires first (no chain given: the server certificate's own notAfter).
    expect(build({ exp: exp + 366 * 86_400 }).validUntil).toEqual(certificate.notAfter)
    // An intermediate that expires before both.
    const intermediateExpiry = new Date('2026-03-01T00:00:00Z')
    expect(build({ exp }, intermediateExpiry).validUntil).toEqual(intermediateExpiry)
    // Without a numeric exp, it never held.
    expect(build({ exp: '2026-06-01' }).validUntil.getTime()).toBe(0)
  })

  it('refuses signed claims without endpoints', () => {
    const { document } = parse()
    expect(
      () =>
        new UdapMetadata({ raw: {}, document, signedClaims: {}, serverCertificate: certificate }),
    ).toThrow(/token_endpoint and registration_endpoint/)
  })
})
