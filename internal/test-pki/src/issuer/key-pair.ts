import { generateKeyPair as generateNodeKeyPair, type KeyObject } from 'node:crypto'
import { promisify } from 'node:util'

const generate = promisify(generateNodeKeyPair)

/** Key types the test PKI issues. RSA sizes in bits; EC curves P-256 and P-384. */
export type KeyType = 'rsa2048' | 'rsa3072' | 'rsa4096' | 'p256' | 'p384'

/** Every {@link KeyType}. */
export const keyTypes: readonly KeyType[] = ['rsa2048', 'rsa3072', 'rsa4096', 'p256', 'p384']

/** A generated key pair in the forms the issuer needs. */
export interface TestKeyPair {
  readonly keyType: KeyType
  readonly privateKey: KeyObject
  readonly publicKey: KeyObject
  /** DER SubjectPublicKeyInfo. */
  readonly spki: Uint8Array
  /** Unencrypted PKCS#8 PEM. */
  readonly privateKeyPem: string
}

/**
 * Generates a key pair with node:crypto (EC instantly, RSA 2048 in well under a second on a
 * free core). Exports go through PEM/DER only: exporting a fresh EC KeyObject as a JWK can
 * deadlock Node 20 during GC.
 */
export async function generateTestKeyPair(keyType: KeyType): Promise<TestKeyPair> {
  const { privateKey, publicKey } = keyType.startsWith('rsa')
    ? await generate('rsa', { modulusLength: Number(keyType.slice(3)) })
    : await generate('ec', { namedCurve: keyType === 'p256' ? 'P-256' : 'P-384' })
  return fromKeyObjects(keyType, privateKey, publicKey)
}

/** The {@link TestKeyPair} of existing key objects. */
export function fromKeyObjects(
  keyType: KeyType,
  privateKey: KeyObject,
  publicKey: KeyObject,
): TestKeyPair {
  return {
    keyType,
    privateKey,
    publicKey,
    spki: new Uint8Array(publicKey.export({ format: 'der', type: 'spki' })),
    privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  }
}
