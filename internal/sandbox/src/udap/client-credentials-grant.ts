import { readAuthorizationExtensions } from './b2b-extension-rules.js'
import { grantScopes } from './scope-grant.js'
import { refuse, type TokenRejection } from './token-rejection.js'
import type { TokenResponseBody } from './token-response.js'
import type { TokenStore } from './token-store.js'

/** What the client_credentials grant needs. */
export interface ClientCredentialsContext {
  readonly requiredExtensions: readonly string[]
  readonly accessTokenLifetimeSeconds: number
  readonly tokens: TokenStore
}

/** The authenticated client of a client_credentials request. */
export interface ClientCredentialsClient {
  readonly clientId: string
  readonly unregistered: boolean
  /** Scopes the client may be granted. */
  readonly allowedScopes: readonly string[]
}

/**
 * The client_credentials grant (IG STU2 §5.2) after client authentication: the authorization
 * extensions (`hl7-b2b` required when configured, and well-formed whenever present:
 * `invalid_grant`), then the scopes (none allowed: `invalid_scope`). No refresh token.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html#client-credentials-workflow
 */
export function grantClientCredentials(
  form: URLSearchParams,
  claims: Readonly<Record<string, unknown>>,
  client: ClientCredentialsClient,
  context: ClientCredentialsContext,
): TokenResponseBody | TokenRejection {
  const extensions = readAuthorizationExtensions(claims.extensions, context.requiredExtensions)
  if (!extensions.valid) {
    return refuse('extensions', 'invalid_grant', `client_assertion ${extensions.message}`)
  }
  const scopes = grantScopes(form.get('scope') ?? '', client.allowedScopes)
  if (scopes.length === 0) {
    return refuse(
      'scope',
      'invalid_scope',
      'none of the requested scopes is allowed for this client',
    )
  }
  const scope = scopes.join(' ')
  const accessToken = context.tokens.issueAccessToken({
    clientId: client.clientId,
    unregistered: client.unregistered,
    scope,
    ...(extensions.b2b === undefined ? {} : { b2b: extensions.b2b }),
    grantType: 'client_credentials',
    lifetimeSeconds: context.accessTokenLifetimeSeconds,
  })
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: context.accessTokenLifetimeSeconds,
    scope,
  }
}
