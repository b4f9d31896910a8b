import { normalizeBaseUrl, safeUrl, type TransportOptions } from '@fhir-auth/core/essentials'
import {
  fetchDiscoveryDocument,
  readOptions,
  requireNonBlankString,
  transportOf,
} from '@fhir-auth/core/internal'
import { SmartMetadata } from './smart-metadata.js'

/** Options of {@link discoverSmartConfiguration}. */
export interface DiscoverSmartOptions extends TransportOptions {
  /** The FHIR base URL, e.g. `https://fhir.example.org/r4`. */
  readonly baseUrl: string
}

/**
 * The SMART discovery URL of a FHIR server: the base URL without trailing slashes, then
 * `/.well-known/smart-configuration`.
 *
 * @example
 * ```ts
 * smartConfigurationUrl('https://ehr.example.org/fhir/')
 * // 'https://ehr.example.org/fhir/.well-known/smart-configuration'
 * ```
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/conformance.html#using-well-known
 */
export function smartConfigurationUrl(baseUrl: string): string {
  return `${normalizeBaseUrl(baseUrl)}/.well-known/smart-configuration`
}

/**
 * Fetches and wraps a server's SMART configuration (one GET, under the core transport policy:
 * HTTPS, timeout, size cap, redirects only to acceptable URLs). The body is parsed as JSON
 * whatever its content type, since the IG says the response SHALL be JSON regardless of
 * `Accept`. Nothing is cached here; the `Client` caches.
 *
 * @throws ConfigurationError `baseUrl` when it is not a non-blank string.
 * @throws DiscoveryError with `endpoint` = the discovery URL and `status` when there was a
 *   response: non-2xx status, body not a JSON object, or a transport failure (the
 *   `HttpError` is the `cause`).
 * @example
 * ```ts
 * const metadata = await discoverSmartConfiguration({ baseUrl: 'https://ehr.example.org/fhir' })
 * metadata.authorizationEndpoint
 * metadata.supportsPostAuthorization()
 * ```
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/conformance.html#using-well-known
 */
export async function discoverSmartConfiguration(
  input: DiscoverSmartOptions,
): Promise<SmartMetadata> {
  const options = readOptions(input, 'discoverSmartConfiguration', { required: true })
  const baseUrl = requireNonBlankString(options.baseUrl, 'baseUrl', false)
  const url = smartConfigurationUrl(baseUrl)
  const document = await fetchDiscoveryDocument({
    url,
    label: 'SMART discovery',
    transport: transportOf(options),
  })
  return SmartMetadata.fromJson(document, { baseUrl, endpoint: safeUrl(url) })
}
