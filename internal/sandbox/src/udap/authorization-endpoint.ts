import type { IncomingMessage, ServerResponse } from 'node:http'
import { mediaTypeOf } from '../http/body-format.js'
import { consentDecisionHeader } from '../http/headless-user-agent.js'
import { sendJson } from '../http/responses.js'
import type { AuthorizationCodes } from './authorization-codes.js'
import {
  type AuthorizationRequestCheck,
  checkAuthorizationRequest,
  recognizedAuthorizationParameters,
  type ValidAuthorizationRequest,
} from './authorization-request.js'
import { type AuthorizationAnswer, clientRedirectLocation } from './client-redirect.js'
import type { HostileVariant } from './hostile-variants.js'
import { sendRedirect } from './oauth-redirect.js'
import type { AuthorizationRequestRecord } from './records.js'
import type { RegistrationStore } from './registration-store.js'
import type { UdapSandboxUser } from './sandbox-user.js'

/** How a Tiered OAuth login begins: the user agent goes to the IdP, or the app gets an error. */
export type TieredLoginStart =
  | { readonly kind: 'identity-provider'; readonly location: string; readonly cookie: string }
  | { readonly kind: 'refused'; readonly error: string; readonly description: string }

/** What the authorization endpoint needs from the sandbox. */
export interface AuthorizationEndpointContext {
  readonly registrations: RegistrationStore
  readonly codes: AuthorizationCodes
  readonly user: UdapSandboxUser
  readonly now: () => Date
  readonly hostile: () => HostileVariant | undefined
  /** RFC 9207's `iss` for every authorization response; `undefined` sends none. */
  readonly responseIssuer: string | undefined
  readonly record: (record: AuthorizationRequestRecord) => void
  /** The data holder's Tiered OAuth, when enabled. */
  readonly startTieredLogin:
    | ((request: ValidAuthorizationRequest) => Promise<TieredLoginStart>)
    | undefined
}

/**
 * Issues the code that ends a successful authorization of `request` for `user` and returns
 * the redirect to the client.
 */
export function codeRedirect(
  request: ValidAuthorizationRequest,
  user: UdapSandboxUser,
  context: Pick<AuthorizationEndpointContext, 'codes' | 'now' | 'hostile' | 'responseIssuer'>,
): string {
  const code = context.codes.issue({
    clientId: request.clientId,
    redirectUri: request.redirectUri,
    redirectUriSent: request.redirectUriSent,
    scopes: request.scopes,
    codeChallenge: request.codeChallenge,
    nonce: request.nonce,
    user,
    authTime: Math.floor(context.now().getTime() / 1000),
  })
  return clientRedirectLocation(
    request.redirectUri,
    { code },
    request.state,
    context.hostile(),
    context.responseIssuer,
  )
}

/** Whether the (headless) user refused, as the user agent's consent header says. */
export function userDenied(request: IncomingMessage): boolean {
  return request.headers[consentDecisionHeader] === 'deny'
}

/**
 * `GET` and `POST /authorize` (IG STU2 §4.1, §5.1: servers SHALL support both): checks the
 * request (see `checkAuthorizationRequest`), then approves it as the sandbox's user (no login
 * page; the headless user agent can make the user refuse: `access_denied`) and redirects to
 * the client with a code and its `state`. With Tiered OAuth, a request with scope `udap` and
 * `idp` goes to the IdP instead. Errors the client may see are redirects with `state`
 * (RFC 6749 §4.1.2.1); a request whose client or redirect URI cannot be trusted gets a 400
 * JSON error page. Every request is recorded.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/consumer.html#authorization-request
 */
export async function handleAuthorization(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  body: Buffer,
  context: AuthorizationEndpointContext,
): Promise<void> {
  const receivedAt = context.now()
  const method = request.method === 'POST' ? 'POST' : 'GET'
  if (request.method !== 'GET' && request.method !== 'POST') {
    return sendJson(
      response,
      405,
      { error: 'invalid_request', error_description: 'use GET or POST' },
      { allow: 'GET, POST' },
    )
  }
  const isForm =
    mediaTypeOf(request.headers['content-type']) === 'application/x-www-form-urlencoded'
  const parameters =
    method === 'GET' ? url.searchParams : new URLSearchParams(isForm ? body.toString('utf8') : '')
  const record = (
    outcome: Omit<
      AuthorizationRequestRecord,
      'receivedAt' | 'method' | 'parameters' | 'unrecognizedParameters'
    >,
  ) =>
    context.record({
      receivedAt,
      method,
      parameters: Object.fromEntries(parameters),
      unrecognizedParameters: [...new Set(parameters.keys())].filter(
        (name) => !(recognizedAuthorizationParameters as readonly string[]).includes(name),
      ),
      ...outcome,
    })
  if (method === 'POST' && !isForm) {
    record({ outcome: 'error', redirected: false, error: 'invalid_request' })
    return sendJson(response, 400, {
      error: 'invalid_request',
      error_description: 'authorization POST requests must be application/x-www-form-urlencoded',
    })
  }
  const check = checkAuthorizationRequest(parameters, {
    registrations: context.registrations,
    tieredOAuth: context.startTieredLogin !== undefined,
  })
  const clientId = check.kind === 'valid' ? check.request.clientId : check.clientId
  const client = clientId === undefined ? {} : { clientId }
  if (check.kind === 'page') {
    record({
      ...client,
      outcome: 'error',
      redirected: false,
      error: check.error,
      errorDescription: check.description,
    })
    return sendJson(
      response,
      400,
      { error: check.error, error_description: check.description },
      { 'cache-control': 'no-store' },
    )
  }
  const answerError = (
    target:
      | Extract<AuthorizationRequestCheck, { kind: 'redirect-error' }>
      | ValidAuthorizationRequest,
    error: string,
    description: string,
    identityProvider?: string,
  ) => {
    record({
      ...client,
      outcome: 'error',
      redirected: true,
      error,
      errorDescription: description,
      ...(identityProvider === undefined ? {} : { identityProvider }),
    })
    const answer: AuthorizationAnswer = { error, error_description: description }
    sendRedirect(
      response,
      clientRedirectLocation(
        target.redirectUri,
        answer,
        target.state,
        context.hostile(),
        context.responseIssuer,
      ),
    )
  }
  if (check.kind === 'redirect-error') return answerError(check, check.error, check.description)
  const valid = check.request
  const identityProvider = valid.identityProvider
  if (identityProvider !== undefined && context.startTieredLogin !== undefined) {
    if (context.hostile() === 'invalid-idp') {
      return answerError(
        valid,
        'invalid_idp',
        'the requested identity provider cannot be used to sign in to this system',
        identityProvider,
      )
    }
    const start = await context.startTieredLogin(valid)
    if (start.kind === 'refused') {
      return answerError(valid, start.error, start.description, identityProvider)
    }
    record({ ...client, outcome: 'identity-provider', redirected: false, identityProvider })
    return sendRedirect(response, start.location, [start.cookie])
  }
  if (userDenied(request)) {
    return answerError(valid, 'access_denied', 'the user denied the authorization')
  }
  record({ ...client, outcome: 'code', redirected: true })
  sendRedirect(response, codeRedirect(valid, context.user, context))
}
