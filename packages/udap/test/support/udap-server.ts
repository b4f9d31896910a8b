/**
 * Builders for what a UDAP server publishes: signed_metadata claims and the discovery
 * document, each overridable member by member (a value of `undefined` removes the member).
 */
import { signTestJws, type TestJwsAlgorithm, x5cOf } from './jws.js'
import { baseUrl, registrationEndpoint, tokenEndpoint } from './pki.js'

/** What signs the metadata: the server's certificate chain and key, at the PKI's time. */
export interface MetadataSigningPki {
  readonly now: Date
  readonly server: { readonly chainDer: readonly Uint8Array[]; readonly privateKeyPem: string }
}

export function withOverrides(
  base: Record<string, unknown>,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base }
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete result[name]
    else result[name] = value
  }
  return result
}

export function signedClaims(
  now: Date,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const seconds = Math.floor(now.getTime() / 1000)
  return withOverrides(
    {
      iss: baseUrl,
      sub: baseUrl,
      iat: seconds - 60,
      exp: seconds + 3600,
      jti: crypto.randomUUID(),
      token_endpoint: tokenEndpoint,
      registration_endpoint: registrationEndpoint,
    },
    overrides,
  )
}

export interface SignedMetadataOptions {
  readonly claims?: Record<string, unknown>
  readonly header?: Record<string, unknown>
  readonly algorithm?: TestJwsAlgorithm
  /** PKCS#8 PEM (or the HS256 secret); default the server certificate's key. */
  readonly key?: string
  /** Default the server certificate's chain. */
  readonly chainDer?: readonly Uint8Array[]
}

export function signedMetadata(
  pki: MetadataSigningPki,
  options: SignedMetadataOptions = {},
): Promise<string> {
  const chain = options.chainDer ?? pki.server.chainDer
  return signTestJws(
    { x5c: x5cOf(chain), ...options.header },
    options.claims ?? signedClaims(pki.now),
    options.key ?? pki.server.privateKeyPem,
    options.algorithm ?? 'RS256',
  )
}

export function metadataDocument(
  signed: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return withOverrides(
    {
      udap_versions_supported: ['1'],
      udap_profiles_supported: ['udap_dcr', 'udap_authn', 'udap_authz'],
      udap_authorization_extensions_supported: ['hl7-b2b'],
      udap_authorization_extensions_required: ['hl7-b2b'],
      udap_certifications_supported: [],
      grant_types_supported: ['client_credentials'],
      scopes_supported: ['system/*.rs', 'system/Patient.rs'],
      token_endpoint: tokenEndpoint,
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: ['RS256', 'ES256', 'ES384'],
      registration_endpoint: registrationEndpoint,
      registration_endpoint_jwt_signing_alg_values_supported: ['RS256', 'ES256', 'ES384'],
      signed_metadata: signed,
    },
    overrides,
  )
}
