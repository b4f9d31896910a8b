import { type CertificateInfo, ConfigurationError } from '@fhir-auth/core/essentials'
import { frozenJsonCopy } from './json-value.js'
import type { UdapMetadataDocument } from './metadata-document.js'

/** What a {@link UdapMetadata} is built from: the outputs of the discovery checks. */
export interface UdapMetadataSource {
  /** The unsigned document as received. */
  readonly raw: Readonly<Record<string, unknown>>
  /** The same document after `parseUdapMetadata`, with the signed claims' values in place. */
  readonly document: UdapMetadataDocument
  /** The claims of the verified `signed_metadata`. */
  readonly signedClaims: Readonly<Record<string, unknown>>
  /** The leaf certificate that signed `signed_metadata`. */
  readonly serverCertificate: CertificateInfo
  /**
   * The earliest `notAfter` of the certificate path `signed_metadata` was validated along;
   * default the server certificate's.
   */
  readonly chainNotAfter?: Date | undefined
}

/**
 * A FHIR server's UDAP metadata whose `signed_metadata` has been verified. Immutable.
 *
 * The endpoints come from the signed claims: IG STU2 says signed values SHALL take
 * precedence, and an endpoint the server did not sign is never used (`authorizationEndpoint`
 * is `undefined` when the signed claims have none). The other accessors read the document as
 * checked by `parseUdapMetadata`, with every value the signed claims carry in place of the
 * unsigned one; every list is an array of strings, empty when the server sent none (an empty
 * list means "not supported"). The untouched documents are `raw` and `signedClaims`.
 *
 * Instances come from `discoverUdapMetadata`, which never returns unverified metadata.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html
 */
export class UdapMetadata {
  /** The unsigned document as received (deeply frozen copy). */
  readonly raw: Readonly<Record<string, unknown>>
  /** The verified `signed_metadata` claims (deeply frozen copy). */
  readonly signedClaims: Readonly<Record<string, unknown>>
  /** The leaf of the `signed_metadata` `x5c` chain, which chained to a trusted anchor. */
  readonly serverCertificate: CertificateInfo
  /**
   * Until when this verification holds: the `signed_metadata` `exp`, or the earliest `notAfter`
   * of the certificate path it was validated along when that comes first. After it, the
   * metadata must be discovered and validated again before it is relied on.
   *
   * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#signed-metadata-elements
   */
  readonly validUntil: Date
  readonly #document: UdapMetadataDocument
  readonly #tokenEndpoint: string
  readonly #registrationEndpoint: string
  readonly #authorizationEndpoint: string | undefined

  /**
   * @throws ConfigurationError `signedClaims` when the signed claims lack a string
   *   `token_endpoint` or `registration_endpoint` (`verifySignedMetadata` guarantees both).
   */
  constructor(source: UdapMetadataSource) {
    const signedClaims = frozenJsonCopy({ ...source.signedClaims })
    const { token_endpoint, registration_endpoint, authorization_endpoint } = signedClaims
    if (typeof token_endpoint !== 'string' || typeof registration_endpoint !== 'string') {
      throw new ConfigurationError({
        invalidAttribute: 'signedClaims',
        message:
          'UdapMetadata needs verified signed claims with token_endpoint and registration_endpoint',
      })
    }
    this.raw = frozenJsonCopy({ ...source.raw })
    this.signedClaims = signedClaims
    this.serverCertificate = Object.freeze({ ...source.serverCertificate })
    this.validUntil = validUntil(
      signedClaims.exp,
      source.chainNotAfter ?? source.serverCertificate.notAfter,
    )
    this.#document = source.document
    this.#tokenEndpoint = token_endpoint
    this.#registrationEndpoint = registration_endpoint
    this.#authorizationEndpoint =
      typeof authorization_endpoint === 'string' && authorization_endpoint.trim() !== ''
        ? authorization_endpoint
        : undefined
    Object.freeze(this)
  }

  /**
   * RFC 9207 `authorization_response_iss_parameter_supported`, signed value first (IG STU2:
   * signed values take precedence), else the unsigned one: `true` means every authorization
   * response carries `iss`, and one without it must be refused.
   *
   * @see https://www.rfc-editor.org/rfc/rfc9207#section-3
   */
  get authorizationResponseIssParameterSupported(): boolean {
    const member = 'authorization_response_iss_parameter_supported'
    return (this.signedClaims[member] ?? this.raw[member]) === true
  }

  /** The signed `token_endpoint`: use it exactly as published (it is the `aud` of assertions). */
  get tokenEndpoint(): string {
    return this.#tokenEndpoint
  }

  /** The signed `registration_endpoint` (the `aud` of software statements). */
  get registrationEndpoint(): string {
    return this.#registrationEndpoint
  }

  /** The signed `authorization_endpoint`, when the server signed one. */
  get authorizationEndpoint(): string | undefined {
    return this.#authorizationEndpoint
  }

  /** `udap_versions_supported` (STU2: `["1"]`). */
  get udapVersionsSupported(): readonly string[] {
    return this.#document.udap_versions_supported
  }

  /** `udap_profiles_supported`: `udap_dcr`, `udap_authn`, `udap_authz`, `udap_to`. */
  get udapProfilesSupported(): readonly string[] {
    return this.#document.udap_profiles_supported
  }

  /** `udap_authorization_extensions_supported`, e.g. `["hl7-b2b"]`. */
  get udapAuthorizationExtensionsSupported(): readonly string[] {
    return this.#document.udap_authorization_extensions_supported
  }

  /** `udap_authorization_extensions_required`: extensions every token request must carry. */
  get udapAuthorizationExtensionsRequired(): readonly string[] {
    return this.#document.udap_authorization_extensions_required
  }

  /** `udap_certifications_supported`: certification URIs the server understands. */
  get udapCertificationsSupported(): readonly string[] {
    return this.#document.udap_certifications_supported
  }

  /** `udap_certifications_required`: certifications every registration must carry. */
  get udapCertificationsRequired(): readonly string[] {
    return this.#document.udap_certifications_required
  }

  /** `grant_types_supported`. */
  get grantTypesSupported(): readonly string[] {
    return this.#document.grant_types_supported
  }

  /** `scopes_supported`. */
  get scopesSupported(): readonly string[] {
    return this.#document.scopes_supported
  }

  /** `token_endpoint_auth_methods_supported` (STU2: `["private_key_jwt"]`). */
  get tokenEndpointAuthMethodsSupported(): readonly string[] {
    return this.#document.token_endpoint_auth_methods_supported
  }

  /** `token_endpoint_auth_signing_alg_values_supported`: algorithms for authentication tokens. */
  get tokenEndpointAuthSigningAlgValuesSupported(): readonly string[] {
    return this.#document.token_endpoint_auth_signing_alg_values_supported
  }

  /** `registration_endpoint_jwt_signing_alg_values_supported`: algorithms for software statements. */
  get registrationEndpointJwtSigningAlgValuesSupported(): readonly string[] {
    return this.#document.registration_endpoint_jwt_signing_alg_values_supported
  }

  /** True when the server lists the `client_credentials` grant (B2B). */
  supportsClientCredentials(): boolean {
    return this.grantTypesSupported.includes('client_credentials')
  }

  /** True when the server lists `authorization_code` and signed an authorization endpoint. */
  supportsAuthorizationCode(): boolean {
    return (
      this.grantTypesSupported.includes('authorization_code') &&
      this.#authorizationEndpoint !== undefined
    )
  }

  /** True when refresh tokens are offered (STU2: only with `authorization_code`). */
  supportsRefreshToken(): boolean {
    return this.grantTypesSupported.includes('refresh_token') && this.supportsAuthorizationCode()
  }

  /** True when the server offers UDAP Dynamic Client Registration (`udap_dcr`). */
  supportsRegistration(): boolean {
    return this.udapProfilesSupported.includes('udap_dcr')
  }

  /** True when the server supports the `hl7-b2b` authorization extension. */
  supportsB2bExtension(): boolean {
    return this.udapAuthorizationExtensionsSupported.includes('hl7-b2b')
  }

  /** True when every token request must carry an `hl7-b2b` extension. */
  requiresB2bExtension(): boolean {
    return this.udapAuthorizationExtensionsRequired.includes('hl7-b2b')
  }

  /** True when the server supports Tiered OAuth (`udap_to` profile and the `udap` scope). */
  supportsTieredOAuth(): boolean {
    return this.udapProfilesSupported.includes('udap_to') && this.scopesSupported.includes('udap')
  }

  /** A plain, secret-free view: both documents, the endpoints in use and the server certificate. */
  toJSON(): Record<string, unknown> {
    const certificate = this.serverCertificate
    return {
      tokenEndpoint: this.tokenEndpoint,
      registrationEndpoint: this.registrationEndpoint,
      authorizationEndpoint: this.authorizationEndpoint,
      raw: this.raw,
      signedClaims: this.signedClaims,
      serverCertificate: {
        subject: certificate.subject,
        issuer: certificate.issuer,
        serialNumber: certificate.serialNumber,
        notBefore: certificate.notBefore.toISOString(),
        notAfter: certificate.notAfter.toISOString(),
        subjectAltNameUris: certificate.subjectAltNameUris,
      },
    }
  }
}

/** The earlier of `exp` (NumericDate seconds; a missing one has expired) and `notAfter`. */
function validUntil(exp: unknown, notAfter: Date): Date {
  const expMs = typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : 0
  return new Date(Math.min(expMs, notAfter.getTime()))
}
