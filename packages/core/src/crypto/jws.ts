import { CryptoError } from '../errors/crypto-error.js'
import { base64UrlDecode, base64UrlEncode, base64UrlEncodeText } from './base64.js'
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

/** A compact JWS split into its parts, nothing verified yet. */
export interface DecodedJws {
  readonly header: JsonObject
  readonly payload: JsonObject
  /** The ASCII bytes the signature covers. */
  readonly signingInput: Uint8Array
  readonly signature: Uint8Array
}

/**
 * Splits a compact JWS and parses its header and payload as JSON objects. Verifies nothing:
 * callers check `alg`, the signature and the claims.
 *
 * @throws CryptoError `invalid-signature` naming the part that is malformed.
 */
export function decodeCompactJws(jws: unknown): DecodedJws {
  if (typeof jws !== 'string') throw new CryptoError('invalid-signature', 'the JWS is not a string')
  const parts = jws.split('.')
  if (parts.length !== 3) {
    throw new CryptoError('invalid-signature', 'the JWS does not have three dot-separated parts')
  }
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string]
  const header = decodeJsonPart(encodedHeader, 'header')
  const payload = decodeJsonPart(encodedPayload, 'payload')
  const signature = base64UrlDecode(encodedSignature)
  if (signature === undefined || signature.length === 0) {
    throw new CryptoError('invalid-signature', 'the JWS signature is not base64url')
  }
  return {
    header,
    payload,
    signingInput: new TextEncoder().encode(`${encodedHeader}.${encodedPayload}`),
    signature,
  }
}

function decodeJsonPart(encoded: string, part: string): JsonObject {
  const bytes = base64UrlDecode(encoded)
  if (bytes === undefined || bytes.length === 0) {
    throw new CryptoError('invalid-signature', `the JWS ${part} is not base64url`)
  }
  let value: unknown
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    throw new CryptoError('invalid-signature', `the JWS ${part} is not JSON`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CryptoError('invalid-signature', `the JWS ${part} is not a JSON object`)
  }
  return value as JsonObject
}
