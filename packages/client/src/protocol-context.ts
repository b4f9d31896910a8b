import type {
  ClientConfig,
  CryptoBackend,
  TokenSetBinding,
  TransportOptions,
} from '@fhir-auth/core/essentials'
import {
  lazy,
  optionalScopes,
  optionalSignal,
  optionalString,
  readOptions,
} from '@fhir-auth/core/internal/checks'
import type { ResolvedClientOptions } from './client-options.js'
import type { ClientType } from './client-type.js'
import { defaultCryptoModule } from './default-crypto/on-demand.js'
import { checkClientCredentialsFlow, type UdapFlow } from './flow.js'
import { optionalStore } from './launch/store-option.js'
import { checkBinding } from './session/session-binding.js'
import { optionalListener } from './session/tokens-listener.js'
import { trustInputsOf } from './trust-inputs.js'

/** A registration this client made (UDAP): who it is now, and as which client URI it signs. */
export interface ClientRegistration {
  readonly clientId: string
  readonly clientUri: string
}

/**
 * What a protocol implementation gets from its `Client`: the frozen configuration, the
 * injectable parts, the SMART client type (assigning `client.clientType` changes it here, so an
 * implementation already built follows without a new discovery), and the crypto backend
 * (resolved lazily: public SMART clients never load one).
 *
 * @internal
 */
export class ProtocolContext {
  readonly config: ClientConfig
  readonly options: ResolvedClientOptions
  /** The SMART client type; `null` for UDAP. */
  clientType: ClientType | null
  /** The UDAP flow (`b2b` by default); `null` for SMART. */
  readonly flow: UdapFlow | null
  /**
   * The registration this client made, if any (UDAP, ADR 0008): its `client_id` is the one in
   * use — in authentication tokens, authorization requests and the `aud` of ID tokens — in place
   * of a configured `clientId` (IG STU2 §3.4: after a modification that returns a new
   * `client_id`, the client SHALL use only the new one).
   */
  registration: ClientRegistration | undefined
  /**
   * Argument checks and the per-caller abort race, for the operations loaded on demand. They
   * reach these helpers through the context rather than by importing them, so bundlers keep
   * the helpers in the client's main chunk instead of splitting them into tiny shared chunks
   * that a browser would have to fetch up front.
   */
  readonly checks = {
    checkBinding,
    checkClientCredentialsFlow,
    optionalListener,
    optionalScopes,
    optionalStore,
    optionalString,
    trustInputsOf,
  }
  readonly #defaultBackend = lazy(() =>
    defaultCryptoModule().then((module) => module.createDefaultCryptoBackend()),
  )

  constructor(
    config: ClientConfig,
    options: ResolvedClientOptions,
    clientType: ClientType | null,
    flow: UdapFlow | null = null,
  ) {
    this.config = config
    this.options = options
    this.clientType = clientType
    this.flow = flow
  }

  /** The `client_id` in use: that of a registration this client made, else the configured one. */
  clientId(): string | undefined {
    return this.registration?.clientId ?? this.config.clientId
  }

  /**
   * What this client knows of its own binding without a request: its FHIR base URL, client id
   * and configured issuer (the SMART `aud`, which defaults to the base URL), and its token
   * endpoint when configured. A discovered token endpoint is known only after discovery: the
   * refresh compares it before it sends anything, and records it.
   */
  binding(): TokenSetBinding {
    const { config } = this
    return {
      tokenEndpoint: config.tokenEndpoint,
      issuer: config.issuer,
      baseUrl: config.baseUrl,
      clientId: this.clientId(),
    }
  }

  /**
   * Reads an operation's options object: `undefined` becomes `{}`; its own members only (so a
   * polluted prototype is never read, and a getter runs once); `signal` must be an `AbortSignal`.
   * With `known` (the `Client` operations, from `operationOptionNames`), any other member name
   * is refused as an unknown option (ADR 0008); without it (an implementation reading what its
   * `Client` already checked and passed on) other members are left alone.
   *
   * @throws ConfigurationError on `options`, `signal` or an unknown option.
   */
  readOptions<T extends object>(
    input: T | undefined,
    operation: string,
    known?: readonly string[],
  ): Partial<T> {
    const options = readOptions(input, operation, {
      known,
      noun: 'option',
    }) as { signal?: AbortSignal | undefined }
    // `null` is no signal, as for every other option (ADR 0008).
    options.signal = optionalSignal(options.signal)
    return options as Partial<T>
  }

  /** Transport settings for one request. */
  transport(signal?: AbortSignal): TransportOptions {
    return {
      fetch: this.options.fetch,
      timeoutMs: this.options.timeoutMs,
      signal,
      allowInsecureLocalhost: this.config.allowInsecureLocalhost,
      logger: this.options.logger,
    }
  }

  /** The configured backend, else this runtime's default, created once per client. */
  cryptoBackend(): Promise<CryptoBackend> {
    if (this.options.crypto !== undefined) return Promise.resolve(this.options.crypto)
    return this.#defaultBackend()
  }
}
