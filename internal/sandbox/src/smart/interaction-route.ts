/// <reference path="./oidc-provider.d.ts" />
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { InteractionDetails, InteractionResult, Provider } from 'oidc-provider'
import { consentDecisionHeader } from '../http/headless-user-agent.js'
import { sendJson } from '../http/responses.js'
import { type LaunchContext, type LaunchRegistry, resolveLaunchContext } from './launch-context.js'
import { isAppLaunchScope, splitScopes } from './smart-scopes.js'

/** What the auto-approving interaction needs from the sandbox. */
export interface InteractionSettings {
  readonly provider: Provider
  /** The fixed account every login signs in as. */
  readonly accountId: string
  readonly launches: LaunchRegistry
  /** Launch context per grant id, read back when tokens are issued. */
  readonly launchContexts: Map<string, LaunchContext>
  readonly standalonePatient: string
}

/**
 * The sandbox's "user": answers oidc-provider's interaction at `/interaction/{uid}` without a
 * page. The login round signs in the fixed account; the consent round grants everything the
 * client asked for (OIDC scopes and claims, SMART resource scopes) in a new grant, and records
 * the grant's launch context. With the `x-sandbox-consent: deny` header (sent by
 * `sandbox.authorize(…, { decision: 'deny' })`) the user refuses and the client receives
 * `access_denied`.
 *
 * @see https://github.com/panva/node-oidc-provider/blob/v9.x/docs/README.md#user-flows
 */
export async function handleInteraction(
  settings: InteractionSettings,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  let details: InteractionDetails
  try {
    details = await settings.provider.interactionDetails(request, response)
  } catch {
    sendJson(response, 400, {
      error: 'invalid_request',
      error_description: 'interaction session not found (cookies missing or expired)',
    })
    return
  }
  const result = await decide(settings, details, request.headers[consentDecisionHeader])
  await settings.provider.interactionFinished(request, response, result, {
    mergeWithLastSubmission: false,
  })
}

async function decide(
  settings: InteractionSettings,
  details: InteractionDetails,
  decisionHeader: string | string[] | undefined,
): Promise<InteractionResult> {
  if (decisionHeader === 'deny') {
    return { error: 'access_denied', error_description: 'the user denied the authorization' }
  }
  if (details.prompt.name === 'login') return { login: { accountId: settings.accountId } }
  if (details.prompt.name === 'consent')
    return { consent: { grantId: await grantAll(settings, details) } }
  return { error: 'access_denied', error_description: `unsupported prompt ${details.prompt.name}` }
}

async function grantAll(
  settings: InteractionSettings,
  details: InteractionDetails,
): Promise<string> {
  const { Grant } = settings.provider
  const clientId = String(details.params.client_id)
  const accountId = details.session?.accountId ?? settings.accountId
  const existing = details.grantId === undefined ? undefined : await Grant.find(details.grantId)
  const grant = existing ?? new Grant({ accountId, clientId })
  const { missingOIDCScope, missingOIDCClaims, missingResourceScopes } = details.prompt.details
  if (missingOIDCScope !== undefined) grant.addOIDCScope(missingOIDCScope.join(' '))
  if (missingOIDCClaims !== undefined) grant.addOIDCClaims(missingOIDCClaims)
  for (const [resource, scopes] of Object.entries(missingResourceScopes ?? {})) {
    grant.addResourceScope(resource, scopes.join(' '))
  }
  const grantId = await grant.save()
  const launchValue = details.params.launch
  settings.launchContexts.set(
    grantId,
    resolveLaunchContext({
      scopes: splitScopes(details.params.scope).filter(isAppLaunchScope),
      launch: typeof launchValue === 'string' ? settings.launches.find(launchValue) : undefined,
      standalonePatient: settings.standalonePatient,
    }),
  )
  return grantId
}
