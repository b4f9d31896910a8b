import {
  ConfigurationError,
  type CryptoBackend,
  describeValue,
  parseAbsoluteUrl,
} from '@fhir-auth/core/essentials'
import { describeKind, wrongType } from '@fhir-auth/core/internal'
import { checkBackendVersion, isPlainObject } from '@fhir-auth/core/internal/on-demand'
import { isAbsoluteUri } from './uri.js'

/*
 * UDAP's own argument checks. The ones every package shares (options objects, strings, scopes,
 * clocks, endpoint URLs, signers) are in `@fhir-auth/core/internal` and its `/on-demand` entry.
 */

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
    checkBackendVersion(candidate)
    return value as CryptoBackend
  }
  throw new ConfigurationError({
    invalidAttribute: 'crypto',
    message: `crypto must be a CryptoBackend (for example createNodeCryptoBackend() from @fhir-auth/crypto-node) with ${backendMethods.join(', ')}`,
  })
}

/**
 * Returns `value` when it is an absolute URI (any scheme: `https:`, `urn:`, `did:`…), as UDAP
 * names clients and organisations.
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
 * Returns `value` when it is a plain object (claims, extensions).
 *
 * @throws ConfigurationError on `attribute`.
 * @internal
 */
export function requirePlainObject(value: unknown, attribute: string): Record<string, unknown> {
  if (isPlainObject(value)) return value
  throw wrongType(attribute, 'a plain object', value)
}
