import {
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  type KeyObject,
  sign,
} from 'node:crypto'
import { promisify } from 'node:util'
import type { Jwk } from '@fhir-auth/client'
import type { KmsClient, KmsSigningAlgorithm, KmsSignRequest } from './kms-client.js'

const generateKeyPairAsync = promisify(generateKeyPair)
const signAsync = promisify(sign)

/** A failed KMS call, as an SDK would report it (e.g. a disabled or unknown key). */
export class KmsError extends Error {
  override readonly name = 'KmsError'
}

/** The key specs this stand-in offers, with the KMS signing algorithm each one supports. */
const keySpecs = {
  RSA_2048: 'RSASSA_PKCS1_V1_5_SHA_384',
  ECC_NIST_P384: 'ECDSA_SHA_384',
} as const satisfies Record<string, KmsSigningAlgorithm>

/** A key as the local KMS keeps it. */
interface StoredKey {
  readonly privateKey: KeyObject
  readonly signingAlgorithm: KmsSigningAlgorithm
  enabled: boolean
}

/**
 * An in-process stand-in for a cloud KMS, so the example runs without cloud credentials.
 * Like the real thing it creates keys it never exports, hands out only the public key, and
 * returns DER-encoded ECDSA signatures. In production, implement {@link KmsClient} with your
 * KMS's SDK instead.
 */
export class LocalKms implements KmsClient {
  readonly #keys = new Map<string, StoredKey>()

  /** Creates a key and returns its public JWK (to register with the authorization server). */
  async createKey(keyId: string, keySpec: keyof typeof keySpecs): Promise<Jwk> {
    const pair =
      keySpec === 'RSA_2048'
        ? await generateKeyPairAsync('rsa', { modulusLength: 2048 })
        : await generateKeyPairAsync('ec', { namedCurve: 'P-384' })
    // Round-trip through PEM before exporting a JWK: Node 20 can deadlock when a freshly
    // generated EC key is exported straight to JWK.
    const privateKey = createPrivateKey(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }))
    this.#keys.set(keyId, { privateKey, signingAlgorithm: keySpecs[keySpec], enabled: true })
    return createPublicKey(privateKey).export({ format: 'jwk' }) as Jwk
  }

  /** Disables a key, as an operator might during an incident: signing then fails. */
  disableKey(keyId: string): void {
    const key = this.#keys.get(keyId)
    if (key !== undefined) key.enabled = false
  }

  async sign(request: KmsSignRequest): Promise<Uint8Array> {
    const key = this.#keys.get(request.keyId)
    if (key === undefined) throw new KmsError(`key ${request.keyId} does not exist`)
    if (!key.enabled) throw new KmsError(`key ${request.keyId} is disabled`)
    if (request.signingAlgorithm !== key.signingAlgorithm) {
      throw new KmsError(`key ${request.keyId} does not support ${request.signingAlgorithm}`)
    }
    // The asynchronous form runs on libuv's thread pool, as a network call would not block.
    const signature = await signAsync('sha384', request.message, {
      key: key.privateKey,
      dsaEncoding: 'der',
    })
    return new Uint8Array(signature)
  }
}
