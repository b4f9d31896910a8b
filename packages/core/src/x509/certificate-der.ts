import { CryptoError, type CryptoErrorReason } from '../errors/crypto-error.js'
import { decodePemBlocks } from './pem.js'

/*
 * Certificates and CRLs as callers give them: PEM text, PEM bytes or DER. Apart from the PEM
 * codec, so reading a PEM key never loads them.
 */

/** True when bytes start like PEM text (`-----BEGIN`), possibly after whitespace or a UTF-8 BOM. */
function looksLikePemBytes(bytes: Uint8Array): boolean {
  let offset = 0
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) offset = 3
  while (
    bytes[offset] === 0x20 ||
    bytes[offset] === 0x0a ||
    bytes[offset] === 0x0d ||
    bytes[offset] === 0x09
  )
    offset++
  return bytes[offset] === 0x2d
}

function derOrPem(
  input: unknown,
  label: string,
  what: string,
  reason: CryptoErrorReason,
): Uint8Array {
  let text: string
  if (typeof input === 'string') text = input
  else if (input instanceof Uint8Array) {
    if (!looksLikePemBytes(input)) {
      if (input.length === 0) throw new CryptoError(reason, `the ${what} is empty`)
      return input
    }
    text = new TextDecoder().decode(input)
  } else {
    throw new CryptoError(reason, `the ${what} must be PEM text or DER bytes`)
  }
  const [first] = decodePemBlocks(text, label, reason)
  if (first === undefined)
    throw new CryptoError(reason, `the ${what} text has no "-----BEGIN ${label}-----" block`)
  return first
}

/**
 * The DER of a certificate given as PEM (the first `CERTIFICATE` block; text or bytes) or DER.
 * DER is returned as given; `parseCertificate` checks it.
 *
 * @throws CryptoError `invalid-certificate` for PEM without a certificate block, bad base64, empty
 *   input or a value that is neither a string nor a `Uint8Array`.
 */
export function certificateDer(input: string | Uint8Array): Uint8Array {
  return derOrPem(input, 'CERTIFICATE', 'certificate', 'invalid-certificate')
}

/**
 * The DER of a CRL given as PEM (the first `X509 CRL` block; text or bytes) or DER.
 *
 * @throws CryptoError `invalid-crl` for PEM without a CRL block, bad base64, empty input or a
 *   value that is neither a string nor a `Uint8Array`.
 */
export function crlDer(input: string | Uint8Array): Uint8Array {
  return derOrPem(input, 'X509 CRL', 'CRL', 'invalid-crl')
}
