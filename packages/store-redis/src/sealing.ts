import { base64UrlDecode, base64UrlEncode, ConfigurationError, StoreError } from '@fhir-auth/core'

/** What a sealed value starts with: the format's name and version. */
const sealedPrefix = 'fa1.'
const ivBytes = 12

/**
 * 32 bytes (a `Uint8Array` or Node `Buffer`, or the `ArrayBuffer` that `crypto.subtle.exportKey('raw', …)`
 * gives), or an AES-GCM `CryptoKey` allowed to encrypt and decrypt.
 */
export type EncryptionKeyInput = Uint8Array | ArrayBuffer | CryptoKey

/**
 * Seals and opens store values with AES-256-GCM (WebCrypto), so a shared Redis holds no token
 * text. The store key is the additional authenticated data: a sealed value moved to another key
 * does not open there (nobody with write access to Redis can swap one launch's record for
 * another's).
 *
 * Format: `fa1.<base64url IV (12 bytes)>.<base64url ciphertext with its 16-byte tag>`.
 *
 * @see https://nvlpubs.nist.gov/nistpubs/Legacy/SP/nistspecialpublication800-38d.pdf NIST SP 800-38D (GCM, 96-bit random IVs)
 */
export interface Sealer {
  seal(key: string, value: string): Promise<string>
  open(key: string, sealed: string, operation: 'get' | 'take'): Promise<string>
}

/**
 * @throws ConfigurationError on `encryptionKey` unless it is 32 bytes or an AES-GCM `CryptoKey`
 *   of 256 bits with both usages.
 */
export function createSealer(input: EncryptionKeyInput): Sealer {
  const key = importEncryptionKey(input)
  // The import of valid raw bytes cannot fail; the promise is awaited by every use.
  key.catch(() => {})
  const encoder = new TextEncoder()
  const decoder = new TextDecoder('utf-8', { fatal: true })
  // A value read again unchanged (a fleet's token, read on every call) is opened once: the
  // same ciphertext under the same key can only hold the same text.
  const opened = new Map<string, { readonly sealed: string; readonly text: string }>()
  return {
    async seal(storeKey, value) {
      const iv = crypto.getRandomValues(new Uint8Array(ivBytes))
      const algorithm = { name: 'AES-GCM', iv, additionalData: encoder.encode(storeKey) }
      const sealed = await crypto.subtle.encrypt(algorithm, await key, encoder.encode(value))
      return `${sealedPrefix}${base64UrlEncode(iv)}.${base64UrlEncode(new Uint8Array(sealed))}`
    },
    async open(storeKey, sealed, operation) {
      const known = opened.get(storeKey)
      if (known?.sealed === sealed) return known.text
      try {
        const [iv, data] = splitSealed(sealed)
        const algorithm = { name: 'AES-GCM', iv, additionalData: encoder.encode(storeKey) }
        const text = decoder.decode(await crypto.subtle.decrypt(algorithm, await key, data))
        remember(opened, storeKey, { sealed, text })
        return text
      } catch {
        throw new StoreError(
          operation,
          'a value in Redis could not be opened: it was sealed with another encryptionKey, written without one, or altered',
          { reason: 'unreadable' },
        )
      }
    },
  }
}

/** How many keys' last opened values are kept. */
const openedLimit = 256

function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key)
  map.set(key, value)
  if (map.size > openedLimit) map.delete(map.keys().next().value as K)
}

function splitSealed(sealed: string): [Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>] {
  const [iv, data, ...rest] = sealed.startsWith(sealedPrefix)
    ? sealed.slice(sealedPrefix.length).split('.')
    : []
  if (iv === undefined || data === undefined || rest.length > 0) throw new Error('not sealed')
  const ivRead = base64UrlDecode(iv)
  const dataRead = base64UrlDecode(data)
  if (ivRead?.length !== ivBytes || dataRead === undefined) throw new Error('not sealed')
  return [new Uint8Array(ivRead), new Uint8Array(dataRead)]
}

/** Checks the key's shape synchronously (so `redisStore` fails when made), then imports it. */
function importEncryptionKey(input: EncryptionKeyInput): Promise<CryptoKey> {
  if (input instanceof Uint8Array || input instanceof ArrayBuffer) {
    // A copy: the caller may reuse or wipe its buffer once the store is made.
    const bytes = new Uint8Array(input.slice(0))
    if (bytes.length !== 32) throw invalidKey(`${bytes.length} bytes`)
    return crypto.subtle.importKey('raw', bytes, 'AES-GCM', false, ['encrypt', 'decrypt'])
  }
  if (isAesGcm256Key(input)) return Promise.resolve(input)
  throw invalidKey(
    input === null ? 'null' : typeof input === 'object' ? 'another key' : typeof input,
  )
}

function isAesGcm256Key(value: unknown): value is CryptoKey {
  if (typeof CryptoKey === 'undefined' || !(value instanceof CryptoKey)) return false
  const algorithm = value.algorithm as { name?: string; length?: number }
  return (
    algorithm.name === 'AES-GCM' &&
    algorithm.length === 256 &&
    value.usages.includes('encrypt') &&
    value.usages.includes('decrypt')
  )
}

function invalidKey(kind: string): ConfigurationError {
  return new ConfigurationError({
    invalidAttribute: 'encryptionKey',
    invalidValue: kind,
    message: `encryptionKey must be 32 bytes or an AES-GCM CryptoKey of 256 bits for encrypt and decrypt, not ${kind}`,
  })
}
