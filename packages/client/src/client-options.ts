import type {
  BasicAuthEncoding,
  Clock,
  CryptoBackend,
  FetchLike,
  Logger,
} from '@fhir-auth/core/essentials'
import {
  failSafeLogger,
  readOptions,
  requireBasicAuthEncoding,
  requireTimeoutMs,
  wrongType,
} from '@fhir-auth/core/internal/checks'
import { ConfigurationError, defaultLogger, systemClock } from '@fhir-auth/core/internal/up-front'
import type { ClientType, Protocol } from './client-type.js'
import type { UdapFlow } from './flow.js'
import { checkedClock } from './injected-parts.js'

/**
 * The second argument of `new Client`: protocol selection and the injectable parts.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/packages/client/README.md#options
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
  /** Time limit per request: an integer number of milliseconds from 1 to 2 147 483 647; default 10 000. */
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
   * UDAP only (ADR 0011, `docs/guides/udap.md`): `'b2b'` (default; client credentials and interactive authorization
   * code), `'b2c'` (consumer-facing apps: authorization code only) or `'tiered_oauth'`
   * (authorization code with the user authenticated at an identity provider). Another value, or
   * any value on a SMART client, is a `ConfigurationError` on `flow`.
   *
   * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/udap.md
   */
  readonly flow?: UdapFlow | null | undefined
  /**
   * SMART only: which scope syntax the client sends when it launches and asks for backend
   * tokens. `'as-configured'` (default) sends the scopes as written; `'v1'` and `'v2'` translate
   * them (`read` = `rs`; v1 cannot express letters such as `r` or search restrictions, so those
   * widen, with a warning); `'auto'` sends v1 to a server whose `capabilities` list
   * `permission-v1` but not `permission-v2`, v2 to one with `permission-v2` only, and the scopes
   * as written otherwise. The other values need the scope parser (`parseScopes`), loaded on
   * demand.
   *
   * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/scopes.md
   * @see https://hl7.org/fhir/smart-app-launch/STU2.2/scopes-and-launch-context.html SMART 2.2 scopes
   */
  readonly scopeVersion?: ScopeVersion | undefined
}

/** What {@link ClientOptions.scopeVersion} accepts. */
export type ScopeVersion = 'as-configured' | 'v1' | 'v2' | 'auto'

/** The injectable parts after validation, shared by the protocol implementations. */
export interface ResolvedClientOptions {
  readonly crypto: CryptoBackend | undefined
  readonly fetch: FetchLike | undefined
  readonly timeoutMs: number | undefined
  readonly logger: Logger
  readonly now: Clock
  readonly basicAuthEncoding: BasicAuthEncoding
  /** Absent: `as-configured`. */
  readonly scopeVersion?: ScopeVersion | undefined
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
  'scopeVersion',
]

const scopeVersions: readonly ScopeVersion[] = ['as-configured', 'v1', 'v2', 'auto']

/**
 * Reads the options object: its own members only; unknown names (`constructor` and `__proto__`
 * included) are refused so typos do not pass silently.
 */
export function readClientOptions(options: unknown): Record<string, unknown> {
  return readOptions(options as Record<string, unknown> | undefined, 'new Client', {
    known: knownOptions,
    description: 'Client options',
  })
}

/**
 * Validates the injectable parts (`protocol`, `clientType` and `flow` are read by `Client`,
 * which knows their order).
 *
 * @throws ConfigurationError naming the option.
 */
export function resolveClientOptions(options: Record<string, unknown>): ResolvedClientOptions {
  const crypto = options.crypto
  // Its specificationVersion is checked where it is first used, in code loaded on demand.
  if (crypto !== undefined && !hasFunctions(crypto, ['importSigner', 'verifySignature'])) {
    throw wrongType('crypto', 'a CryptoBackend', crypto)
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function')
    throw wrongType('fetch', 'a function', options.fetch)
  const timeoutMs =
    options.timeoutMs === undefined ? undefined : requireTimeoutMs(options.timeoutMs)
  const logger = options.logger
  if (logger !== undefined && !hasFunctions(logger, ['info', 'warn', 'error'])) {
    throw wrongType('logger', 'an object with info, warn and error functions', logger)
  }
  if (options.now !== undefined && typeof options.now !== 'function')
    throw wrongType('now', 'a function returning a Date', options.now)
  const basicAuthEncoding = requireBasicAuthEncoding(options.basicAuthEncoding ?? undefined)
  return {
    crypto: crypto as CryptoBackend | undefined,
    fetch: options.fetch as FetchLike | undefined,
    timeoutMs,
    // Logging never decides an operation's outcome; a clock that cannot tell the time is a
    // ConfigurationError on `now` wherever it is read (see failSafeLogger and checkedClock).
    logger: logger === undefined ? defaultLogger : failSafeLogger(logger as Logger),
    now: options.now === undefined ? systemClock : checkedClock(options.now as Clock),
    basicAuthEncoding,
    scopeVersion: requireScopeVersion(options.scopeVersion),
  }
}

function requireScopeVersion(value: unknown): ScopeVersion | undefined {
  if (value === undefined || scopeVersions.includes(value as ScopeVersion))
    return value as ScopeVersion | undefined
  throw new ConfigurationError({
    invalidAttribute: 'scopeVersion',
    invalidValue: value,
    validValues: scopeVersions,
  })
}

function hasFunctions(value: unknown, names: readonly string[]): boolean {
  if (typeof value !== 'object' || value === null) return false
  const record = value as Record<string, unknown>
  try {
    return names.every((name) => typeof record[name] === 'function')
  } catch {
    // A Proxy or getter that throws is no backend or logger.
    return false
  }
}
