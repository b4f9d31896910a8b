import { ConfigurationError, type TokenSetBinding } from '@fhir-auth/core/essentials'
import { tokenSetBindingMembers } from '@fhir-auth/core/internal/checks'
import type { ProtocolContext } from '../protocol-context.js'

/**
 * What a client knows of its own binding without a request: its FHIR base URL, client id and
 * configured issuer (the SMART `aud`, which defaults to the base URL), and its token endpoint
 * when configured (a discovered one is known only after discovery, and is compared before a
 * refresh sends anything).
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
 * The binding a client records in the tokens it obtains: its own, with the token endpoint the
 * tokens came from.
 *
 * @internal
 */
export function obtainedBinding(context: ProtocolContext, tokenEndpoint: string): TokenSetBinding {
  return { ...configuredBinding(context), tokenEndpoint }
}

/**
 * Refuses tokens recorded for another server or client: any member both `recorded` and `own`
 * name, named differently (a trailing `/` on a URL is not significant). Nothing is sent before
 * this check, so a session resumed on the wrong client never shows its tokens to that server.
 *
 * @throws ConfigurationError on `tokens`, naming the member that differs (never a token).
 * @internal
 */
export function checkBinding(recorded: TokenSetBinding | undefined, own: TokenSetBinding): void {
  if (recorded === undefined) return
  for (const member of tokenSetBindingMembers) {
    const theirs = recorded[member]
    const ours = own[member]
    if (theirs === undefined || ours === undefined) continue
    if (member === 'clientId' ? theirs === ours : sameUrl(theirs, ours)) continue
    throw new ConfigurationError({
      invalidAttribute: 'tokens',
      message: `the tokens were serialized for another server or client: their ${member} is ${theirs}, this client's is ${ours}`,
    })
  }
}

/**
 * Refuses a serialization without a binding (the 0.5 form): nothing says which server or client
 * its tokens are for, so resuming it could hand them to another one.
 *
 * @throws ConfigurationError on `tokens`.
 * @internal
 */
export function requireBinding(recorded: TokenSetBinding | undefined): void {
  if (recorded !== undefined) return
  throw new ConfigurationError({
    invalidAttribute: 'tokens',
    message:
      'the tokens were serialized without the server and client they are for (an earlier version), so they may be serialized for another server or client: authorize again, or pass TokenSet.deserialize(serialized) after checking it yourself',
  })
}

/** Equal URLs, a trailing `/` aside (as for `baseUrl` everywhere else). */
function sameUrl(first: string, second: string): boolean {
  const trimmed = (url: string) => (url.endsWith('/') ? url.slice(0, -1) : url)
  return trimmed(first) === trimmed(second)
}
