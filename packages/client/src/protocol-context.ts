import type { ClientConfig, CryptoBackend, TransportOptions } from '@fhir-auth/core'
import { optionalScopes, optionalString, readOptions } from './arguments.js'
import { raceCallerSignal } from './caller-signal.js'
import type { ResolvedClientOptions } from './client-options.js'
import { lazy } from './lazy.js'

/**
 * What a protocol implementation gets from its `Client`: the frozen configuration, the
 * injectable parts, and the crypto backend (resolved lazily: public SMART clients never load one).
 *
 * @internal
 */
export class ProtocolContext {
  readonly config: ClientConfig
  readonly options: ResolvedClientOptions
  /**
   * The client's own argument checks and the per-caller abort race, for the operations loaded on
   * demand. They reach these helpers through the context rather than by importing them, so
   * bundlers keep the helpers in the client's main chunk instead of splitting them into tiny
   * shared chunks that a browser would have to fetch up front. (The checks shared by all
   * packages come from `@fhir-auth/core`, which is outside this bundle anyway.)
   */
  readonly checks = { optionalScopes, optionalString, readOptions }
  readonly raceCallerSignal = raceCallerSignal
  readonly #defaultBackend = lazy(() =>
    import('#default-crypto').then((module) => module.createDefaultCryptoBackend()),
  )

  constructor(config: ClientConfig, options: ResolvedClientOptions) {
    this.config = config
    this.options = options
  }

  /** Transport settings for one request. */
  transport(signal?: AbortSignal): TransportOptions {
    return {
      fetch: this.options.fetch,
      timeoutMs: this.options.timeoutMs,
      signal,
      allowInsecureLocalhost: this.config.allowInsecureLocalhost,
    }
  }

  /** The configured backend, else this runtime's default, created once per client. */
  cryptoBackend(): Promise<CryptoBackend> {
    if (this.options.crypto !== undefined) return Promise.resolve(this.options.crypto)
    return this.#defaultBackend()
  }
}
