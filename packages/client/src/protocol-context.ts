import type { ClientConfig, CryptoBackend, TransportOptions } from '@fhir-auth/core'
import {
  isPresent,
  optionalScopes,
  optionalString,
  readOptions,
  requireString,
  usableScopes,
} from './arguments.js'
import { raceCallerSignal } from './caller-signal.js'
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
  /**
   * Argument checks and the per-caller abort race, for the operations loaded on demand. They
   * reach these helpers through the context rather than by importing them, so bundlers keep the
   * helpers in the client's main chunk instead of splitting them into tiny shared chunks that a
   * browser would have to fetch up front.
   */
  readonly checks = {
    isPresent,
    optionalScopes,
    optionalString,
    readOptions,
    requireString,
    usableScopes,
  }
  readonly raceCallerSignal = raceCallerSignal
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
