import {
  CryptoError,
  isJwk,
  isJwsSigner,
  type Jwk,
  type JwsSigner,
  type PrivateKeyInput,
} from '@fhir-auth/core/essentials'

/** A private key sorted by the form it came in. */
export type PrivateKeyForm =
  | { readonly form: 'pem'; readonly pem: string }
  | { readonly form: 'jwk'; readonly jwk: Jwk }
  | { readonly form: 'crypto-key'; readonly key: CryptoKey }
  | { readonly form: 'signer'; readonly signer: JwsSigner }

/** True for a WebCrypto `CryptoKey`, recognised by shape so keys from another realm count too. */
export function isCryptoKey(value: unknown): value is CryptoKey {
  if (typeof value !== 'object' || value === null) return false
  const candidate = value as Partial<
    Record<'type' | 'extractable' | 'algorithm' | 'usages', unknown>
  >
  return (
    typeof candidate.type === 'string' &&
    typeof candidate.extractable === 'boolean' &&
    typeof candidate.algorithm === 'object' &&
    candidate.algorithm !== null &&
    typeof (candidate.algorithm as { name?: unknown }).name === 'string' &&
    Array.isArray(candidate.usages)
  )
}

/** True for a Node `KeyObject`, which only `@fhir-auth/crypto-node` can use. */
function isKeyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  const candidate = value as { type?: unknown; export?: unknown }
  return typeof candidate.type === 'string' && typeof candidate.export === 'function'
}

/**
 * Sorts a private key by form: PEM text, private JWK, `CryptoKey` or ready `JwsSigner`.
 *
 * @throws CryptoError `unsupported-key` for a Node `KeyObject` (this backend runs where there
 *   is no `node:crypto`); `invalid-key` for anything else that is not a key. The message
 *   describes the value's type only, never its content.
 */
export function sortPrivateKey(key: PrivateKeyInput | unknown): PrivateKeyForm {
  if (typeof key === 'string') return { form: 'pem', pem: key }
  // A signer is checked first: an HSM adapter object may carry other key-like members.
  if (isJwsSigner(key)) return { form: 'signer', signer: key }
  if (isCryptoKey(key)) return { form: 'crypto-key', key }
  if (isKeyObject(key)) {
    throw new CryptoError(
      'unsupported-key',
      'a Node KeyObject cannot be used with @fhir-auth/crypto-webcrypto; use @fhir-auth/crypto-node, or pass the key as PEM, a JWK or a CryptoKey',
    )
  }
  if (isJwk(key)) return { form: 'jwk', jwk: key }
  throw new CryptoError(
    'invalid-key',
    `the private key must be PEM text, a private JWK, a CryptoKey or a JwsSigner, not ${describeType(key)}`,
  )
}

function describeType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (value instanceof Uint8Array) return 'a byte array (PEM-encode DER keys first)'
  return typeof value === 'object' ? 'an object of another shape' : `a ${typeof value}`
}
