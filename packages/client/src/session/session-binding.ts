import { ConfigurationError, type TokenSetBinding } from '@fhir-auth/core/essentials'
import type { ProtocolContext } from '../protocol-context.js'

/**
 * What a client knows of its own binding without a request: its FHIR base URL, client id and
 * configured issuer (the SMART `aud`, which defaults to the base URL), and its token endpoint
 * when configured. A discovered token endpoint is known only after discovery: the refresh
 * compares it before it sends anything, and records it.
 *
 * @internal
 */
export function configuredBinding(context: ProtocolContext): TokenSetBinding {
  const { config } = context
  return {
    tokenEndpoint: config.tokenEndpoint,
    issuer: config.issuer,
    baseUrl: config.baseUrl,
    clientId: context.clientId(),
  }
}

/**
 * Refuses tokens recorded for another server or client: any member both `recorded` and `own`
 * name, named differently (both come from a `ClientConfig`, which normalises its URLs). A
 * serialization with no binding at all (the 0.5 form) is refused too when `serialized`: nothing
 * says which server or client its tokens are for, so resuming it could hand them to another
 * one. Nothing is sent before this check.
 *
 * @throws ConfigurationError on `tokens`, naming the member that differs (never a token).
 * @internal
 */
export function checkBinding(
  recorded: TokenSetBinding | undefined,
  own: TokenSetBinding,
  serialized = false,
): void {
  // The members in the order `configuredBinding` names them, which is the order reported.
  const differs = recorded
    ? (Object.keys(own) as (keyof TokenSetBinding)[]).find(
        (member) => recorded[member] && own[member] && recorded[member] !== own[member],
      )
    : serialized && 'binding'
  if (differs) {
    throw new ConfigurationError({
      invalidAttribute: 'tokens',
      message: `tokens serialized for another server or client (${differs})`,
    })
  }
}
