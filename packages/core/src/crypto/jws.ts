import { CryptoError } from '../errors/crypto-error.js'
import { base64UrlEncode, base64UrlEncodeText } from './base64.js'
import { ecdsaComponentLength, normalizeEcdsaSignature } from './ecdsa-signature.js'
import type { JwsSigner } from './signer.js'

/** JSON object members of a JOSE header or JWT claims set. */
export type JsonObject = Record<string, unknown>

/**
 * Assembles and signs a compact JWS: `base64url(header).base64url(claims).base64url(signature)`.
 * The header's `alg` is always the signer's, so a header can never claim another algorithm.
 * One implementation for every backend: backends only sign bytes.
 *
 * @throws CryptoError `invalid-signature` when the signer returns an empty or malformed signature.
 * @see https://www.rfc-editor.org/rfc/rfc7515#section-7.1
 */
export async function signCompactJws(
  header: JsonObject,
  claims: JsonObject,
  signer: JwsSigner,
): Promise<string> {
  const signingInput = `${base64UrlEncodeText(JSON.stringify({ ...header, alg: signer.alg }))}.${base64UrlEncodeText(JSON.stringify(claims))}`
  const signature = await signWithJwsSigner(signer, new TextEncoder().encode(signingInput))
  return `${signingInput}.${base64UrlEncode(signature)}`
}

/**
 * Signs bytes with any {@link JwsSigner} (a backend's or an HSM's) and returns the JOSE
 * signature: a DER ECDSA signature is converted to `r‖s`, and a failure of the signer's own
 * code becomes a `CryptoError` that names only the error's class.
 *
 * @throws CryptoError `invalid-signature` when the signer fails or returns an empty or
 *   malformed signature; a `CryptoError` the signer throws passes through.
 * @internal
 */
export async function signWithJwsSigner(
  signer: JwsSigner,
  signingInput: Uint8Array,
): Promise<Uint8Array> {
  let signature: unknown
  try {
    signature = await signer.sign(signingInput)
  } catch (error) {
    if (error instanceof CryptoError) throw error
    // The signer's own error may describe key material; keep only its class name.
    throw new CryptoError(
      'invalid-signature',
      `the ${signer.alg} signer failed (${errorName(error)})`,
    )
  }
  if (!(signature instanceof Uint8Array) || signature.length === 0) {
    throw new CryptoError('invalid-signature', 'the signer returned no signature bytes')
  }
  const componentLength = ecdsaComponentLength[signer.alg]
  return componentLength === undefined
    ? signature
    : normalizeEcdsaSignature(signature, componentLength)
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error
}
