/**
 * The part of node-forge this package uses, typed here because `@types/node-forge` does not
 * declare `pki.pbe.getCipher` and types several members as `any`. Strings are forge "binary
 * strings" (one character per byte).
 *
 * Only `import type` may refer to this module's subject: node-forge itself is loaded lazily by
 * `forge-loader.ts`.
 *
 * @internal
 */
export interface ForgeApi {
  readonly asn1: {
    fromDer(bytes: string, options: ForgeFromDerOptions): ForgeAsn1
    toDer(value: ForgeAsn1): ForgeByteBuffer
    derToOid(bytes: string): string
  }
  readonly util: {
    createBuffer(bytes?: string): ForgeByteBuffer
  }
  readonly md: Readonly<Record<'sha1' | 'sha256' | 'sha384' | 'sha512', ForgeDigestFactory>>
  readonly pkcs12: {
    /** The RFC 7292 appendix B key derivation (`id` 1 = key, 2 = IV, 3 = MAC key). */
    generateKey(
      password: string | null,
      salt: ForgeByteBuffer,
      id: number,
      iterations: number,
      length: number,
      digest: ForgeMessageDigest,
    ): ForgeByteBuffer
  }
  readonly pki: {
    readonly pbe: {
      /** A started decryption cipher for PBES2 or a PKCS#12 PBE algorithm. */
      getCipher(oid: string, parameters: ForgeAsn1, password: string | null): ForgeCipher
    }
  }
}

/** Options of `forge.asn1.fromDer`. */
export interface ForgeFromDerOptions {
  readonly strict: boolean
  readonly parseAllBytes: boolean
  readonly decodeBitStrings: boolean
}

/** One parsed BER/DER element: `value` is the content bytes, or the children if constructed. */
export interface ForgeAsn1 {
  readonly tagClass: number
  readonly type: number
  readonly constructed: boolean
  readonly value: string | ForgeAsn1[]
}

/** forge's byte buffer. */
export interface ForgeByteBuffer {
  getBytes(): string
  bytes(): string
  length(): number
}

/** A forge block cipher in decryption mode. */
export interface ForgeCipher {
  update(input: ForgeByteBuffer): void
  /** False when the padding is wrong (typically: the wrong password). */
  finish(): boolean
  readonly output: ForgeByteBuffer
}

/** A forge hash. */
export interface ForgeMessageDigest {
  readonly digestLength: number
}

/** Creates forge hashes of one algorithm. */
export interface ForgeDigestFactory {
  create(): ForgeMessageDigest
}
