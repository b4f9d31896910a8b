/**
 * The one KMS operation a signer needs, shaped like the `Sign` call of the common cloud KMS
 * APIs (AWS KMS `Sign` with `MessageType: 'RAW'`, Google Cloud KMS `asymmetricSign`, Azure Key
 * Vault `sign`): the key stays in the KMS or HSM, the application sends bytes and gets a
 * signature back.
 */

/** The KMS's name for the signature scheme. SMART needs RS384 (RSA) or ES384 (P-384). */
export type KmsSigningAlgorithm = 'RSASSA_PKCS1_V1_5_SHA_384' | 'ECDSA_SHA_384'

/** One signing request. */
export interface KmsSignRequest {
  /** The KMS's identifier of the key (an ARN, a key-version resource name, …). */
  readonly keyId: string
  /** The bytes to sign; the KMS hashes them (no pre-hashing on our side). */
  readonly message: Uint8Array
  readonly signingAlgorithm: KmsSigningAlgorithm
}

/**
 * What a KMS client must do for {@link KmsJwsSigner}. Adapt your SDK to it in a few lines.
 * ECDSA signatures come back DER-encoded (`ECDSA-Sig-Value`, as X.509 uses), which is what
 * cloud KMSs and PKCS#11 wrappers usually return.
 */
export interface KmsClient {
  sign(request: KmsSignRequest): Promise<Uint8Array>
}
