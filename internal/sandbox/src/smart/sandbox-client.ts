import type { Jwk } from '@fhir-auth/core'

/** How a client authenticates at the token endpoint (SMART's three client types). */
export type SandboxClientAuthMethod = 'none' | 'client_secret_basic' | 'private_key_jwt'

/**
 * A client the sandbox knows, in RFC 7591 metadata names.
 *
 * Defaults: `redirect_uris` = [{@link sandboxDefaultRedirectUri}]; `grant_types` =
 * `authorization_code` + `refresh_token`, plus `client_credentials` for `private_key_jwt`
 * clients; `response_types` = `code` when `authorization_code` is allowed. A
 * `client_secret_basic` client needs `client_secret`; a `private_key_jwt` client needs `jwks`
 * (public keys, each with `kid`) or `jwks_uri`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-2
 */
export interface SandboxClient {
  readonly client_id: string
  readonly token_endpoint_auth_method: SandboxClientAuthMethod
  readonly client_secret?: string
  readonly jwks?: { readonly keys: readonly Jwk[] }
  readonly jwks_uri?: string
  readonly redirect_uris?: readonly string[]
  readonly grant_types?: readonly string[]
  /** Space-separated scopes the client may be granted; unrestricted when absent. */
  readonly scope?: string
  readonly client_name?: string
}

/** The redirect URI clients get when they name none. The sandbox never contacts it. */
export const sandboxDefaultRedirectUri = 'https://app.example/callback'

/**
 * Converts a {@link SandboxClient} to the metadata object the provider stores. `scope` is left
 * out: the sandbox keeps it itself (see `ClientScopeRegistry`).
 */
export function toClientMetadata(client: SandboxClient): Record<string, unknown> {
  const grantTypes = client.grant_types ?? defaultGrantTypes(client.token_endpoint_auth_method)
  const usesRedirects = grantTypes.includes('authorization_code')
  const metadata: Record<string, unknown> = {
    client_id: client.client_id,
    token_endpoint_auth_method: client.token_endpoint_auth_method,
    grant_types: [...grantTypes],
    response_types: usesRedirects ? ['code'] : [],
    redirect_uris: usesRedirects ? [...(client.redirect_uris ?? [sandboxDefaultRedirectUri])] : [],
  }
  if (client.client_secret !== undefined) metadata.client_secret = client.client_secret
  if (client.jwks !== undefined)
    metadata.jwks = { keys: client.jwks.keys.map((key) => ({ ...key })) }
  if (client.jwks_uri !== undefined) metadata.jwks_uri = client.jwks_uri
  if (client.client_name !== undefined) metadata.client_name = client.client_name
  return metadata
}

function defaultGrantTypes(method: SandboxClientAuthMethod): readonly string[] {
  return method === 'private_key_jwt'
    ? ['authorization_code', 'refresh_token', 'client_credentials']
    : ['authorization_code', 'refresh_token']
}

/**
 * The SMART rules a client's metadata must follow beyond what the provider checks itself, as
 * one problem description per broken rule (empty when the client is acceptable). Applied to
 * configured, added and dynamically registered clients alike.
 *
 * - `client_credentials` needs `private_key_jwt` (SMART Backend Services: "asymmetric
 *   authentication only");
 * - `token_endpoint_auth_method` is one of SMART's three (no `client_secret_post`, no
 *   `client_secret_jwt`);
 * - every key of a `private_key_jwt` client has a `kid` (assertions must name their key).
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/backend-services.html
 */
export function smartClientProblems(metadata: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = []
  const method = metadata.token_endpoint_auth_method
  const grantTypes = Array.isArray(metadata.grant_types) ? metadata.grant_types : []
  if (method !== 'none' && method !== 'client_secret_basic' && method !== 'private_key_jwt') {
    problems.push('token_endpoint_auth_method must be none, client_secret_basic or private_key_jwt')
  }
  if (grantTypes.includes('client_credentials') && method !== 'private_key_jwt') {
    problems.push('the client_credentials grant needs token_endpoint_auth_method private_key_jwt')
  }
  if (method === 'private_key_jwt' && !hasKeyIds(metadata.jwks)) {
    problems.push('every key in jwks needs a kid')
  }
  return problems
}

function hasKeyIds(jwks: unknown): boolean {
  if (typeof jwks !== 'object' || jwks === null) return true
  const keys = (jwks as { keys?: unknown }).keys
  if (!Array.isArray(keys)) return true
  return keys.every(
    (key: unknown) =>
      typeof key === 'object' && key !== null && typeof (key as { kid?: unknown }).kid === 'string',
  )
}
