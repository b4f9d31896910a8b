/** What the OpenID configuration document advertises. */
export interface OpenIdConfigurationInput {
  readonly issuer: string
  readonly authorizationEndpoint: string
  readonly tokenEndpoint: string
  readonly registrationEndpoint: string
  readonly jwksUri: string
  readonly scopesSupported: readonly string[]
  readonly grantTypes: readonly string[]
  readonly tokenSigningAlgorithms: readonly string[]
}

/**
 * `{issuer}/.well-known/openid-configuration` (OIDC Discovery §3): where a client (or a data
 * holder using this sandbox as its Tiered OAuth IdP) finds the `jwks_uri` and the ID token
 * algorithm. The issuer is the FHIR base URL, so the document sits next to `.well-known/udap`.
 *
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderMetadata
 */
export function buildOpenIdConfiguration(input: OpenIdConfigurationInput): Record<string, unknown> {
  return {
    issuer: input.issuer,
    authorization_endpoint: input.authorizationEndpoint,
    token_endpoint: input.tokenEndpoint,
    registration_endpoint: input.registrationEndpoint,
    jwks_uri: input.jwksUri,
    scopes_supported: [...input.scopesSupported],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...input.grantTypes],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    token_endpoint_auth_methods_supported: ['private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: [...input.tokenSigningAlgorithms],
    code_challenge_methods_supported: ['S256'],
    claims_supported: ['iss', 'sub', 'aud', 'iat', 'exp', 'auth_time', 'nonce', 'name', 'fhirUser'],
  }
}
