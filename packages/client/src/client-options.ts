import {
  type BasicAuthEncoding,
  basicAuthEncodings,
  type Clock,
  ConfigurationError,
  type CryptoBackend,
  defaultLogger,
  type FetchLike,
  type Logger,
  systemClock,
} from '@fhir-auth/core'
import type { ClientType, Protocol } from './client-type.js'

/**
 * The second argument of `new Client`: protocol selection and the injectable parts.
 *
 * @see packages/client/README.md#options in the fhir-auth repository
 */
export interface ClientOptions {
  /** `'smart'` (default) or `'udap'`. */
  readonly protocol?: Protocol | undefined
  /** SMART only; defaults to `'public'`. Any explicit value is refused for UDAP. */
  readonly clientType?: ClientType | null | undefined
  /** Crypto backend; defaults to `@fhir-auth/crypto-node` in Node and `@fhir-auth/crypto-webcrypto` elsewhere. */
  readonly crypto?: CryptoBackend | undefined
  /** The `fetch` every request uses; defaults to `globalThis.fetch`. */
  readonly fetch?: FetchLike | undefined
  /** Time limit per request in milliseconds; default 10 000. */
  readonly timeoutMs?: number | undefined
  /** Where logs go; default: warnings and errors on the console, info dropped. */
  readonly logger?: Logger | undefined
  /** The clock for JWT `iat`/`exp` and certificate validity; default the system clock. */
  readonly now?: Clock | undefined
  /**
   * How a `confidential_symmetric` SMART client writes its id and secret in HTTP Basic
   * credentials: `'form-urlencoded'` (default, RFC 6749 §2.3.1) or `'raw'` (`base64(id:secret)`,
   * as the SMART IG example and some servers expect). They differ only for ids and secrets with
   * characters such as `~ + / = : %` or non-ASCII; a `TokenError` `invalid_client` then says so.
   */
  readonly basicAuthEncoding?: BasicAuthEncoding | undefined
  /**
   * Reserved by the spec for future UDAP flows (`b2b`, `b2c`, `tiered_oauth`). Not implemented:
   * any value is refused with a `ConfigurationError` on `flow`.
   */
  readonly flow?: 'b2b' | 'b2c' | 'tiered_oauth' | undefined
}

/** The injectable parts after validation, shared by the protocol implementations. */
export interface ResolvedClientOptions {
  readonly crypto: CryptoBackend | undefined
  readonly fetch: FetchLike | undefined
  readonly timeoutMs: number | undefined
  readonly logger: Logger
  readonly now: Clock
  readonly basicAuthEncoding: BasicAuthEncoding
}

const knownOptions = [
  'protocol',
  'clientType',
  'crypto',
  'fetch',
  'timeoutMs',
  'logger',
  'now',
  'basicAuthEncoding',
  'flow',
]
const reservedFlows = ['b2b', 'b2c', 'tiered_oauth']

/** Reads the options object; unknown names are refused so typos do not pass silently. */
export function readClientOptions(options: unknown): Record<string, unknown> {
  if (options === undefined || options === null) return {}
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new ConfigurationError({
      invalidAttribute: 'options',
      invalidValue: typeof options,
      message: 'Client options must be an object',
    })
  }
  for (const name of Object.keys(options)) {
    if (!knownOptions.includes(name)) {
      throw new ConfigurationError({
        invalidAttribute: name,
        validValues: knownOptions,
      })
    }
  }
  return options as Record<string, unknown>
}

/**
 * Validates the injectable parts, and refuses the reserved `flow` keyword.
 *
 * @throws ConfigurationError naming the option.
 */
export function resolveClientOptions(options: Record<string, unknown>): ResolvedClientOptions {
  if (options.flow !== undefined) {
    throw new ConfigurationError({
      invalidAttribute: 'flow',
      invalidValue: options.flow,
      validValues: reservedFlows,
      message: 'flow is reserved for future UDAP flows and not implemented yet',
    })
  }
  const crypto = options.crypto
  if (crypto !== undefined && !hasFunctions(crypto, ['importSigner', 'verifySignature'])) {
    throw optionError('crypto', 'a CryptoBackend')
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function')
    throw optionError('fetch', 'a function')
  const timeoutMs = options.timeoutMs
  if (
    timeoutMs !== undefined &&
    !(typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0)
  ) {
    throw optionError('timeoutMs', 'a positive number of milliseconds')
  }
  const logger = options.logger
  if (logger !== undefined && !hasFunctions(logger, ['info', 'warn', 'error'])) {
    throw optionError('logger', 'an object with info, warn and error functions')
  }
  if (options.now !== undefined && typeof options.now !== 'function')
    throw optionError('now', 'a function returning a Date')
  const basicAuthEncoding = options.basicAuthEncoding ?? 'form-urlencoded'
  if (!(basicAuthEncodings as readonly unknown[]).includes(basicAuthEncoding)) {
    throw new ConfigurationError({
      invalidAttribute: 'basicAuthEncoding',
      invalidValue: basicAuthEncoding,
      validValues: basicAuthEncodings,
    })
  }
  return {
    crypto: crypto as CryptoBackend | undefined,
    fetch: options.fetch as FetchLike | undefined,
    timeoutMs: timeoutMs as number | undefined,
    logger: (logger as Logger | undefined) ?? defaultLogger,
    now: (options.now as Clock | undefined) ?? systemClock,
    basicAuthEncoding: basicAuthEncoding as BasicAuthEncoding,
  }
}

function hasFunctions(value: unknown, names: readonly string[]): boolean {
  if (typeof value !== 'object' || value === null) return false
  const record = value as Record<string, unknown>
  return names.every((name) => typeof record[name] === 'function')
}

function optionError(name: string, expected: string): ConfigurationError {
  return new ConfigurationError({ invalidAttribute: name, message: `${name} must be ${expected}` })
}
