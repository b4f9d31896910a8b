import type { TokenSetBinding } from '@fhir-auth/core/essentials'
import { ConfigurationError } from '@fhir-auth/core/internal/up-front'

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
  // The members in the order `ProtocolContext.binding` names them, which is the order reported.
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
