/**
 * A JSON Web Key (RFC 7517) as the library reads and writes it. Our own structural type, so
 * public types need neither DOM nor Node declarations; it is assignable to and from the DOM
 * `JsonWebKey` for the members listed.
 */
export interface Jwk {
  readonly kty?: string
  readonly alg?: string
  readonly kid?: string
  readonly use?: string
  readonly key_ops?: readonly string[]
  readonly ext?: boolean
  readonly crv?: string
  readonly x?: string
  readonly y?: string
  readonly d?: string
  readonly n?: string
  readonly e?: string
  readonly p?: string
  readonly q?: string
  readonly dp?: string
  readonly dq?: string
  readonly qi?: string
  readonly x5c?: readonly string[]
}

/** Structural view of a WebCrypto `CryptoKey`, enough to recognise one without DOM types. */
export interface CryptoKeyLike {
  readonly type: string
  readonly extractable: boolean
  readonly algorithm: { readonly name: string }
  readonly usages: readonly string[]
}

/** Structural view of a Node `KeyObject`, enough to recognise one without Node types. */
export interface KeyObjectLike {
  readonly type: string
  readonly asymmetricKeyType?: string | undefined
  export(options?: unknown): unknown
}

/** True for a JWK-shaped plain object (has a string `kty`). */
export function isJwk(value: unknown): value is Jwk {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { kty?: unknown }).kty === 'string'
  )
}
