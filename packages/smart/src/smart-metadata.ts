import { DiscoveryError, isJsonObject, normalizeBaseUrl } from '@fhir-auth/core/essentials'

/** One entry of `associated_endpoints` (SMART 2.2.0, experimental): a URL and its capabilities. */
export interface AssociatedEndpoint {
  readonly url: string
  readonly capabilities: readonly string[]
}

/** Where a SMART configuration document came from. */
export interface SmartMetadataSource {
  /** The FHIR base URL; relative endpoint URLs in the document are resolved against it. */
  readonly baseUrl: string
  /** The discovery URL the document was read from; reported by errors about the document. */
  readonly endpoint?: string | undefined
}

/*
 * The accessors are generated from the field names (camelCase of the snake_case name) rather
 * than written out one by one: the same rule for every field, and a smaller browser bundle.
 */
/** URL fields: a string value, resolved against the FHIR base when it has no scheme. */
const urlFields = [
  'jwks_uri',
  'authorization_endpoint',
  'token_endpoint',
  'registration_endpoint',
  'management_endpoint',
  'introspection_endpoint',
  'revocation_endpoint',
  'user_access_brand_bundle',
]
/** List fields: the string entries of an array value. */
const listFields = [
  'grant_types_supported',
  'scopes_supported',
  'response_types_supported',
  'code_challenge_methods_supported',
  'token_endpoint_auth_methods_supported',
  'token_endpoint_auth_signing_alg_values_supported',
]

/**
 * A SMART configuration document (`.well-known/smart-configuration`): the raw JSON as
 * received plus camelCase accessors and capability predicates.
 *
 * Accessors never throw: a field that is absent or of the wrong type reads as `undefined`
 * (lists keep only their string entries). Endpoint URLs without a scheme are resolved
 * against the FHIR base, as the IG recommends for relative URLs; one that would resolve to
 * another origin (`//host/…`) is left as it is, which no request accepts.
 *
 * @example
 * ```ts
 * const metadata = SmartMetadata.fromJson(await response.json(), {
 *   baseUrl: 'https://ehr.example.org/fhir',
 * })
 * if (metadata.supportsPostAuthorization()) method = 'post'
 * metadata.tokenEndpoint // a relative value is resolved against the FHIR base
 * ```
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/conformance.html#metadata
 */
export class SmartMetadata {
  /** The document as received (a frozen shallow copy). */
  readonly raw: Readonly<Record<string, unknown>>
  /** The discovery URL the document was read from, when known. */
  readonly discoveryUrl: string | undefined
  readonly #baseUrl: string

  /** `jwks_uri`: the server's JWKS URL (required with `sso-openid-connect`). */
  declare readonly jwksUri: string | undefined
  /** `authorization_endpoint` (required with `launch-ehr` or `launch-standalone`). */
  declare readonly authorizationEndpoint: string | undefined
  /** `token_endpoint` (required). */
  declare readonly tokenEndpoint: string | undefined
  /** `registration_endpoint`: RFC 7591 dynamic client registration. */
  declare readonly registrationEndpoint: string | undefined
  /** `management_endpoint`: where a user manages the app's access. */
  declare readonly managementEndpoint: string | undefined
  /** `introspection_endpoint` (RFC 7662). */
  declare readonly introspectionEndpoint: string | undefined
  /** `revocation_endpoint` (RFC 7009). */
  declare readonly revocationEndpoint: string | undefined
  /** `user_access_brand_bundle`: URL of the server's User Access Brand Bundle. */
  declare readonly userAccessBrandBundle: string | undefined
  /** `grant_types_supported` (required). */
  declare readonly grantTypesSupported: readonly string[] | undefined
  /** `scopes_supported`. */
  declare readonly scopesSupported: readonly string[] | undefined
  /** `response_types_supported`. */
  declare readonly responseTypesSupported: readonly string[] | undefined
  /** `code_challenge_methods_supported` (required; must include `S256`, never `plain`). */
  declare readonly codeChallengeMethodsSupported: readonly string[] | undefined
  /** `token_endpoint_auth_methods_supported`. */
  declare readonly tokenEndpointAuthMethodsSupported: readonly string[] | undefined
  /** `token_endpoint_auth_signing_alg_values_supported`. */
  declare readonly tokenEndpointAuthSigningAlgValuesSupported: readonly string[] | undefined

  private constructor(raw: Readonly<Record<string, unknown>>, source: SmartMetadataSource) {
    this.raw = raw
    this.discoveryUrl = source.endpoint
    this.#baseUrl = `${normalizeBaseUrl(String(source.baseUrl))}/`
  }

  /**
   * Wraps a parsed SMART configuration document.
   *
   * @throws DiscoveryError when `json` is not a JSON object (an array, a string, `null`) or
   *   cannot be read.
   */
  static fromJson(json: unknown, source: SmartMetadataSource): SmartMetadata {
    try {
      if (isJsonObject(json)) return new SmartMetadata(Object.freeze({ ...json }), source)
    } catch {
      // A hostile object (a throwing getter, a revoked proxy) is no usable document either.
    }
    throw new DiscoveryError({
      endpoint: source.endpoint,
      message: `SMART configuration${source.endpoint ? ` from ${source.endpoint}` : ''} is not a JSON object`,
    })
  }

  /** `issuer`: the OpenID Connect issuer (required with `sso-openid-connect`); not resolved. */
  get issuer(): string | undefined {
    return text(this.raw.issuer)
  }
  /** `capabilities`; empty when absent. */
  get capabilities(): readonly string[] {
    return strings(this.raw.capabilities) ?? []
  }
  /** `associated_endpoints` (experimental): entries without a string `url` are skipped. */
  get associatedEndpoints(): readonly AssociatedEndpoint[] | undefined {
    const entries = this.raw.associated_endpoints
    if (!Array.isArray(entries)) return undefined
    return entries
      .filter(isJsonObject)
      .flatMap((entry) =>
        typeof entry.url === 'string'
          ? [{ url: this.#resolve(entry.url), capabilities: strings(entry.capabilities) ?? [] }]
          : [],
      )
  }
  /** `user_access_brand_identifier`: a FHIR Identifier object. */
  get userAccessBrandIdentifier(): Readonly<Record<string, unknown>> | undefined {
    const value = this.raw.user_access_brand_identifier
    return isJsonObject(value) ? value : undefined
  }

  /**
   * `client-confidential-symmetric` advertised, and `client_secret_basic` listed (or no auth
   * methods listed at all).
   */
  supportsSymmetricAuth(): boolean {
    return (
      this.#has('client-confidential-symmetric') &&
      allows(this.tokenEndpointAuthMethodsSupported, ['client_secret_basic'])
    )
  }
  /**
   * `client-confidential-asymmetric` advertised, `private_key_jwt` listed (or no auth methods
   * listed) and RS384 or ES384 listed (or no signing algorithms listed).
   */
  supportsAsymmetricAuth(): boolean {
    return (
      this.#has('client-confidential-asymmetric') &&
      allows(this.tokenEndpointAuthMethodsSupported, ['private_key_jwt']) &&
      allows(this.tokenEndpointAuthSigningAlgValuesSupported, ['RS384', 'ES384'])
    )
  }
  /** `client-public` advertised. */
  supportsPublicAuth(): boolean {
    return this.#has('client-public')
  }
  /** `authorize-post` advertised: the authorize endpoint accepts form POSTs. */
  supportsPostAuthorization(): boolean {
    return this.#has('authorize-post')
  }
  /** `launch-ehr` advertised and an `authorization_endpoint` given. */
  supportsEhrLaunch(): boolean {
    return this.#has('launch-ehr') && this.authorizationEndpoint !== undefined
  }
  /** `launch-standalone` advertised and an `authorization_endpoint` given. */
  supportsStandaloneLaunch(): boolean {
    return this.#has('launch-standalone') && this.authorizationEndpoint !== undefined
  }
  /** The `client_credentials` grant listed and asymmetric client authentication supported. */
  supportsBackendServices(): boolean {
    return (
      (this.grantTypesSupported?.includes('client_credentials') ?? false) &&
      this.supportsAsymmetricAuth()
    )
  }
  /** A `registration_endpoint` given. */
  supportsDynamicRegistration(): boolean {
    return this.registrationEndpoint !== undefined
  }
  /** `sso-openid-connect` advertised with an `issuer` and a `jwks_uri`. */
  supportsOpenIdConnect(): boolean {
    return (
      this.#has('sso-openid-connect') && this.issuer !== undefined && this.jwksUri !== undefined
    )
  }
  /** `S256` listed in `code_challenge_methods_supported`. */
  supportsPkceS256(): boolean {
    return this.codeChallengeMethodsSupported?.includes('S256') ?? false
  }

  /** The raw document, so `JSON.stringify(metadata)` gives what the server sent. */
  toJSON(): Record<string, unknown> {
    return { ...this.raw }
  }

  #has(capability: string): boolean {
    return this.capabilities.includes(capability)
  }
  /** Resolves a URL without a scheme against the FHIR base; a value that cannot be resolved stays as it is. */
  #resolve(value: string): string {
    if (/^[a-z][a-z\d+.-]*:/i.test(value)) return value
    try {
      const base = new URL(this.#baseUrl)
      const resolved = new URL(value, base)
      // A network-path reference (`//host/…`) names another server: it is left unresolved, so
      // that using it fails as a URL that is not absolute.
      return resolved.origin === base.origin ? resolved.href : value
    } catch {
      return value
    }
  }

  static {
    const define = (field: string, read: (metadata: SmartMetadata, value: unknown) => unknown) =>
      Object.defineProperty(SmartMetadata.prototype, accessorName(field), {
        get(this: SmartMetadata) {
          return read(this, this.raw[field])
        },
      })
    for (const field of urlFields) {
      define(field, (metadata, value) => {
        const url = text(value)
        return url === undefined ? undefined : metadata.#resolve(url)
      })
    }
    for (const field of listFields) define(field, (_, value) => strings(value))
  }
}

/**
 * The accessor of a snake_case document field: its camelCase (`token_endpoint` → `tokenEndpoint`).
 *
 * @internal
 */
export function accessorName(field: string): keyof SmartMetadata {
  return field.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase()) as keyof SmartMetadata
}

/** A string member; blank (`""`, spaces) counts as absent, so it never resolves to the base URL. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined
}

function strings(value: unknown): readonly string[] | undefined {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : undefined
}

/** True when the list is absent (no restriction advertised) or names one of `accepted`. */
function allows(listed: readonly string[] | undefined, accepted: readonly string[]): boolean {
  return listed === undefined || accepted.some((value) => listed.includes(value))
}
