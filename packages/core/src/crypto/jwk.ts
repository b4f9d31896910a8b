/**
 * A JSON Web Key (RFC 7517) as the library reads and writes it. Our own structural type, so
 * public types need neither DOM nor Node declarations; it is assignable to and from the DOM
 * `JsonWebKey` for the members listed.
 */
export interface Jwk {
  readonly kty?: string | undefined
  readonly alg?: string | undefined
  readonly kid?: string | undefined
  readonly use?: string | undefined
  readonly key_ops?: readonly string[] | undefined
  readonly ext?: boolean | undefined
  readonly crv?: string | undefined
  readonly x?: string | undefined
  readonly y?: string | undefined
  readonly d?: string | undefined
  readonly n?: string | undefined
  readonly e?: string | undefined
  readonly p?: string | undefined
  readonly q?: string | undefined
  readonly dp?: string | undefined
  readonly dq?: string | undefined
  readonly qi?: string | undefined
  readonly x5c?: readonly string[] | undefined
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
