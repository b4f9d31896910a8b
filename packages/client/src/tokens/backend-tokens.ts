import type { FetchLike } from '@fhir-auth/core/essentials'
import type { BearerFetchInput } from './bearer-fetch.js'
import { onDemandBearerFetch } from './on-demand-bearer-fetch.js'
import type { SharedTokenCache } from './shared-token-cache.js'

/** What a {@link BackendTokens} handle needs. @internal */
export interface BackendTokensDependencies {
  /** The entry for this handle's identity (shared by every handle with the same identity). */
  readonly cache: () => Promise<SharedTokenCache>
  readonly baseUrl: string | undefined
  readonly fetch: FetchLike | undefined
  readonly minValiditySeconds: number
}

/**
 * Backend access tokens that are reused: `accessToken()` returns a cached token until it
 * expires within `minValiditySeconds` (default 60), and concurrent callers — in this process,
 * or in every process sharing the `store` — share one token request. `fetch` adds the token to
 * requests under the FHIR base URL; a 401 drops the token and the request is sent once more with
 * a new one.
 *
 * @see docs/guides/backend-services-at-scale.md in the fhir-auth repository
 * @see docs/adr/0010-backend-tokens-shared-by-a-fleet.md in the fhir-auth repository
 */
export class BackendTokens {
  readonly #dependencies: BackendTokensDependencies
  /**
   * `fetch` with `Authorization: Bearer` for URLs under the FHIR `baseUrl`; any other URL is a
   * `ConfigurationError` and nothing is sent.
   */
  readonly fetch: (input: BearerFetchInput, init?: RequestInit) => Promise<Response>

  /** @internal Made by `client.backendTokens(…)`. */
  constructor(dependencies: BackendTokensDependencies) {
    this.#dependencies = dependencies
    // Bound, like `fetch`: apps hand `tokens.accessToken` to FHIR clients as a token provider.
    this.accessToken = this.accessToken.bind(this)
    this.invalidate = this.invalidate.bind(this)
    this.fetch = onDemandBearerFetch({
      baseUrl: dependencies.baseUrl,
      fetch: dependencies.fetch,
      accessToken: () => this.accessToken(),
      renew: async (failedToken) => {
        await (await dependencies.cache()).invalidate(failedToken)
        return true
      },
      forget: async (failedToken) => {
        await (await dependencies.cache()).invalidate(failedToken)
      },
    })
  }

  /**
   * A valid access token: the cached one, or a new one from the token endpoint.
   *
   * @throws TokenError (and the ConfigurationError/DiscoveryError of `requestBackendToken`) when
   *   a token has to be requested and that fails. Store failures are never thrown.
   */
  async accessToken(): Promise<string> {
    const cache = await this.#dependencies.cache()
    return (await cache.token(this.#dependencies.minValiditySeconds)).accessToken
  }

  /** Forgets the cached token (in the shared store too): the next call requests a new one. */
  async invalidate(): Promise<void> {
    await (await this.#dependencies.cache()).invalidate()
  }

  /** A summary safe to log. */
  toJSON(): Record<string, unknown> {
    return {
      baseUrl: this.#dependencies.baseUrl,
      minValiditySeconds: this.#dependencies.minValiditySeconds,
    }
  }
}
