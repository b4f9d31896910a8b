/**
 * Valid server documents that the hostile cases start from: every member a real server sends,
 * so mutations hit the fields the library reads.
 */

/** The SMART capabilities a full-featured server advertises (SMART App Launch 2.2.0 §capabilities). */
export const smartCapabilities: readonly string[] = [
  'launch-ehr',
  'launch-standalone',
  'authorize-post',
  'client-public',
  'client-confidential-symmetric',
  'client-confidential-asymmetric',
  'context-passthrough-banner',
  'context-passthrough-style',
  'context-ehr-patient',
  'context-ehr-encounter',
  'context-standalone-patient',
  'context-standalone-encounter',
  'permission-offline',
  'permission-patient',
  'permission-v2',
  'sso-openid-connect',
]

/**
 * A complete `.well-known/smart-configuration` for a server at `origin`, every URL HTTPS.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/conformance.html#metadata
 */
export function validSmartConfiguration(origin: string): Record<string, unknown> {
  return {
    issuer: origin,
    jwks_uri: `${origin}/jwks`,
    authorization_endpoint: `${origin}/auth`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/reg`,
    management_endpoint: `${origin}/manage`,
    introspection_endpoint: `${origin}/token/introspection`,
    revocation_endpoint: `${origin}/token/revocation`,
    user_access_brand_bundle: `${origin}/brands.json`,
    user_access_brand_identifier: { system: 'urn:ietf:rfc:3986', value: `${origin}/brand` },
    grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ['RS384', 'ES384'],
    scopes_supported: [
      'openid',
      'fhirUser',
      'launch',
      'launch/patient',
      'patient/*.rs',
      'offline_access',
    ],
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    capabilities: [...smartCapabilities],
    associated_endpoints: [{ url: `${origin}/dicom`, capabilities: ['launch-ehr'] }],
  }
}

/**
 * The `openid-configuration` of the authorization server at `origin` whose SMART configuration is
 * {@link validSmartConfiguration}: the same issuer and endpoints, so the issuer (the origin, not
 * the FHIR base URL) is bound to the server (ADR 0013).
 *
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderMetadata
 */
export function validOpenIdConfiguration(origin: string): Record<string, unknown> {
  const smart = validSmartConfiguration(origin)
  return {
    issuer: smart.issuer,
    authorization_endpoint: smart.authorization_endpoint,
    token_endpoint: smart.token_endpoint,
    jwks_uri: smart.jwks_uri,
    response_types_supported: ['code'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
  }
}

/** A complete app-launch token response (RFC 6749 §5.1 plus SMART launch context). */
export function validTokenResponse(
  accessToken: string,
  refreshToken: string,
): Record<string, unknown> {
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: 3600,
    scope: 'launch/patient patient/*.rs openid fhirUser offline_access',
    refresh_token: refreshToken,
    id_token: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJl',
    patient: 'patient-1',
    need_patient_banner: true,
    smart_style_url: 'https://ehr.example.test/style.json',
  }
}

/** A registration response (RFC 7591 §3.2.1) echoing typical metadata. */
export function validRegistrationResponse(
  clientId: string,
  clientSecret: string,
): Record<string, unknown> {
  return {
    client_id: clientId,
    client_secret: clientSecret,
    client_id_issued_at: 1_700_000_000,
    client_secret_expires_at: 0,
    registration_access_token: 'registration-access-token-value',
    client_name: 'Hardening test app',
    redirect_uris: ['https://app.example.test/callback'],
    grant_types: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_method: 'client_secret_basic',
    scope: 'launch/patient patient/*.rs',
  }
}

/** An RFC 6749 §5.2 error body. */
export function validOAuthErrorBody(): Record<string, unknown> {
  return {
    error: 'invalid_grant',
    error_description: 'the authorization code is invalid or expired',
    error_uri: 'https://ehr.example.test/errors/invalid_grant',
  }
}
