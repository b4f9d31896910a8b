import type { UdapGrantType, UdapSigningAlgorithm } from './options.js'

/** The endpoint URLs a metadata document advertises. */
export interface AdvertisedEndpoints {
  readonly token: string
  readonly registration: string
  readonly authorization?: string
}

/** The server capabilities a metadata document advertises. */
export interface AdvertisedCapabilities {
  readonly grantTypes: readonly UdapGrantType[]
  readonly scopesSupported: readonly string[]
  readonly requiredExtensions: readonly string[]
  readonly tokenSigningAlgorithms: readonly UdapSigningAlgorithm[]
  readonly registrationSigningAlgorithms: readonly UdapSigningAlgorithm[]
  /** Tiered OAuth is supported (as IdP or data holder): profile `udap_to`. */
  readonly tieredOAuth: boolean
}

/**
 * The extensions the server supports: `hl7-b2b` (servers with client_credentials SHALL support
 * it) plus any required one, so that "required" stays a subset of "supported".
 */
export function supportedExtensions(required: readonly string[]): string[] {
  return [...new Set(['hl7-b2b', ...required])]
}

/**
 * The UDAP metadata document of IG STU2 table 2.2, with `signed_metadata` last. Empty arrays
 * say "not supported"; `authorization_endpoint` appears exactly when the grant types include
 * `authorization_code`.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#required-udap-metadata
 */
export function buildUdapMetadata(
  capabilities: AdvertisedCapabilities,
  endpoints: AdvertisedEndpoints,
  signedMetadata: string,
): Record<string, unknown> {
  return {
    udap_versions_supported: ['1'],
    udap_profiles_supported: [
      'udap_dcr',
      'udap_authn',
      'udap_authz',
      ...(capabilities.tieredOAuth ? ['udap_to'] : []),
    ],
    udap_authorization_extensions_supported: supportedExtensions(capabilities.requiredExtensions),
    udap_authorization_extensions_required: [...capabilities.requiredExtensions],
    udap_certifications_supported: [],
    grant_types_supported: [...capabilities.grantTypes],
    scopes_supported: [...capabilities.scopesSupported],
    ...(endpoints.authorization === undefined
      ? {}
      : { authorization_endpoint: endpoints.authorization }),
    token_endpoint: endpoints.token,
    token_endpoint_auth_methods_supported: ['private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: [...capabilities.tokenSigningAlgorithms],
    registration_endpoint: endpoints.registration,
    registration_endpoint_jwt_signing_alg_values_supported: [
      ...capabilities.registrationSigningAlgorithms,
    ],
    signed_metadata: signedMetadata,
  }
}
