import type { CryptoKeyLike, Jwk, KeyObjectLike } from '../crypto/jwk.js'
import { isJwk } from '../crypto/jwk.js'
import { isJwsSigner, type JwsSigner, type SigningAlgorithm } from '../crypto/signer.js'
import { ConfigurationError } from '../errors/configuration-error.js'
import { CryptoError } from '../errors/crypto-error.js'
import { parseCertificate } from '../x509/certificate.js'
import { jwkThumbprint } from './jwk-thumbprint.js'
import { publicJwkOfPem, publicJwkOfPkcs8, publicJwkOfSpki } from './public-key-material.js'

/**
 * A key whose public half goes into a JWKS: a PEM private (or public) key, a private (or
 * public) JWK, or a Node `KeyObject`.
 */
export type PublicJwksKeyInput = string | Jwk | KeyObjectLike

/**
 * A key with the `kid` and `alg` to publish it under. A `signer` (an HSM or KMS
 * {@link JwsSigner}) holds no public key: give its public key as `key`; its own `kid` and
 * `alg` are then used unless given here.
 */
export interface PublicJwksEntry {
  readonly key: PublicJwksKeyInput
  readonly kid?: string | undefined
  readonly alg?: SigningAlgorithm | undefined
  readonly signer?: JwsSigner | undefined
}

/** One published key: public members only, always with `kid`, `alg` and `use: 'sig'`. */
export interface PublicJwk extends Jwk {
  readonly kid: string
  readonly alg: string
  readonly use: 'sig'
}

/** A JSON Web Key Set of public signing keys (RFC 7517 §5). */
export interface PublicJwks {
  readonly keys: PublicJwk[]
}

const attribute = 'keys'
const rsaMembers = ['kty', 'n', 'e'] as const
const ecMembers = ['kty', 'crv', 'x', 'y'] as const
/** The algorithm a key gets when neither it nor its entry names one (SMART's for RSA and P-384). */
const defaultAlgorithmByCurve: Readonly<Record<string, SigningAlgorithm>> = Object.freeze({
  'P-256': 'ES256',
  'P-384': 'ES384',
})

/**
 * The JWKS to publish (at the `jwksUri` a server fetches) for the public halves of private keys:
 * each key with its `kid` (the entry's, else the key's own, else its RFC 7638 thumbprint), its
 * `alg` (the entry's or signer's, else the key's own, else RS384 for RSA, ES384 for P-384,
 * ES256 for P-256) and `use: 'sig'`, and never a private member (`d`, `p`, `q`, `dp`, `dq`,
 * `qi`, `oth`). Synchronous, so a route can answer from it directly.
 *
 * To rotate a key, publish the next key beside the current one first, and switch the client to
 * it only once every server has fetched the new set (see the backend-services guide).
 *
 * @param keys - each a key ({@link PublicJwksKeyInput}), a {@link PublicJwksEntry}, or a
 *   `JwsSigner` with a `certificateChain` (its leaf certificate's key, its own `kid` and `alg`).
 * @throws ConfigurationError `keys` for an input that holds no readable public key (a
 *   `CryptoKey`: export it as a JWK first; a `JwsSigner` without certificates, as a KMS signer
 *   is: give `{ signer, key }`), or for
 *   two keys with one `kid`; CryptoError `invalid-key`/`unsupported-key` for unreadable PEM or a
 *   key type other than RSA and EC P-256/P-384. Messages never quote key material.
 * @example
 * ```ts
 * const jwks = publicJwks([readFileSync('next.pem', 'utf8'), readFileSync('current.pem', 'utf8')])
 * app.get('/.well-known/jwks.json', (_, response) => response.json(jwks))
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7517#section-5 RFC 7517 §5 (JWK Set)
 * @see https://www.rfc-editor.org/rfc/rfc7638 RFC 7638 (JWK thumbprint)
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-asymmetric.html#registering-a-client-communicating-public-keys
 */
export function publicJwks(
  keys: readonly (PublicJwksKeyInput | PublicJwksEntry | JwsSigner)[],
): PublicJwks {
  if (!Array.isArray(keys)) {
    throw new ConfigurationError({
      invalidAttribute: attribute,
      message: 'keys must be an array of keys',
    })
  }
  const published = keys.map((input, index) => publishedKey(input, index))
  const kids = new Set<string>()
  for (const key of published) {
    if (kids.has(key.kid)) {
      throw new ConfigurationError({
        invalidAttribute: attribute,
        message: `two keys have kid ${JSON.stringify(key.kid)}; a server could not tell them apart`,
      })
    }
    kids.add(key.kid)
  }
  return { keys: published }
}

function publishedKey(
  input: PublicJwksKeyInput | PublicJwksEntry | JwsSigner,
  index: number,
): PublicJwk {
  const entry = entryOf(input, index)
  const own = isJwk(entry.key) ? entry.key : undefined
  const jwk = publicJwkOf(entry.key, index)
  const kid = entry.kid ?? entry.signer?.kid ?? nonBlank(own?.kid) ?? jwkThumbprint(jwk)
  const alg = entry.alg ?? entry.signer?.alg ?? nonBlank(own?.alg) ?? defaultAlgorithm(jwk)
  return { ...jwk, kid, alg, use: 'sig' }
}

/** An input as an entry: a key alone, or a signer with certificates as its leaf's key. */
function entryOf(
  input: PublicJwksKeyInput | PublicJwksEntry | JwsSigner,
  index: number,
): Omit<Partial<PublicJwksEntry>, 'key'> & { readonly key: unknown } {
  if (isEntry(input)) return input
  const leaf = isJwsSigner(input) ? input.certificateChain?.[0] : undefined
  if (leaf !== undefined) return { key: leafPublicKey(leaf, index), signer: input as JwsSigner }
  return { key: input }
}

/**
 * The public key of a signer's leaf certificate (a UDAP signer carries its chain, leaf first):
 * the key the signer's signatures verify with, as the certificate binds it.
 */
function leafPublicKey(leaf: Uint8Array, index: number): Jwk {
  try {
    return parseCertificate(leaf).publicKey.jwk
  } catch (error) {
    throw new ConfigurationError({
      invalidAttribute: attribute,
      message: `keys[${index}] is a JwsSigner whose certificateChain[0] is not a certificate: ${error instanceof Error ? error.message : 'unreadable'}`,
    })
  }
}

function isEntry(value: unknown): value is PublicJwksEntry {
  return typeof value === 'object' && value !== null && 'key' in value && !isJwk(value)
}

/** Only the public members, copied by name: whatever else the input carries is left behind. */
function publicJwkOf(key: unknown, index: number): Jwk {
  const material = publicMaterialOf(key, index)
  const names = material.kty === 'RSA' ? rsaMembers : material.kty === 'EC' ? ecMembers : undefined
  if (names === undefined) {
    throw new CryptoError('unsupported-key', `keys[${index}] is not an RSA or EC key`)
  }
  const result: Record<string, string> = {}
  for (const name of names) {
    const value = material[name]
    if (typeof value !== 'string' || value === '') {
      throw new CryptoError('invalid-key', `keys[${index}] has no ${name}`)
    }
    result[name] = value
  }
  return result as Jwk
}

function publicMaterialOf(key: unknown, index: number): Jwk {
  if (typeof key === 'string') return publicJwkOfPem(key)
  if (isJwk(key)) return key
  if (isKeyObject(key)) {
    // DER, not `format: 'jwk'`: Node 20 can deadlock exporting a fresh EC KeyObject as a JWK.
    const der = key.export(
      key.type === 'private' ? { type: 'pkcs8', format: 'der' } : { type: 'spki', format: 'der' },
    ) as Uint8Array
    return key.type === 'private' ? publicJwkOfPkcs8(der) : publicJwkOfSpki(der)
  }
  throw new ConfigurationError({
    invalidAttribute: attribute,
    message: isJwsSigner(key)
      ? `keys[${index}] is a JwsSigner without a certificateChain, which holds no public key: pass { signer, key: <its public key> }`
      : isCryptoKey(key)
        ? `keys[${index}] is a CryptoKey: export it with crypto.subtle.exportKey('jwk', key) and pass the JWK`
        : `keys[${index}] is not a PEM key, a JWK or a KeyObject`,
  })
}

function isKeyObject(value: unknown): value is KeyObjectLike {
  const candidate = value as Partial<KeyObjectLike> | null
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.export === 'function' &&
    (candidate.type === 'private' || candidate.type === 'public')
  )
}

function isCryptoKey(value: unknown): value is CryptoKeyLike {
  return typeof value === 'object' && value !== null && 'algorithm' in value && 'usages' in value
}

function defaultAlgorithm(jwk: Jwk): SigningAlgorithm {
  if (jwk.kty === 'RSA') return 'RS384'
  const algorithm = defaultAlgorithmByCurve[jwk.crv ?? '']
  if (algorithm === undefined) {
    throw new CryptoError(
      'unsupported-key',
      `${jwk.crv} keys are not used for client assertions; use P-384 (ES384) or RSA (RS384)`,
    )
  }
  return algorithm
}

function nonBlank(value: string | undefined): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined
}
