import { CryptoError } from '../errors/crypto-error.js'
import { base64UrlDecode } from './base64.js'
import type { JsonObject } from './jws.js'

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
