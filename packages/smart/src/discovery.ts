import {
  ConfigurationError,
  DiscoveryError,
  HttpError,
  normalizeBaseUrl,
  parseJsonObjectBody,
  safeUrl,
  sendRequest,
  type TransportOptions,
} from '@fhir-auth/core'
import { transportOf } from './option-checks.js'
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
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/conformance.html#using-well-known
 */
export async function discoverSmartConfiguration(
  options: DiscoverSmartOptions,
): Promise<SmartMetadata> {
  const { baseUrl } = options
  if (typeof baseUrl !== 'string' || baseUrl.trim() === '') {
    throw new ConfigurationError({
      invalidAttribute: 'baseUrl',
      message: 'baseUrl must be the FHIR base URL',
    })
  }
  const url = smartConfigurationUrl(baseUrl)
  const endpoint = safeUrl(url)
  try {
    const response = await sendRequest({
      method: 'GET',
      url,
      ...transportOf(options),
    })
    if (response.status < 200 || response.status > 299) {
      throw new DiscoveryError({
        endpoint,
        status: response.status,
        message: `SMART discovery failed for ${endpoint}: HTTP ${response.status}`,
      })
    }
    return SmartMetadata.fromJson(parseJsonObjectBody(response), { baseUrl, endpoint })
  } catch (error) {
    if (!(error instanceof HttpError)) throw error
    throw new DiscoveryError(
      {
        endpoint,
        status: error.status,
        message: `SMART discovery failed for ${endpoint}: ${error.message}`,
      },
      { cause: error },
    )
  }
}
