import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPair as generateNodeKeyPair,
  type KeyObject,
} from 'node:crypto'
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

/** SEC1 `ECPrivateKey` prefix and curve OID per EC key type, for {@link deriveTestKeyPair}. */
const curves = {
  p256: { hash: 'sha256', crv: 'P-256', oid: '06082a8648ce3d030107' },
  p384: { hash: 'sha384', crv: 'P-384', oid: '06052b81040022' },
} as const

/**
 * An EC key pair derived from a seed string: the same seed always gives the same key, so a
 * generated corpus is the same on every run without storing keys. The private scalar is the
 * SHA-256 (P-256) or SHA-384 (P-384) of the seed; the public point comes from OpenSSL.
 */
export function deriveTestKeyPair(seed: string, keyType: 'p256' | 'p384'): TestKeyPair {
  const curve = curves[keyType]
  const scalar = createHash(curve.hash).update(seed).digest()
  const oid = Buffer.from(curve.oid, 'hex')
  // ECPrivateKey ::= SEQUENCE { version 1, privateKey OCTET STRING, [0] parameters }
  const body = Buffer.concat([
    Buffer.from([0x02, 0x01, 0x01, 0x04, scalar.length]),
    scalar,
    Buffer.from([0xa0, oid.length]),
    oid,
  ])
  const sec1 = Buffer.concat([Buffer.from([0x30, body.length]), body])
  const spki = createPublicKey(createPrivateKey({ key: sec1, format: 'der', type: 'sec1' })).export(
    { format: 'der', type: 'spki' },
  )
  // The uncompressed point ends the SPKI: 0x04 ‖ x ‖ y. Re-import as a JWK so that the private
  // key carries its public half (PKCS#8 exports then include it, as generated keys do).
  const size = scalar.length
  const point = spki.subarray(spki.length - 2 * size)
  const privateKey = createPrivateKey({
    key: {
      kty: 'EC',
      crv: curve.crv,
      d: scalar.toString('base64url'),
      x: point.subarray(0, size).toString('base64url'),
      y: point.subarray(size).toString('base64url'),
    },
    format: 'jwk',
  })
  return fromKeyObjects(keyType, privateKey, createPublicKey(privateKey))
}
