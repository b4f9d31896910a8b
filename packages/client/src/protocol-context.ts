import type { ClientConfig, CryptoBackend, TransportOptions } from '@fhir-auth/core'
import type { ResolvedClientOptions } from './client-options.js'

/**
 * What a protocol implementation gets from its `Client`: the frozen configuration, the
 * injectable parts, and the crypto backend (resolved lazily: public SMART clients never load one).
 *
 * @internal
 */
export class ProtocolContext {
  readonly config: ClientConfig
  readonly options: ResolvedClientOptions
  #backend: Promise<CryptoBackend> | undefined

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
    this.#backend ??= import('#default-crypto').then((module) =>
      module.createDefaultCryptoBackend(),
    )
    return this.#backend
  }
}
