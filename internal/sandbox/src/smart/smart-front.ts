/// <reference path="./oidc-provider.d.ts" />
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Provider } from 'oidc-provider'
import { mediaTypeOf, parseJsonObject } from '../http/body-format.js'
import { sendOperationOutcome } from '../http/fhir-responses.js'
import { receiveRequest } from '../http/read-body.js'
import type { RequestLog } from '../http/recorded-request.js'
import { replayRequest } from '../http/replayed-request.js'
import { sendJson, sendText } from '../http/responses.js'
import { relaxSameSiteNoneCookies } from '../http/same-site-cookies.js'
import {
  type BasicAuthDecoding,
  presentBasicCredentials,
  type SecretStandIns,
} from './basic-credentials.js'
import type { ClientScopeRegistry } from './client-scopes.js'
import {
  type DiscoveryOverride,
  renderDiscoveryResponse,
  type SmartConfigurationDocument,
} from './discovery-document.js'
import {
  type IdTokenRewriteContext,
  rewriteResponseBody,
  rewriteTokenResponse,
} from './id-token-variants.js'
import { handleInteraction, type InteractionSettings } from './interaction-route.js'
import { handlePatientRead } from './patient-endpoint.js'
import { interactionPathPrefix, providerRoutes } from './provider-configuration.js'
import { splitScopes } from './smart-scopes.js'
import { applyTokenEndpointHooks, type TokenEndpointHooks } from './token-endpoint-hooks.js'
import type { VendorBehaviour } from './vendor-modes.js'

/** Everything the front dispatches to. */
export interface SmartFrontSettings {
  readonly origin: string
  readonly provider: Provider
  readonly providerCallback: (request: IncomingMessage, response: ServerResponse) => Promise<void>
  readonly discoveryDocument: SmartConfigurationDocument
  /** Read on every discovery request, so `setDiscoveryOverride` applies at once. */
  readonly discoveryOverride: () => DiscoveryOverride | undefined
  readonly requestLog: RequestLog
  readonly clientScopes: ClientScopeRegistry
  readonly interaction: InteractionSettings
  readonly fhirBaseUrl: string
  /** See `SmartSandboxOptions.basicAuthDecoding`. */
  readonly basicAuthDecoding: BasicAuthDecoding
  readonly secretStandIns: SecretStandIns
  /** Read on every token response: a hostile ID token variant, when one is set. */
  readonly idTokenRewrite: () => IdTokenRewriteContext | undefined
  /** Keys `/jwks` publishes besides the provider's (after a key rotation). */
  readonly extraPublicKeys: () => readonly object[]
  /** Read on every token request: what a test set with `setTokenEndpointHooks`. */
  readonly tokenEndpointHooks: () => TokenEndpointHooks | undefined
  /** The vendor mode's deviations (the strict sandbox's when none). */
  readonly vendor: VendorBehaviour
}

/** Path of the sandbox's SMART style sheet (`smart_style_url`). */
export const smartStylePath = '/smart-style.json'

const discoverySuffix = '/.well-known/smart-configuration'
const patientPathPattern = /^\/Patient\/([^/]+)$/

/**
 * The plain `node:http` front of the SMART sandbox. It records every request, then serves the
 * SMART parts itself (discovery, the protected Patient read, the auto-approving interaction,
 * the style sheet) and hands everything else to oidc-provider — after adding `prompt=consent`
 * to authorization requests that ask for `offline_access`, without which the provider drops
 * that scope and issues no refresh token.
 */
export function createSmartFront(settings: SmartFrontSettings) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    dispatch(settings, request, response).catch((error: unknown) => {
      console.error('SMART sandbox: unexpected error while handling a request', error)
      if (!response.headersSent) sendJson(response, 500, { error: 'server_error' })
      else response.destroy()
    })
  }
}

async function dispatch(
  settings: SmartFrontSettings,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const received = await receiveRequest(request, response, settings.origin, settings.requestLog)
  if (received === undefined) return
  const { url, body } = received
  const method = request.method ?? 'GET'
  const path = url.pathname

  const fhirPath = new URL(settings.fhirBaseUrl).pathname
  if (path === discoverySuffix && settings.vendor.rootDiscoveryStatus !== undefined) {
    sendText(response, settings.vendor.rootDiscoveryStatus, 'text/html', '<h1>Bad Gateway</h1>')
    return
  }
  if (path === fhirPath || path.startsWith(`${fhirPath}/`) || path === smartStylePath) {
    // Browser demos read discovery and FHIR data cross-origin.
    response.setHeader('access-control-allow-origin', '*')
    if (method === 'OPTIONS') {
      response.writeHead(204, {
        'access-control-allow-methods': 'GET, OPTIONS',
        'access-control-allow-headers': 'authorization, content-type, accept',
        'access-control-max-age': '600',
      })
      response.end()
      return
    }
    await serveFhirSide(settings, method, path, request, response)
    return
  }
  if (path.startsWith(interactionPathPrefix) && method === 'GET') {
    await handleInteraction(settings.interaction, request, response)
    return
  }
  if (path === providerRoutes.token) {
    await applyTokenEndpointHooks(settings.tokenEndpointHooks(), received.recorded, response)
  }
  await forwardToProvider(settings, request, response, url, body)
}

async function serveFhirSide(
  settings: SmartFrontSettings,
  method: string,
  path: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (method !== 'GET') {
    sendOperationOutcome(response, 405, 'not-supported', `${method} is not supported here`)
    return
  }
  const fhirPath = new URL(settings.fhirBaseUrl).pathname
  const relative = path.startsWith(`${fhirPath}/`) ? path.slice(fhirPath.length) : undefined
  if (relative === discoverySuffix) {
    const rendered = renderDiscoveryResponse(
      settings.discoveryDocument,
      settings.discoveryOverride(),
    )
    sendText(response, rendered.status, rendered.contentType, rendered.body)
    return
  }
  if (path === smartStylePath) {
    sendJson(response, 200, {
      color_background: '#edeae3',
      color_highlight: '#69b5ce',
      color_text: '#303030',
      dim_border_radius: '6px',
      font_family_body: "Georgia, 'Times New Roman', serif",
    })
    return
  }
  const patient = patientPathPattern.exec(relative ?? '')
  if (patient?.[1] !== undefined) {
    await handlePatientRead(settings, request, response, decodeURIComponent(patient[1]))
    return
  }
  sendOperationOutcome(response, 404, 'not-found', `no route for GET ${path}`)
}

async function forwardToProvider(
  settings: SmartFrontSettings,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  body: Buffer,
): Promise<void> {
  let forwardedBody = body
  let heldScope: string | undefined
  if (url.pathname === providerRoutes.authorization) {
    if (addConsentPrompt(url.searchParams)) request.url = `${url.pathname}${url.search}`
    if (
      request.method === 'POST' &&
      mediaTypeOf(request.headers['content-type']) === 'application/x-www-form-urlencoded'
    ) {
      const form = new URLSearchParams(body.toString('utf8'))
      if (addConsentPrompt(form)) forwardedBody = Buffer.from(form.toString())
    }
  }
  if (
    url.pathname === providerRoutes.registration &&
    request.method === 'POST' &&
    mediaTypeOf(request.headers['content-type']) === 'application/json'
  ) {
    const prepared = prepareRegistration(body)
    if (prepared !== undefined) {
      forwardedBody = prepared.body
      heldScope = prepared.scope
    }
  }
  relaxSameSiteNoneCookies(response)
  const vendorRewrite = settings.vendor.rewriteTokenResponse
  if (url.pathname === providerRoutes.token && vendorRewrite !== undefined) {
    rewriteResponseBody(response, (text) => {
      const parsed = parseJsonObject(text)
      return parsed === undefined ? text : JSON.stringify(vendorRewrite(parsed))
    })
  }
  const idTokenRewrite = settings.idTokenRewrite()
  if (url.pathname === providerRoutes.token && idTokenRewrite !== undefined) {
    rewriteResponseBody(response, (text) => rewriteTokenResponse(text, idTokenRewrite))
  }
  const extraKeys = settings.extraPublicKeys()
  if (url.pathname === providerRoutes.jwks && extraKeys.length > 0) {
    rewriteResponseBody(response, (text) => addKeys(text, extraKeys))
  }
  const replayed = replayRequest(request, forwardedBody)
  presentBasicCredentials(replayed, settings.basicAuthDecoding, settings.secretStandIns)
  if (heldScope !== undefined) settings.clientScopes.holdRegistrationScope(replayed, heldScope)
  await settings.providerCallback(replayed, response)
}

/**
 * Adapts a JSON registration request to what oidc-provider accepts, or gives `undefined` when
 * the body is not a JSON object (the provider then judges it as sent):
 *
 * - a string `scope` is split off (see `ClientScopeRegistry`) and returned separately;
 * - a client whose `grant_types` lack `authorization_code` and that names no `response_types`
 *   gets `response_types: []`. RFC 7591 §2.1 relates the two lists, but the provider would
 *   apply its `["code"]` default and then demand `redirect_uris` from a backend client.
 */
function prepareRegistration(
  body: Buffer,
): { body: Buffer; scope: string | undefined } | undefined {
  const parsed = parseJsonObject(body.toString('utf8'))
  if (parsed === undefined) return undefined
  const { scope, ...metadata } = parsed
  const grantTypes = metadata.grant_types
  if (
    Array.isArray(grantTypes) &&
    !grantTypes.includes('authorization_code') &&
    metadata.response_types === undefined
  ) {
    metadata.response_types = []
  }
  if (typeof scope !== 'string') {
    if (scope !== undefined) metadata.scope = scope
    return { body: Buffer.from(JSON.stringify(metadata)), scope: undefined }
  }
  return { body: Buffer.from(JSON.stringify(metadata)), scope }
}

/**
 * Adds `consent` to `prompt` when `offline_access` is requested (oidc-provider only keeps
 * `offline_access` under `prompt=consent`; SMART clients never send it). Leaves `prompt=none`
 * alone, which cannot be combined. Returns whether it changed anything.
 */
function addConsentPrompt(params: URLSearchParams): boolean {
  if (!splitScopes(params.get('scope') ?? undefined).includes('offline_access')) return false
  const prompts = splitScopes(params.get('prompt') ?? undefined)
  if (prompts.includes('consent') || prompts.includes('none')) return false
  params.set('prompt', [...prompts, 'consent'].join(' '))
  return true
}

/** Appends keys to a JWK Set document; anything unparseable passes unchanged. */
function addKeys(text: string, extra: readonly object[]): string {
  const parsed = parseJsonObject(text)
  if (parsed === undefined || !Array.isArray(parsed.keys)) return text
  return JSON.stringify({ ...parsed, keys: [...parsed.keys, ...extra] })
}
