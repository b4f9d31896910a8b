import { createPrivateKey, type JsonWebKey, KeyObject, type webcrypto } from 'node:crypto'
import { CryptoError, describeValue, isJwk, type Jwk } from '@fhir-auth/core'

/** A private key resolved to a `KeyObject`, plus any algorithm the key's origin pins. */
export interface ResolvedPrivateKey {
  readonly keyObject: KeyObject
  /**
   * The hash a WebCrypto `RSASSA-PKCS1-v1_5` key was imported for (`SHA-256`, …): it is part
   * of the key, so signing with another hash would bypass what the key's owner allowed.
   */
  readonly boundHash?: string | undefined
}

const privateKeyPemLabels = ['PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY']

/**
 * Resolves a private key given as PEM text (PKCS#8, PKCS#1 RSA or SEC1 EC), a private JWK, a
 * WebCrypto `CryptoKey` or a Node `KeyObject` to a private `KeyObject`, once, so that signing
 * does no parsing.
 *
 * Errors never carry node's original error as `cause`: it may reference the key.
 *
 * @throws CryptoError `invalid-key` for encrypted PEM, unreadable PEM or JWK, a public or
 *   secret key, a `CryptoKey` that does not allow signing, or a value of another type;
 *   `unsupported-key` for a JWK of another `kty` than RSA or EC, or a `CryptoKey` of another
 *   algorithm than RSASSA-PKCS1-v1_5 or ECDSA.
 * @see https://nodejs.org/api/crypto.html#cryptocreateprivatekeykey
 * @internal
 */
export function resolvePrivateKey(input: unknown): ResolvedPrivateKey {
  if (typeof input === 'string') return { keyObject: readPrivateKeyPem(input) }
  if (input instanceof KeyObject) return { keyObject: requirePrivate(input, 'KeyObject') }
  if (isJwk(input)) return { keyObject: readPrivateJwk(input) }
  if (isCryptoKeyLike(input)) return readCryptoKey(input)
  throw new CryptoError(
    'invalid-key',
    `expected a private key as PEM text, a private JWK, a CryptoKey, a KeyObject or a JwsSigner, got ${describeValue(input)}`,
  )
}

function readPrivateKeyPem(text: string): KeyObject {
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,\s*ENCRYPTED/.test(text)) {
    throw new CryptoError(
      'invalid-key',
      'encrypted PEM private keys are not supported; decrypt the key first (for example with `openssl pkey`)',
    )
  }
  const labels = [...text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----/g)].map((match) => match[1])
  if (!labels.some((label) => label !== undefined && privateKeyPemLabels.includes(label))) {
    const found = labels.length > 0 ? `found ${labels.join(', ')}` : 'found no PEM block'
    throw new CryptoError(
      'invalid-key',
      `the private key text holds no "PRIVATE KEY", "RSA PRIVATE KEY" or "EC PRIVATE KEY" PEM block (${found})`,
    )
  }
  try {
    return createPrivateKey({ key: text, format: 'pem' })
  } catch (error) {
    throw new CryptoError(
      'invalid-key',
      `the PEM private key could not be read; it is malformed or truncated${nodeErrorCode(error)}`,
    )
  }
}

function readPrivateJwk(jwk: Jwk): KeyObject {
  if (jwk.kty !== 'RSA' && jwk.kty !== 'EC') {
    throw new CryptoError(
      'unsupported-key',
      `a JWK of kty ${JSON.stringify(jwk.kty)} cannot make RS256, RS384, ES256 or ES384 signatures; use an RSA or EC key`,
    )
  }
  if (typeof jwk.d !== 'string') {
    throw new CryptoError(
      'invalid-key',
      `the ${jwk.kty} JWK is a public key (it has no "d"); a private JWK is needed to sign`,
    )
  }
  try {
    return createPrivateKey({ key: definedMembers(jwk), format: 'jwk' })
  } catch (error) {
    throw new CryptoError(
      'invalid-key',
      `the private JWK (kty ${JSON.stringify(jwk.kty)}) could not be read${nodeErrorCode(error)}`,
    )
  }
}

/** The JWK without `undefined` members, which node's `JsonWebKey` type does not allow. */
function definedMembers(jwk: Jwk): JsonWebKey {
  return Object.fromEntries(Object.entries(jwk).filter(([, value]) => value !== undefined))
}

interface CryptoKeyShape {
  readonly type: unknown
  readonly algorithm: { readonly name?: unknown; readonly hash?: unknown }
  readonly usages: readonly unknown[]
}

function isCryptoKeyLike(value: unknown): value is CryptoKeyShape {
  if (typeof value !== 'object' || value === null) return false
  const candidate = value as Partial<CryptoKeyShape>
  return (
    typeof candidate.type === 'string' &&
    typeof candidate.algorithm === 'object' &&
    candidate.algorithm !== null &&
    Array.isArray(candidate.usages)
  )
}

function readCryptoKey(cryptoKey: CryptoKeyShape): ResolvedPrivateKey {
  if (cryptoKey.type !== 'private') {
    throw new CryptoError(
      'invalid-key',
      `the CryptoKey is a ${describeValue(cryptoKey.type)} key; a private key is needed to sign`,
    )
  }
  if (!cryptoKey.usages.includes('sign')) {
    throw new CryptoError('invalid-key', 'the CryptoKey does not allow the "sign" usage')
  }
  const algorithmName = cryptoKey.algorithm.name
  if (algorithmName !== 'RSASSA-PKCS1-v1_5' && algorithmName !== 'ECDSA') {
    throw new CryptoError(
      'unsupported-key',
      `a ${describeValue(algorithmName)} CryptoKey cannot make RS256, RS384, ES256 or ES384 signatures; use an RSASSA-PKCS1-v1_5 or ECDSA key`,
    )
  }
  const hash = cryptoKey.algorithm.hash
  const boundHash =
    algorithmName !== 'RSASSA-PKCS1-v1_5'
      ? undefined
      : String(typeof hash === 'string' ? hash : (hash as { name?: unknown } | undefined)?.name)
  let keyObject: KeyObject
  try {
    // Works for non-extractable keys too: the key material never leaves native code.
    keyObject = KeyObject.from(cryptoKey as unknown as webcrypto.CryptoKey)
  } catch {
    throw new CryptoError(
      'invalid-key',
      'the CryptoKey could not be used; it must come from this Node.js process (globalThis.crypto.subtle)',
    )
  }
  requirePrivate(keyObject, 'CryptoKey')
  return boundHash === undefined ? { keyObject } : { keyObject, boundHash }
}

function requirePrivate(keyObject: KeyObject, form: string): KeyObject {
  if (keyObject.type !== 'private') {
    throw new CryptoError(
      'invalid-key',
      `the ${form} is a ${keyObject.type} key; a private key is needed to sign`,
    )
  }
  return keyObject
}

/**
 * Node's error *code* (such as `ERR_OSSL_UNSUPPORTED`) helps diagnose a key problem and never
 * contains key material; its message and the error object are left out on purpose.
 *
 * @internal
 */
export function nodeErrorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^[A-Z0-9_]+$/.test(code) ? ` (${code})` : ''
}
