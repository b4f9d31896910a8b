import type { IncomingMessage, ServerResponse } from 'node:http'
import { sendJson } from '../http/responses.js'
import {
  type AuthorizationEndpointContext,
  codeRedirect,
  handleAuthorization,
  userDenied,
} from './authorization-endpoint.js'
import { clientRedirectLocation } from './client-redirect.js'
import { type DiscoveryContext, processDiscovery } from './discovery-endpoint.js'
import { sendRedirect } from './oauth-redirect.js'
import { sendOAuthError } from './oauth-rejection.js'
import type { UdapSandboxEndpoints } from './options.js'
import { processRegistration, type RegistrationEndpointContext } from './registration-endpoint.js'
import { handlePatientRead } from './resource-endpoint.js'
import type { TieredLogins } from './tiered/tiered-login.js'
import { processTokenRequest, type TokenEndpointContext } from './token-endpoint.js'
import type { TokenStore } from './token-store.js'

/** Paths the sandbox serves (relative to the origin). */
export const udapSandboxPaths = {
  discovery: '/fhir/.well-known/udap',
  registration: '/register',
  token: '/token',
  authorization: '/authorize',
  jwks: '/jwks',
  openidConfiguration: '/fhir/.well-known/openid-configuration',
  identityProviderCallback: '/idp-callback',
  /** Where the `unsigned-authorization-endpoint` variant points the unsigned metadata. */
  unsignedAuthorization: '/unsigned-authorize',
  /** Prefix of the CRLs served with `crlDistributionPoints`: `/crl/<community index>/<ca>.crl`. */
  crls: '/crl',
} as const

const crlPath = /^\/crl\/(\d+)\/(root|intermediate)\.crl$/

/**
 * The advertised URLs on `publicOrigin`: discovery, registration and token always; the
 * authorization endpoint, JWKS and OpenID configuration with the code flow; the IdP callback
 * with Tiered OAuth as data holder.
 */
export function sandboxEndpoints(
  publicOrigin: string,
  features: { readonly codeFlow: boolean; readonly tieredOAuth: boolean },
): UdapSandboxEndpoints {
  const at = (path: string) => `${publicOrigin}${path}`
  return {
    discovery: at(udapSandboxPaths.discovery),
    registration: at(udapSandboxPaths.registration),
    token: at(udapSandboxPaths.token),
    ...(features.codeFlow
      ? {
          authorization: at(udapSandboxPaths.authorization),
          jwks: at(udapSandboxPaths.jwks),
          openidConfiguration: at(udapSandboxPaths.openidConfiguration),
          ...(features.tieredOAuth
            ? { identityProviderCallback: at(udapSandboxPaths.identityProviderCallback) }
            : {}),
        }
      : {}),
  }
}

/** The buckets of `sandbox.requestCounts`. */
export type RouteCounter =
  | 'discovery'
  | 'registration'
  | 'token'
  | 'authorization'
  | 'resource'
  | 'other'

const patientPath = /^\/fhir\/Patient\/([^/]+)$/

/** Everything the routes need, built once by `startUdapSandbox`. */
export interface UdapRouteContext {
  readonly discovery: DiscoveryContext
  readonly registration: RegistrationEndpointContext
  readonly token: TokenEndpointContext
  /** `undefined` without the authorization_code grant (its routes answer 404). */
  readonly authorization: AuthorizationEndpointContext | undefined
  readonly openidConfiguration: Readonly<Record<string, unknown>> | undefined
  readonly jwks: { readonly keys: readonly Readonly<Record<string, unknown>>[] }
  readonly tieredLogins: TieredLogins | undefined
  readonly tokens: TokenStore
  readonly count: (counter: RouteCounter) => void
  /** The current CRL of a community's CA, with `crlDistributionPoints`; else `undefined`. */
  readonly currentCrl: (
    community: number,
    authority: 'root' | 'intermediate',
  ) => Uint8Array | undefined
}

/** Answers one request of the UDAP sandbox (body already read and recorded). */
export async function routeUdapRequest(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  body: Buffer,
  context: UdapRouteContext,
): Promise<void> {
  const path = url.pathname
  const authorization = context.authorization
  const contentType = request.headers['content-type']
  if (path === udapSandboxPaths.discovery) {
    context.count('discovery')
    if (request.method !== 'GET') return methodNotAllowed(response, 'GET')
    const answer = await processDiscovery(url.searchParams, context.discovery)
    if (answer.status === 204) return void response.writeHead(204).end()
    return sendJson(response, 200, answer.body, { 'cache-control': 'no-store' })
  }
  if (path === udapSandboxPaths.registration) {
    context.count('registration')
    if (request.method !== 'POST') return methodNotAllowed(response, 'POST')
    const answer = await processRegistration(
      { contentType, body: body.toString('utf8') },
      context.registration,
    )
    if ('error' in answer) return sendOAuthError(response, answer)
    return sendJson(response, answer.status, answer.body, noStore)
  }
  if (path === udapSandboxPaths.token) {
    context.count('token')
    if (request.method !== 'POST') return methodNotAllowed(response, 'POST')
    const answer = await processTokenRequest(
      { authorization: request.headers.authorization, contentType, body: body.toString('utf8') },
      context.token,
    )
    if ('error' in answer) return sendOAuthError(response, answer)
    return sendJson(response, 200, answer.body, noStore)
  }
  const crl = crlPath.exec(path)
  if (crl !== null && request.method === 'GET') {
    context.count('other')
    const der = context.currentCrl(Number(crl[1]), crl[2] as 'root' | 'intermediate')
    if (der === undefined) return sendJson(response, 404, { error: 'not_found' })
    response.writeHead(200, { 'content-type': 'application/pkix-crl', 'cache-control': 'no-store' })
    response.end(der)
    return
  }
  const patient = patientPath.exec(path)
  if (patient !== null && request.method === 'GET') {
    context.count('resource')
    return handlePatientRead(
      context.tokens,
      request,
      response,
      decodeURIComponent(patient[1] ?? ''),
    )
  }
  if (authorization !== undefined) {
    if (path === udapSandboxPaths.authorization) {
      context.count('authorization')
      return handleAuthorization(request, response, url, body, authorization)
    }
    if (path === udapSandboxPaths.identityProviderCallback && context.tieredLogins !== undefined) {
      context.count('authorization')
      return identityProviderCallback(request, response, url, context.tieredLogins, authorization)
    }
    if (
      path === udapSandboxPaths.openidConfiguration &&
      context.openidConfiguration !== undefined
    ) {
      context.count('resource')
      if (request.method !== 'GET') return methodNotAllowed(response, 'GET')
      return sendJson(response, 200, context.openidConfiguration, {
        'access-control-allow-origin': '*',
      })
    }
    if (path === udapSandboxPaths.jwks) {
      context.count('resource')
      if (request.method !== 'GET') return methodNotAllowed(response, 'GET')
      return sendJson(response, 200, context.jwks, { 'access-control-allow-origin': '*' })
    }
    if (path === udapSandboxPaths.unsignedAuthorization) {
      context.count('other')
      return sendJson(response, 400, {
        error: 'invalid_request',
        error_description:
          'this authorization endpoint is only in the unsigned metadata: use the signed one',
      })
    }
  }
  context.count('other')
  return sendJson(response, 404, { error: 'not_found', error_description: `no route for ${path}` })
}

const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' } as const

/** `GET /idp-callback`: the IdP's answer to this data holder; ends at the app. */
async function identityProviderCallback(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  logins: TieredLogins,
  context: AuthorizationEndpointContext,
): Promise<void> {
  if (request.method !== 'GET') return methodNotAllowed(response, 'GET')
  const result = await logins.callback(request, url, userDenied(request))
  if (result.kind === 'page') {
    return sendJson(response, 400, {
      error: 'invalid_request',
      error_description: result.description,
    })
  }
  const { request: app } = result
  if (result.error !== undefined || result.user === undefined) {
    const error = result.error ?? { error: 'server_error', error_description: 'no local user' }
    return sendRedirect(
      response,
      clientRedirectLocation(
        app.redirectUri,
        error,
        app.state,
        context.hostile(),
        context.responseIssuer,
      ),
    )
  }
  sendRedirect(response, codeRedirect(app, result.user, context))
}

function methodNotAllowed(response: ServerResponse, allowed: string): void {
  sendJson(
    response,
    405,
    { error: 'invalid_request', error_description: `only ${allowed} is allowed here` },
    { allow: allowed },
  )
}
