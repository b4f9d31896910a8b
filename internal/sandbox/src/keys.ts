import { createHash, createPrivateKey, createPublicKey, generateKeyPair } from 'node:crypto'
import { promisify } from 'node:util'
import { ConfigurationError, type Jwk } from '@fhir-auth/core'

const generateKeyPairAsync = promisify(generateKeyPair)

/** The two algorithms SMART clients must support for `private_key_jwt`. */
export type ClientKeyAlgorithm = 'RS384' | 'ES384'

/** A fresh client key pair for tests. */
export interface ClientKeys {
  readonly algorithm: ClientKeyAlgorithm
  /** PKCS#8 PEM of the private key. */
  readonly privateKeyPem: string
  /** The public JWK to register (`kty`, key members, `kid`, `alg`, `use: "sig"`). */
  readonly publicJwk: Jwk
  /** The key id: the RFC 7638 SHA-256 thumbprint of the public key. */
  readonly kid: string
}

/**
 * Generates a client key pair for `private_key_jwt`: RSA-2048 for RS384, P-384 for ES384.
 *
 * The private key is exported to PEM and re-imported before the public JWK export: on Node 20
 * exporting a freshly generated EC key straight to JWK can deadlock during GC.
 *
 * @throws {ConfigurationError} `invalidAttribute: 'algorithm'` for anything but RS384 / ES384.
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-asymmetric.html
 * @see https://www.rfc-editor.org/rfc/rfc7638
 */
export async function generateClientKeys(algorithm: ClientKeyAlgorithm): Promise<ClientKeys> {
  const privateKeyPem = await generatePrivateKeyPem(algorithm)
  const exported = createPublicKey(createPrivateKey(privateKeyPem)).export({ format: 'jwk' })
  const members =
    algorithm === 'RS384'
      ? { kty: 'RSA', n: String(exported.n), e: String(exported.e) }
      : { kty: 'EC', crv: String(exported.crv), x: String(exported.x), y: String(exported.y) }
  const kid = jwkThumbprint(members)
  return {
    algorithm,
    privateKeyPem,
    publicJwk: { ...members, kid, alg: algorithm, use: 'sig' },
    kid,
  }
}

async function generatePrivateKeyPem(algorithm: ClientKeyAlgorithm): Promise<string> {
  if (algorithm === 'RS384') {
    const pair = await generateKeyPairAsync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    })
    return pair.privateKey
  }
  if (algorithm === 'ES384') {
    const pair = await generateKeyPairAsync('ec', {
      namedCurve: 'P-384',
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    })
    return pair.privateKey
  }
  throw new ConfigurationError({
    invalidAttribute: 'algorithm',
    invalidValue: algorithm,
    validValues: ['RS384', 'ES384'],
  })
}

/** RFC 7638: SHA-256 over the required members in lexicographic order, base64url. */
function jwkThumbprint(members: Readonly<Record<string, string>>): string {
  const ordered = Object.keys(members)
    .sort()
    .map((name) => `${JSON.stringify(name)}:${JSON.stringify(members[name])}`)
    .join(',')
  return createHash('sha256').update(`{${ordered}}`).digest('base64url')
}
