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
 * name, named differently (a trailing `/` on a URL is not significant). A serialization with no
 * binding at all (the 0.5 form) is refused too when `serialized`: nothing says which server or
 * client its tokens are for, so resuming it could hand them to another one. Nothing is sent
 * before this check, so a session resumed on the wrong client never shows its tokens.
 *
 * @throws ConfigurationError on `tokens`, naming the member that differs (never a token).
 * @internal
 */
export function checkBinding(
  recorded: TokenSetBinding | undefined,
  own: TokenSetBinding,
  serialized = false,
): void {
  if (recorded === undefined) {
    if (serialized)
      throw refused('they name neither (an earlier version wrote them): authorize again')
    return
  }
  for (const member of tokenSetBindingMembers) {
    const theirs = recorded[member]
    const ours = own[member]
    if (theirs === undefined || ours === undefined) continue
    if (member === 'clientId' ? theirs === ours : sameUrl(theirs, ours)) continue
    throw refused(`their ${member} is ${theirs}, this client's is ${ours}`)
  }
}

function refused(why: string): ConfigurationError {
  return new ConfigurationError({
    invalidAttribute: 'tokens',
    message: `the tokens may be serialized for another server or client: ${why}`,
  })
}

/** Equal URLs, a trailing `/` aside (as for `baseUrl` everywhere else). */
function sameUrl(first: string, second: string): boolean {
  const trimmed = (url: string) => (url.endsWith('/') ? url.slice(0, -1) : url)
  return trimmed(first) === trimmed(second)
}
