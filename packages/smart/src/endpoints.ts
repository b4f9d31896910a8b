import { checkUrl, DiscoveryError, insecureUrlAdvice, safeUrl } from '@fhir-auth/core/essentials'
import { accessorName, type SmartMetadata } from './smart-metadata.js'

/** The discovered endpoints a SMART flow can need. */
export type DiscoveredEndpointField =
  | 'authorization_endpoint'
  | 'token_endpoint'
  | 'registration_endpoint'
  | 'revocation_endpoint'

/**
 * A discovered endpoint that a flow is about to use: present, and a usable HTTPS URL (HTTP
 * only to a loopback host under `allowInsecureLocalhost`). A server document must not be able
 * to send the client, its secrets or its users to a plain-HTTP or `javascript:` URL.
 *
 * @throws DiscoveryError (with the discovery URL as `endpoint`) naming the field when it is
 *   missing, not an absolute URL, or not HTTPS.
 * @example
 * ```ts
 * const metadata = await discoverSmartConfiguration({ baseUrl: 'https://ehr.example.org/fhir' })
 * const tokenEndpoint = requireDiscoveredEndpoint(metadata, 'token_endpoint', false)
 * ```
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/conformance.html#metadata
 */
export function requireDiscoveredEndpoint(
  metadata: SmartMetadata,
  field: DiscoveredEndpointField,
  allowInsecureLocalhost: boolean,
): string {
  const value = metadata[accessorName(field)] as string | undefined
  const endpoint = metadata.discoveryUrl
  if (value === undefined) {
    throw new DiscoveryError({
      endpoint,
      message: `SMART configuration has no ${field}; configure it explicitly`,
    })
  }
  const problem = checkUrl(value, allowInsecureLocalhost)
  if (problem === 'invalid-url') {
    throw new DiscoveryError({
      endpoint,
      message: `discovered ${field} is not an absolute URL without user info`,
    })
  }
  if (problem === 'insecure-url') {
    throw new DiscoveryError({
      endpoint,
      message: `discovered ${field} ${safeUrl(value)} is not HTTPS ${insecureUrlAdvice(value, allowInsecureLocalhost)}`,
    })
  }
  return value
}
