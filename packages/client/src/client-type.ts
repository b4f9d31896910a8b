import { ConfigurationError } from '@fhir-auth/core/internal/up-front'

/**
 * How a SMART client authenticates at the token endpoint. UDAP clients have no client type.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html#support-for-public-and-confidential-apps
 */
export type ClientType = 'public' | 'confidential_symmetric' | 'confidential_asymmetric'

/** The protocols a {@link Client} speaks. */
export type Protocol = 'smart' | 'udap'

/** Every SMART client type, in the spec's order. */
export const clientTypes: readonly ClientType[] = Object.freeze([
  'public',
  'confidential_symmetric',
  'confidential_asymmetric',
])

/**
 * The spec's first check in `new Client`: a client type is absent or a string.
 *
 * @throws ConfigurationError `clientType` with the three valid values.
 */
export function checkClientTypeKind(value: unknown): asserts value is string | null | undefined {
  if (value === undefined || value === null || typeof value === 'string') return
  throw new ConfigurationError({
    invalidAttribute: 'clientType',
    invalidValue: value,
    validValues: clientTypes,
  })
}

/**
 * The spec's second check: the protocol is `smart` or `udap`.
 *
 * @throws ConfigurationError `protocol` with the valid values `smart`, `udap`.
 */
export function checkProtocol(value: unknown): Protocol {
  if (value === 'smart' || value === 'udap') return value
  throw new ConfigurationError({
    invalidAttribute: 'protocol',
    invalidValue: value,
    validValues: ['smart', 'udap'],
  })
}

/**
 * The spec's last check, also used by the `clientType` setter: a SMART client type must be one
 * of the three; a UDAP client takes none at all.
 *
 * @throws ConfigurationError `clientType`.
 */
export function checkClientType(protocol: Protocol, value: unknown): ClientType | null {
  if (protocol === 'udap') {
    throw new ConfigurationError({
      invalidAttribute: 'clientType',
      invalidValue: value,
      // The spec's `valid_values` text for any client type given to a UDAP client.
      validValues: ['client_type is not applicable for protocol udap'],
    })
  }
  if (typeof value === 'string' && (clientTypes as readonly string[]).includes(value))
    return value as ClientType
  throw new ConfigurationError({
    invalidAttribute: 'clientType',
    invalidValue: value,
    validValues: clientTypes,
  })
}

/**
 * The client type a client starts with: absent (`undefined` or `null`) is the protocol's default
 * (SMART clients are public; UDAP has none), else {@link checkClientType}.
 *
 * @throws ConfigurationError `clientType`.
 */
export function resolveClientType(
  protocol: Protocol,
  value: string | null | undefined,
): ClientType | null {
  if (value === undefined || value === null) return protocol === 'smart' ? 'public' : null
  return checkClientType(protocol, value)
}
