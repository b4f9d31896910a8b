/** The sandbox's SMART configuration document (`.well-known/smart-configuration`). */
export interface SmartConfigurationDocument {
  issuer: string
  jwks_uri: string
  authorization_endpoint: string
  token_endpoint: string
  registration_endpoint: string
  introspection_endpoint: string
  revocation_endpoint: string
  grant_types_supported: string[]
  token_endpoint_auth_methods_supported: string[]
  token_endpoint_auth_signing_alg_values_supported: string[]
  code_challenge_methods_supported: string[]
  scopes_supported: string[]
  response_types_supported: string[]
  capabilities: string[]
  [member: string]: unknown
}

/**
 * A test's replacement for the discovery response: any of status, content type and raw body.
 * Missing members keep their defaults (200, `application/json`, the document as JSON).
 */
export interface DiscoveryResponseOverride {
  readonly status?: number
  readonly contentType?: string
  readonly body?: string
}

/**
 * How a test changes discovery. `document` receives a fresh copy of the document and returns
 * the JSON value to serve (any JSON value, e.g. an array); returning `undefined` serves the
 * (possibly mutated) copy. `response` replaces status, content type or the raw body.
 */
export interface DiscoveryOverride {
  readonly document?: (document: SmartConfigurationDocument) => unknown
  readonly response?: DiscoveryResponseOverride
}

/** Endpoint URLs the document advertises. */
export interface SandboxEndpoints {
  readonly issuer: string
  readonly jwks: string
  readonly authorization: string
  readonly token: string
  readonly registration: string
  readonly introspection: string
  readonly revocation: string
}

/**
 * The capabilities the sandbox implements. Not advertised: `context-standalone-encounter`,
 * `permission-online` (refresh tokens need `offline_access`), `permission-v1` (v1 scopes are
 * accepted but the server speaks v2) and `smart-app-state`.
 */
export const sandboxCapabilities: readonly string[] = [
  'launch-ehr',
  'launch-standalone',
  'authorize-post',
  'client-public',
  'client-confidential-symmetric',
  'client-confidential-asymmetric',
  'sso-openid-connect',
  'context-ehr-patient',
  'context-ehr-encounter',
  'context-standalone-patient',
  'context-banner',
  'context-style',
  'permission-offline',
  'permission-patient',
  'permission-user',
  'permission-v2',
]

const advertisedScopes: readonly string[] = [
  'openid',
  'fhirUser',
  'launch',
  'launch/patient',
  'launch/encounter',
  'offline_access',
  'online_access',
  'patient/*.rs',
  'user/*.rs',
  'system/*.rs',
  'patient/Patient.rs',
  'user/Patient.rs',
  'system/Patient.rs',
  'patient/*.read',
  'user/*.read',
  'system/*.read',
]

/**
 * Builds the SMART configuration document.
 *
 * `token_endpoint_auth_methods_supported` lists SMART's values only (`client_secret_basic`,
 * `private_key_jwt`): `none` is an RFC 8414 value that SMART does not list; public clients are
 * announced by the `client-public` capability instead.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/conformance.html#metadata
 */
export function buildSmartConfiguration(
  endpoints: SandboxEndpoints,
  clientAuthSigningAlgorithms: readonly string[],
  scopeVersions: readonly ('v1' | 'v2')[] = ['v2'],
): SmartConfigurationDocument {
  const permissions = scopeVersions.map((version) => `permission-${version}`)
  return {
    issuer: endpoints.issuer,
    jwks_uri: endpoints.jwks,
    authorization_endpoint: endpoints.authorization,
    token_endpoint: endpoints.token,
    registration_endpoint: endpoints.registration,
    introspection_endpoint: endpoints.introspection,
    revocation_endpoint: endpoints.revocation,
    grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: [...clientAuthSigningAlgorithms],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: [...advertisedScopes],
    response_types_supported: ['code'],
    // oidc-provider signs ID tokens with RS256 and always sends RFC 9207's iss on the callback.
    id_token_signing_alg_values_supported: ['RS256'],
    authorization_response_iss_parameter_supported: true,
    capabilities: [
      ...sandboxCapabilities.filter((capability) => !/^permission-v\d$/u.test(capability)),
      ...permissions,
    ],
  }
}

/** A discovery response ready to send. */
export interface DiscoveryResponse {
  readonly status: number
  readonly contentType: string
  readonly body: string
}

/** Applies a test's {@link DiscoveryOverride} to the document and renders the response. */
export function renderDiscoveryResponse(
  document: SmartConfigurationDocument,
  override: DiscoveryOverride | undefined,
): DiscoveryResponse {
  const copy = structuredClone(document)
  const rewritten = override?.document?.(copy)
  const value = rewritten === undefined ? copy : rewritten
  return {
    status: override?.response?.status ?? 200,
    contentType: override?.response?.contentType ?? 'application/json',
    body: override?.response?.body ?? JSON.stringify(value),
  }
}
