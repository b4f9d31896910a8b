import type { JwsSigner } from '@fhir-auth/client'
import { ecdsaDerToJose } from '@fhir-auth/core/jws'
import type { KmsClient, KmsSigningAlgorithm } from './kms-client.js'

/** The JWS algorithms a SMART client signs with, and the KMS scheme that makes each. */
const kmsAlgorithms = {
  RS384: 'RSASSA_PKCS1_V1_5_SHA_384',
  ES384: 'ECDSA_SHA_384',
} as const satisfies Record<string, KmsSigningAlgorithm>

/** `r` and `s` of a P-384 signature are 48 bytes each in JOSE's fixed-width `r‖s` form. */
const p384IntegerLength = 48

/** How to reach the key. */
export interface KmsJwsSignerOptions {
  readonly kms: KmsClient
  /** The KMS's identifier of the private key. */
  readonly keyId: string
  /** `RS384` for an RSA key, `ES384` for a P-384 key. */
  readonly alg: keyof typeof kmsAlgorithms
  /** The `kid` of the public key as registered with the authorization server (in its JWKS). */
  readonly kid: string
}

/**
 * A `JwsSigner` whose private key never leaves the KMS or HSM: fhir-auth hands it the JWS
 * signing input of each client assertion and gets the signature back. Pass it as `privateKey`
 * to the `Client`; the library builds and encodes the JWT around it.
 *
 * JWS wants ECDSA signatures as the raw `r‖s` concatenation (RFC 7518 §3.4), while KMSs return
 * DER, so ES384 signatures are converted with core's `ecdsaDerToJose`. RSA signatures are the
 * same bytes in both worlds.
 *
 * @example
 * ```ts
 * const signer = new KmsJwsSigner({ kms, keyId: 'arn:aws:kms:…:key/…', alg: 'ES384', kid: 'kms-key-1' })
 * const client = new Client({ baseUrl, clientId, privateKey: signer, kid: signer.kid },
 *                           { clientType: 'confidential_asymmetric' })
 * ```
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-asymmetric.html
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-3.4
 */
export class KmsJwsSigner implements JwsSigner {
  readonly alg: keyof typeof kmsAlgorithms
  readonly kid: string
  readonly #kms: KmsClient
  readonly #keyId: string

  constructor(options: KmsJwsSignerOptions) {
    this.alg = options.alg
    this.kid = options.kid
    this.#kms = options.kms
    this.#keyId = options.keyId
  }

  /**
   * Signs through the KMS. A KMS failure propagates as the KMS's own error; fhir-auth reports
   * it as `CryptoError` (reason `invalid-signature`) naming only the error's class, because
   * SDK errors may carry request details that do not belong in logs.
   *
   * @throws CryptoError `invalid-signature` when the KMS returns bytes that are not DER ECDSA.
   */
  async sign(signingInput: Uint8Array): Promise<Uint8Array> {
    const signature = await this.#kms.sign({
      keyId: this.#keyId,
      message: signingInput,
      signingAlgorithm: kmsAlgorithms[this.alg],
    })
    return this.alg === 'ES384' ? ecdsaDerToJose(signature, p384IntegerLength) : signature
  }
}
