import { grantScopes } from './scope-grant.js'

/** The registration parameters the sandbox stores and echoes (RFC 7591 §3.2.1 names). */
export interface RegisteredClientMetadata {
  readonly client_name: string
  readonly contacts: readonly string[]
  readonly grant_types: readonly string[]
  readonly response_types?: readonly string[]
  readonly redirect_uris?: readonly string[]
  readonly logo_uri?: string
  /** The granted scopes: the requested ones `scopes_supported` covers. */
  readonly scope: string
  readonly token_endpoint_auth_method: 'private_key_jwt'
}

/** The outcome of {@link readClientMetadata}. */
export type ClientMetadataResult =
  | { readonly kind: 'register'; readonly metadata: RegisteredClientMetadata }
  | { readonly kind: 'cancel' }
  | { readonly kind: 'rejected'; readonly description: string }

/** What the server supports, as advertised in its metadata. */
export interface ServerCapabilities {
  readonly grantTypes: readonly string[]
  readonly scopes: readonly string[]
}

const knownGrantTypes = ['authorization_code', 'client_credentials', 'refresh_token']
const mailtoPattern = /^mailto:[^@\s]+@[^@\s]+$/i
const logoPathPattern = /\.(png|jpe?g|gif)$/i

/**
 * Applies the STU2 rules for the metadata claims of a software statement.
 *
 * `grant_types: []` means cancellation (IG §3.4) and skips the other rules. Otherwise:
 * `grant_types` holds exactly one of `authorization_code` / `client_credentials`, each
 * advertised, `refresh_token` only with `authorization_code`; `token_endpoint_auth_method` is
 * `private_key_jwt`; `client_name` is set; `contacts` has a `mailto:` URI; `scope` is set and
 * at least one requested scope is supported; with `authorization_code`, `redirect_uris` are
 * https URLs (or loopback http, RFC 8252 §7.3), `response_types` is `["code"]` and `logo_uri`
 * an https PNG/JPG/GIF URL; without
 * it, `redirect_uris` and `response_types` are absent.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html#software-statement
 */
export function readClientMetadata(
  claims: Readonly<Record<string, unknown>>,
  server: ServerCapabilities,
): ClientMetadataResult {
  const grantTypes = claims.grant_types
  if (!Array.isArray(grantTypes) || !grantTypes.every((entry) => typeof entry === 'string')) {
    return rejected('grant_types must be an array of strings')
  }
  if (grantTypes.length === 0) return { kind: 'cancel' }
  const problem = checkGrantTypes(grantTypes, server) ?? checkCommonClaims(claims)
  if (problem !== undefined) return rejected(problem)
  const isAuthorizationCode = grantTypes.includes('authorization_code')
  const flowProblem = isAuthorizationCode
    ? checkAuthorizationCodeClaims(claims)
    : checkClientCredentialsClaims(claims)
  if (flowProblem !== undefined) return rejected(flowProblem)
  const granted = grantScopes(claims.scope as string, server.scopes)
  if (granted.length === 0) return rejected('none of the requested scopes is supported')
  return {
    kind: 'register',
    metadata: {
      client_name: claims.client_name as string,
      contacts: [...(claims.contacts as string[])],
      grant_types: [...grantTypes],
      ...(isAuthorizationCode
        ? {
            response_types: ['code'],
            redirect_uris: [...(claims.redirect_uris as string[])],
            logo_uri: claims.logo_uri as string,
          }
        : typeof claims.logo_uri === 'string'
          ? { logo_uri: claims.logo_uri }
          : {}),
      scope: granted.join(' '),
      token_endpoint_auth_method: 'private_key_jwt',
    },
  }
}

function checkGrantTypes(
  grantTypes: readonly string[],
  server: ServerCapabilities,
): string | undefined {
  const unknown = grantTypes.find((grantType) => !knownGrantTypes.includes(grantType))
  if (unknown !== undefined) return `grant type ${JSON.stringify(unknown)} is not a UDAP grant type`
  const unsupported = grantTypes.find((grantType) => !server.grantTypes.includes(grantType))
  if (unsupported !== undefined) return `grant type ${unsupported} is not supported by this server`
  const hasCode = grantTypes.includes('authorization_code')
  const hasClientCredentials = grantTypes.includes('client_credentials')
  if (hasCode && hasClientCredentials) {
    return 'grant_types must not contain both authorization_code and client_credentials'
  }
  if (!hasCode && !hasClientCredentials) {
    return 'grant_types must contain authorization_code or client_credentials'
  }
  if (grantTypes.includes('refresh_token') && !hasCode) {
    return 'refresh_token is only allowed together with authorization_code'
  }
  return undefined
}

function checkCommonClaims(claims: Readonly<Record<string, unknown>>): string | undefined {
  if (claims.token_endpoint_auth_method !== 'private_key_jwt') {
    return 'token_endpoint_auth_method must be private_key_jwt'
  }
  if (typeof claims.client_name !== 'string' || claims.client_name.trim() === '') {
    return 'client_name is required'
  }
  const contacts = claims.contacts
  if (!Array.isArray(contacts) || !contacts.every((contact) => typeof contact === 'string')) {
    return 'contacts must be an array of URIs'
  }
  if (!contacts.some((contact) => mailtoPattern.test(contact))) {
    return 'contacts must contain at least one valid mailto: URI'
  }
  if (typeof claims.scope !== 'string' || claims.scope.trim() === '') return 'scope is required'
  return undefined
}

function checkAuthorizationCodeClaims(
  claims: Readonly<Record<string, unknown>>,
): string | undefined {
  const redirectUris = claims.redirect_uris
  if (!Array.isArray(redirectUris) || redirectUris.length === 0) {
    return 'redirect_uris is required with authorization_code'
  }
  if (!redirectUris.every((uri) => isRedirectUri(uri))) {
    return 'every redirect_uri must be an absolute https URL (or loopback http) without a fragment'
  }
  const responseTypes = claims.response_types
  if (!Array.isArray(responseTypes) || responseTypes.length !== 1 || responseTypes[0] !== 'code') {
    return 'response_types must be ["code"] with authorization_code'
  }
  const logoUri = claims.logo_uri
  if (!isHttpsUrl(logoUri) || !logoPathPattern.test(new URL(logoUri).pathname)) {
    return 'logo_uri must be an https URL of a PNG, JPG or GIF image with authorization_code'
  }
  return undefined
}

function checkClientCredentialsClaims(
  claims: Readonly<Record<string, unknown>>,
): string | undefined {
  if (claims.redirect_uris !== undefined)
    return 'redirect_uris is only allowed with authorization_code'
  if (claims.response_types !== undefined)
    return 'response_types is only allowed with authorization_code'
  return undefined
}

/**
 * An https redirect URI (IG STU2 §3.1), or http on a loopback host (RFC 8252 §7.3: native and
 * local apps; the sandbox is loopback-only, so local test apps and data holders use it), never
 * with a fragment (RFC 6749 §3.1.2).
 */
function isRedirectUri(value: unknown): value is string {
  if (typeof value !== 'string' || value.includes('#') || !URL.canParse(value)) return false
  const url = new URL(value)
  return (
    url.protocol === 'https:' ||
    (url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname))
  )
}

function isHttpsUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false
  try {
    return new URL(value).protocol === 'https:'
  } catch {
    return false
  }
}

function rejected(description: string): ClientMetadataResult {
  return { kind: 'rejected', description }
}
