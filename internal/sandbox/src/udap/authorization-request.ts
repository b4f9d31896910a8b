import { splitScopes } from '../smart/smart-scopes.js'
import { isS256CodeChallenge } from './pkce.js'
import type { RegistrationStore } from './registration-store.js'
import { grantScopes } from './scope-grant.js'

/**
 * The authorization request parameters the sandbox understands: RFC 6749 §4.1.1 and IG STU2
 * §7.2 (`state`, PKCE S256), OIDC's `nonce`, and Tiered OAuth's `idp`. Anything else (`aud`,
 * `launch`, `prompt` …) is ignored, as RFC 6749 §3.1 requires, and recorded.
 */
export const recognizedAuthorizationParameters = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'nonce',
  'idp',
] as const

/** What the checks need from the sandbox. */
export interface AuthorizationRequestContext {
  readonly registrations: RegistrationStore
  /** Whether the server supports Tiered OAuth as data holder. */
  readonly tieredOAuth: boolean
}

/** An authorization request that passed every check. */
export interface ValidAuthorizationRequest {
  readonly clientId: string
  /** The redirect URI to answer at: the requested one, or the only registered one. */
  readonly redirectUri: string
  readonly redirectUriSent: boolean
  readonly state: string
  /** The granted scopes: the requested ones the registration covers, in request order. */
  readonly scopes: readonly string[]
  readonly codeChallenge: string
  readonly nonce: string | undefined
  /** Tiered OAuth: the `idp` to authenticate the user at (scope `udap` granted). */
  readonly identityProvider: string | undefined
}

/** The outcome of {@link checkAuthorizationRequest}. */
export type AuthorizationRequestCheck =
  /**
   * The client or its redirect URI cannot be trusted: answer with an error page, never a
   * redirect (RFC 6749 §4.1.2.1).
   */
  | {
      readonly kind: 'page'
      readonly clientId: string | undefined
      readonly error: string
      readonly description: string
    }
  /** An error sent to the client's redirect URI (with its `state`, when it sent one). */
  | {
      readonly kind: 'redirect-error'
      readonly clientId: string
      readonly redirectUri: string
      readonly state: string | undefined
      readonly error: string
      readonly description: string
    }
  | { readonly kind: 'valid'; readonly request: ValidAuthorizationRequest }

/**
 * Checks an authorization request (IG STU2 §4.1.1 / §5.1.1 / §7.2; RFC 6749 §4.1.1).
 *
 * Error page (no redirect): a repeated `client_id` or `redirect_uri`; `client_id` missing,
 * unknown or cancelled (`invalid_client`); `redirect_uri` not exactly a registered one, or
 * absent while several are registered (`invalid_request`).
 *
 * Error redirect, in this order: another repeated recognised parameter, `state` missing
 * (IG §7.2.1),
 * `response_type` missing (`invalid_request`) or not `code` (`unsupported_response_type`);
 * the client not registered for `authorization_code` (`unauthorized_client`);
 * `code_challenge_method` not `S256` or `code_challenge` missing or not 43 base64url
 * characters (`invalid_request`, IG §7.2.2); `scope` missing (`invalid_request`), none of it
 * registered (`invalid_scope`), or — on a Tiered OAuth data holder — `udap` with `idp` by a
 * client that did not register `udap` (`invalid_scope`).
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/general.html#authorization-code-flow
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1
 */
export function checkAuthorizationRequest(
  parameters: URLSearchParams,
  context: AuthorizationRequestContext,
): AuthorizationRequestCheck {
  // RFC 6749 §3.1: recognised parameters must not repeat; unrecognised ones are ignored.
  const repeated = recognizedAuthorizationParameters.filter(
    (name) => parameters.getAll(name).length > 1,
  )
  const clientId = parameters.get('client_id') ?? undefined
  if (repeated.includes('client_id') || repeated.includes('redirect_uri')) {
    return page(clientId, 'invalid_request', `${repeated.join(', ')} must not be repeated`)
  }
  if (clientId === undefined || clientId === '') {
    return page(undefined, 'invalid_request', 'client_id is required')
  }
  const registration = context.registrations.byClientId(clientId)
  if (registration === undefined || registration.cancelled) {
    return page(clientId, 'invalid_client', 'client_id is not a registered client')
  }
  const registered = registration.metadata.redirect_uris ?? []
  const requestedRedirect = parameters.get('redirect_uri') ?? undefined
  if (requestedRedirect !== undefined && !registered.includes(requestedRedirect)) {
    return page(clientId, 'invalid_request', 'redirect_uri is not one of the registered ones')
  }
  if (requestedRedirect === undefined && registered.length !== 1) {
    return page(
      clientId,
      'invalid_request',
      registered.length === 0
        ? 'this client registered no redirect_uris'
        : 'redirect_uri is required: the client registered more than one',
    )
  }
  const redirectUri = requestedRedirect ?? (registered[0] as string)
  const state = nonEmpty(parameters.get('state'))
  const fail = (error: string, description: string): AuthorizationRequestCheck => ({
    kind: 'redirect-error',
    clientId,
    redirectUri,
    state,
    error,
    description,
  })
  if (repeated.length > 0)
    return fail('invalid_request', `${repeated.join(', ')} must not be repeated`)
  if (state === undefined) return fail('invalid_request', 'state is required (IG STU2 §7.2.1)')
  const responseType = parameters.get('response_type')
  if (responseType === null) return fail('invalid_request', 'response_type is required')
  if (responseType !== 'code') {
    return fail('unsupported_response_type', 'response_type must be code')
  }
  if (!registration.metadata.grant_types.includes('authorization_code')) {
    return fail('unauthorized_client', 'this client is not registered for authorization_code')
  }
  if (parameters.get('code_challenge_method') !== 'S256') {
    return fail('invalid_request', 'code_challenge_method must be S256 (IG STU2 §7.2.2)')
  }
  const codeChallenge = parameters.get('code_challenge')
  if (codeChallenge === null) return fail('invalid_request', 'code_challenge is required')
  if (!isS256CodeChallenge(codeChallenge)) {
    return fail('invalid_request', 'code_challenge must be 43 base64url characters (S256)')
  }
  const requestedScope = parameters.get('scope') ?? ''
  if (requestedScope.trim() === '') return fail('invalid_request', 'scope is required')
  const allowed = splitScopes(registration.metadata.scope)
  const scopes = grantScopes(requestedScope, allowed)
  const idp = nonEmpty(parameters.get('idp'))
  const tiered =
    context.tieredOAuth && idp !== undefined && splitScopes(requestedScope).includes('udap')
  if (tiered && !scopes.includes('udap')) {
    return fail('invalid_scope', 'udap (Tiered OAuth) is not among the registered scopes')
  }
  if (scopes.length === 0) {
    return fail('invalid_scope', 'none of the requested scopes is registered for this client')
  }
  return {
    kind: 'valid',
    request: {
      clientId,
      redirectUri,
      redirectUriSent: requestedRedirect !== undefined,
      state,
      scopes,
      codeChallenge,
      nonce: nonEmpty(parameters.get('nonce')),
      identityProvider: tiered ? idp : undefined,
    },
  }
}

function page(
  clientId: string | undefined,
  error: string,
  description: string,
): AuthorizationRequestCheck {
  return { kind: 'page', clientId, error, description }
}

function nonEmpty(value: string | null): string | undefined {
  return value === null || value === '' ? undefined : value
}
