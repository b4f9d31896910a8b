import {
  type Clock,
  ConfigurationError,
  type CryptoBackend,
  checkUrl,
  describeKind,
  describeValue,
  isJwsSigner,
  type JwsSigner,
  parseAbsoluteUrl,
  systemClock,
} from '@fhir-auth/core'
import { isPlainObject } from './json-value.js'
import { isAbsoluteUri } from './uri.js'

/**
 * Returns the options object, or throws when a JavaScript caller passed something else.
 *
 * @throws ConfigurationError on `options`.
 * @internal
 */
export function requireOptions<T>(options: T, functionName: string): T {
  if (typeof options === 'object' && options !== null && !Array.isArray(options)) return options
  throw new ConfigurationError({
    invalidAttribute: 'options',
    message: `${functionName} needs one options object, not ${describeKind(options)}`,
  })
}

const backendMethods = [
  'importSigner',
  'parseCertificate',
  'keyMatchesCertificate',
  'verifyCertificateChain',
  'verifySignature',
] as const

/**
 * Returns `value` when it has the {@link CryptoBackend} methods UDAP uses.
 *
 * @throws ConfigurationError on `crypto`.
 * @internal
 */
export function requireCryptoBackend(value: unknown): CryptoBackend {
  const candidate = value as Partial<Record<string, unknown>> | null | undefined
  if (
    typeof candidate === 'object' &&
    candidate !== null &&
    backendMethods.every((method) => typeof candidate[method] === 'function')
  ) {
    return value as CryptoBackend
  }
  throw new ConfigurationError({
    invalidAttribute: 'crypto',
    message: `crypto must be a CryptoBackend (for example createNodeCryptoBackend() from @fhir-auth/crypto-node) with ${backendMethods.join(', ')}`,
  })
}

/**
 * Returns `value` when it is a {@link JwsSigner}.
 *
 * @throws ConfigurationError on `signer`.
 * @internal
 */
export function requireSigner(value: unknown): JwsSigner {
  if (isJwsSigner(value)) return value
  throw new ConfigurationError({
    invalidAttribute: 'signer',
    message: 'signer must be a JwsSigner (an alg and a sign function), e.g. from prepareUdapSigner',
  })
}

/**
 * Reads the current time from the caller's clock (default: the system clock).
 *
 * @throws ConfigurationError on `now` when it is not a function returning a valid `Date`.
 * @internal
 */
export function currentTime(clock: Clock | undefined): Date {
  return requireDate(requireClock(clock)(), 'now')
}

/**
 * Returns the caller's clock, or the system clock when none is given.
 *
 * @throws ConfigurationError on `now` when it is not a function.
 * @internal
 */
export function requireClock(clock: unknown): Clock {
  if (clock === undefined) return systemClock
  if (typeof clock === 'function') return clock as Clock
  throw new ConfigurationError({
    invalidAttribute: 'now',
    message: `now must be a function returning a Date, not ${describeKind(clock)}`,
  })
}

/**
 * Returns `value` when it is a valid `Date`.
 *
 * @throws ConfigurationError on `attribute`.
 * @internal
 */
export function requireDate(value: unknown, attribute: string): Date {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value
  throw new ConfigurationError({
    invalidAttribute: attribute,
    invalidValue: describeValue(value),
    message: `${attribute} must give a valid Date`,
  })
}

/**
 * Returns `value` when it is an absolute URI (any scheme: `https:`, `urn:`, `did:`…).
 *
 * @throws ConfigurationError on `attribute`.
 * @internal
 */
export function requireAbsoluteUri(value: unknown, attribute: string): string {
  if (isAbsoluteUri(value)) return value
  throw new ConfigurationError({
    invalidAttribute: attribute,
    ...(typeof value === 'string' ? { invalidValue: value } : {}),
    message: `${attribute} must be an absolute URI, not ${typeof value === 'string' ? describeValue(value) : describeKind(value)}`,
  })
}

/**
 * Returns `value` when it is an absolute URL (the `aud` of a JWT; the request that uses it
 * applies the HTTPS policy).
 *
 * @throws ConfigurationError on `attribute`.
 * @internal
 */
export function requireAbsoluteUrl(value: unknown, attribute: string): string {
  if (typeof value === 'string' && parseAbsoluteUrl(value) !== undefined) return value
  throw new ConfigurationError({
    invalidAttribute: attribute,
    message: `${attribute} must be an absolute URL, not ${typeof value === 'string' ? describeValue(value) : describeKind(value)}`,
  })
}

/**
 * Returns `value` when it is a URL the transport policy accepts: HTTPS, or loopback HTTP with
 * `allowInsecureLocalhost`. Checked before any request, so nothing is sent over plain HTTP.
 *
 * @throws ConfigurationError on `attribute`.
 * @internal
 */
export function requireEndpoint(
  value: unknown,
  attribute: string,
  allowInsecureLocalhost: boolean | undefined,
): string {
  if (typeof value === 'string' && checkUrl(value, allowInsecureLocalhost === true) === undefined) {
    return value
  }
  throw new ConfigurationError({
    invalidAttribute: attribute,
    ...(typeof value === 'string' ? { invalidValue: value } : {}),
    message: `${attribute} must be an HTTPS URL${allowInsecureLocalhost === true ? ' (or HTTP on a loopback host)' : ''}`,
  })
}

/**
 * Returns `value` when it is a plain object.
 *
 * @throws ConfigurationError on `attribute`.
 * @internal
 */
export function requirePlainObject(value: unknown, attribute: string): Record<string, unknown> {
  if (isPlainObject(value)) return value
  throw new ConfigurationError({
    invalidAttribute: attribute,
    message: `${attribute} must be a plain object, not ${describeKind(value)}`,
  })
}
