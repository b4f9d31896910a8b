import { normalizeBaseUrl } from '@fhir-auth/core/essentials'
import { requireNonBlankString } from '@fhir-auth/core/internal'

/**
 * The UDAP discovery URL of a FHIR server: the base URL without trailing slashes, then
 * `/.well-known/udap`, then `?community=<percent-encoded URI>` when a trust community is named.
 *
 * @param baseUrl the FHIR base URL, e.g. `https://fhir.example.org/r4`.
 * @param community the trust community URI whose certificate the server should sign with.
 * @throws ConfigurationError `baseUrl` or `community` when not a non-blank string.
 * @example
 * ```ts
 * udapDiscoveryUrl('https://fhir.example.org/r4/', 'udap://fhirlabs.net/')
 * // 'https://fhir.example.org/r4/.well-known/udap?community=udap%3A%2F%2Ffhirlabs.net%2F'
 * ```
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#multiple-trust-communities
 */
export function udapDiscoveryUrl(baseUrl: string, community?: string): string {
  const url = `${normalizeBaseUrl(requireNonBlankString(baseUrl, 'baseUrl'))}/.well-known/udap`
  if (community === undefined) return url
  return `${url}?community=${encodeURIComponent(requireNonBlankString(community, 'community'))}`
}
