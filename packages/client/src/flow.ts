import { ConfigurationError } from '@fhir-auth/core/internal/up-front'
import type { Protocol } from './client-type.js'

/**
 * What a UDAP client does (ADR 0011): `b2b` — client credentials and interactive
 * authorization code for business apps (the default); `b2c` — authorization code for
 * consumer-facing apps; `tiered_oauth` — authorization code with the user authenticated at an
 * identity provider (IG STU2 §6).
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/
 */
export type UdapFlow = 'b2b' | 'b2c' | 'tiered_oauth'

/** Every UDAP flow, in ADR 0011's order. */
export const udapFlows: readonly UdapFlow[] = Object.freeze(['b2b', 'b2c', 'tiered_oauth'])

/**
 * Reads `ClientOptions.flow` once the protocol is known: a UDAP client's flow (default `b2b`), or
 * `null` for SMART. `null` means absent, as for `protocol` and `clientType`.
 *
 * @throws ConfigurationError `flow`: a value other than the three on UDAP, any value on SMART.
 */
export function checkFlow(protocol: Protocol, value: unknown): UdapFlow | null {
  const absent = value === undefined || value === null
  if (protocol === 'smart') {
    if (absent) return null
    throw new ConfigurationError({
      invalidAttribute: 'flow',
      invalidValue: value,
      // The `valid_values` text for any flow given to a SMART client, after the spec's for UDAP.
      validValues: ['flow is not applicable for protocol smart'],
    })
  }
  if (absent) return 'b2b'
  if ((udapFlows as readonly unknown[]).includes(value)) return value as UdapFlow
  throw new ConfigurationError({
    invalidAttribute: 'flow',
    invalidValue: value,
    validValues: udapFlows,
  })
}

/**
 * Client credentials (`requestBackendToken`, `backendTokens`) belong to the `b2b` flow: a
 * consumer-facing or Tiered OAuth client uses the authorization code only (ADR 0011).
 *
 * @throws ConfigurationError `flow` naming the operation, with `validValues` `['b2b']`.
 */
export function checkClientCredentialsFlow(flow: UdapFlow | null, operation: string): void {
  if (flow === null || flow === 'b2b') return
  throw new ConfigurationError({
    invalidAttribute: 'flow',
    invalidValue: flow,
    validValues: ['b2b'],
    message: `${operation} (client credentials) is for flow b2b; this client's flow is ${flow}`,
  })
}
