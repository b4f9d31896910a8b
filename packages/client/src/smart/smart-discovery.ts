import {
  ConfigurationError,
  DiscoveryError,
  type Logger,
  safeUrl,
} from '@fhir-auth/core/essentials'
import { lazyImport, raceCallerSignal } from '@fhir-auth/core/internal'
import {
  type DiscoveredEndpointField,
  discoverSmartConfiguration,
  requireDiscoveredEndpoint,
  type SmartMetadata,
  smartConfigurationUrl,
} from '@fhir-auth/smart/launch'
import type { ProtocolContext } from '../protocol-context.js'

/** Warnings for servers that deviate: loaded for such a server only (ADR 0012). */
const deviationWarnings = lazyImport(() => import('./deviation-warnings.js'))

/**
 * The spec's discovery cache and endpoint resolution for one SMART implementation:
 *
 * - metadata is fetched on first need and kept for the life of the implementation;
 * - concurrent callers share one request; a failure is not kept, so the next call retries;
 * - a configured endpoint is used as is; a discovered one is checked (usable HTTPS) and memoized.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/packages/client/README.md#discovery-and-caching
 * @internal
 */
export class SmartDiscovery {
  readonly #context: ProtocolContext
  #metadata: SmartMetadata | undefined
  #pending: Promise<SmartMetadata> | undefined
  readonly #endpoints = new Map<DiscoveredEndpointField, string>()

  constructor(context: ProtocolContext) {
    this.#context = context
  }

  /** The SMART configuration, fetched once. */
  metadata(signal?: AbortSignal): Promise<SmartMetadata> {
    if (this.#metadata !== undefined) return Promise.resolve(this.#metadata)
    // The shared request is not tied to any one caller's signal; each caller races its own.
    const shared = () => {
      this.#pending ??= this.#fetch().finally(() => {
        this.#pending = undefined
      })
      return this.#pending
    }
    const endpoint = this.#context.config.baseUrl ?? ''
    return raceCallerSignal(shared, signal, smartConfigurationUrlOf(endpoint))
  }

  authorizationEndpoint(signal?: AbortSignal): Promise<string> {
    return this.#endpoint('authorizationEndpoint', 'authorization_endpoint', signal)
  }

  tokenEndpoint(signal?: AbortSignal): Promise<string> {
    return this.#endpoint('tokenEndpoint', 'token_endpoint', signal)
  }

  async registrationEndpoint(signal?: AbortSignal): Promise<string> {
    return this.#discovered(await this.metadata(signal), 'registration_endpoint')
  }

  /**
   * The RFC 7009 `revocation_endpoint` the SMART configuration advertises (a usable HTTPS URL),
   * `undefined` when it advertises none.
   *
   * @throws DiscoveryError when discovery fails or the endpoint is not a usable HTTPS URL.
   */
  async revocationEndpoint(signal?: AbortSignal): Promise<string | undefined> {
    const metadata = await this.metadata(signal)
    return metadata.revocationEndpoint && this.#discovered(metadata, 'revocation_endpoint')
  }

  /**
   * A configured endpoint as is, else the discovered one. Spec: an endpoint "neither configured
   * nor discoverable" (no baseUrl; for the authorization endpoint also: not in the SMART
   * configuration) is a configuration problem; a token endpoint missing from the document is
   * the document's ({@link requireDiscoveredEndpoint}).
   */
  async #endpoint(
    attribute: 'authorizationEndpoint' | 'tokenEndpoint',
    field: DiscoveredEndpointField,
    signal: AbortSignal | undefined,
  ): Promise<string> {
    const { config } = this.#context
    const configured = config[attribute]
    if (configured !== undefined) return configured
    const metadata = config.baseUrl === undefined ? undefined : await this.metadata(signal)
    if (
      metadata === undefined ||
      (metadata[attribute] === undefined && field === 'authorization_endpoint')
    ) {
      throw new ConfigurationError({
        invalidAttribute: attribute,
        message: `${attribute} is neither configured nor ${metadata ? 'in the SMART configuration' : 'discoverable (no baseUrl)'}`,
      })
    }
    return this.#discovered(metadata, field)
  }

  #discovered(metadata: SmartMetadata, field: DiscoveredEndpointField): string {
    const known = this.#endpoints.get(field)
    if (known !== undefined) return known
    const endpoint = requireDiscoveredEndpoint(
      metadata,
      field,
      this.#context.config.allowInsecureLocalhost,
    )
    this.#endpoints.set(field, endpoint)
    return endpoint
  }

  async #fetch(): Promise<SmartMetadata> {
    const { config, options } = this.#context
    if (config.baseUrl === undefined) {
      throw new ConfigurationError({
        invalidAttribute: 'baseUrl',
        message: 'baseUrl is required for SMART discovery',
      })
    }
    const endpoint = smartConfigurationUrlOf(config.baseUrl)
    options.logger.info(`Fetching SMART configuration from ${endpoint}`, {
      event: 'smart.discovery',
    })
    try {
      const metadata = await discoverSmartConfiguration({
        ...this.#context.transport(),
        baseUrl: config.baseUrl,
      })
      await noteRelativeEndpoints(metadata, options.logger)
      this.#metadata = metadata
      return metadata
    } catch (error) {
      if (error instanceof DiscoveryError) {
        // The error's own message already says "SMART discovery failed for <url>: …".
        options.logger.error(
          error.status === undefined
            ? error.message
            : `SMART discovery failed for ${error.endpoint ?? endpoint}: HTTP ${error.status}`,
          { event: 'smart.discovery.failed', status: error.status },
        )
      }
      throw error
    }
  }
}

/**
 * The warnings a client logs for relative endpoint URLs (see `warnOnRelativeEndpoints`), whose
 * code loads only for a document that has one.
 */
export async function noteRelativeEndpoints(
  metadata: SmartMetadata,
  logger: Logger,
): Promise<void> {
  // Top-level members only, read as they are: a document may nest anything anywhere else
  // (100 000 levels overflow `JSON.stringify`), and only these name endpoints.
  const relative = Object.entries(metadata.raw).some(
    ([name, value]) =>
      (name === 'jwks_uri' || /^\w+_endpoint$/.test(name)) &&
      typeof value === 'string' &&
      !/^[a-z][a-z\d+.-]*:/i.test(value),
  )
  if (relative) (await deviationWarnings()).warnOnRelativeEndpoints(metadata, logger)
}

function smartConfigurationUrlOf(baseUrl: string): string {
  return baseUrl === '' ? '(no baseUrl)' : safeUrl(smartConfigurationUrl(baseUrl))
}
