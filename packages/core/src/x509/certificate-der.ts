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

/**
 * Every block of PEM text or PEM bytes, in order, or DER bytes as given (one value).
 *
 * @throws CryptoError `reason` for PEM without a `label` block, a malformed block, empty bytes
 *   or a value that is neither a string nor a `Uint8Array`.
 */
function derOrPemBlocks(
  input: unknown,
  label: string,
  what: string,
  reason: CryptoErrorReason,
): Uint8Array[] {
  let text: string
  if (typeof input === 'string') text = input
  else if (input instanceof Uint8Array) {
    if (!looksLikePemBytes(input)) {
      if (input.length === 0) throw new CryptoError(reason, `the ${what} is empty`)
      return [input]
    }
    text = new TextDecoder().decode(input)
  } else {
    throw new CryptoError(reason, `the ${what} must be PEM text or DER bytes`)
  }
  const blocks = decodePemBlocks(text, label, reason)
  if (blocks.length === 0)
    throw new CryptoError(reason, `the ${what} text has no "-----BEGIN ${label}-----" block`)
  return blocks
}

/**
 * The DER of a certificate given as PEM (the first `CERTIFICATE` block; text or bytes) or DER.
 * DER is returned as given; `parseCertificate` checks it. Where a list of certificates is read
 * (a chain, trust anchors), {@link splitCertificateInputs} reads every block instead.
 *
 * @throws CryptoError `invalid-certificate` for PEM without a certificate block, bad base64, empty
 *   input or a value that is neither a string nor a `Uint8Array`.
 */
export function certificateDer(input: string | Uint8Array): Uint8Array {
  return derOrPemBlocks(input, 'CERTIFICATE', 'certificate', 'invalid-certificate')[0] as Uint8Array
}

/**
 * The DER of a CRL given as PEM (the first `X509 CRL` block; text or bytes) or DER.
 *
 * @throws CryptoError `invalid-crl` for PEM without a CRL block, bad base64, empty input or a
 *   value that is neither a string nor a `Uint8Array`.
 */
export function crlDer(input: string | Uint8Array): Uint8Array {
  return derOrPemBlocks(input, 'X509 CRL', 'CRL', 'invalid-crl')[0] as Uint8Array
}

/**
 * The certificates of one entry of a certificate list: the DER of every `CERTIFICATE` block of
 * PEM text or PEM bytes, in order (a file holding a whole chain, leaf first, or a bundle of
 * trust anchors is one entry), DER bytes as given, and any other value (a backend's certificate
 * object) as given, for the backend to read.
 *
 * @throws CryptoError `invalid-certificate` for PEM without a certificate block, a malformed
 *   block or empty bytes.
 * @see https://www.rfc-editor.org/rfc/rfc7468#section-5.1
 */
export function splitCertificateInput(input: unknown): unknown[] {
  if (typeof input !== 'string' && !(input instanceof Uint8Array)) return [input]
  return derOrPemBlocks(input, 'CERTIFICATE', 'certificate', 'invalid-certificate')
}

/**
 * A certificate list with every entry split by {@link splitCertificateInput}: each PEM entry
 * becomes the certificates it holds, in order, so `[chainPem]` reads like `[leaf, issuer]`.
 *
 * @throws CryptoError `invalid-certificate` as {@link splitCertificateInput}.
 */
export function splitCertificateInputs(inputs: readonly unknown[]): unknown[] {
  return inputs.flatMap(splitCertificateInput)
}

/**
 * A CRL list with every PEM entry split into the DER of each of its `X509 CRL` blocks, in order
 * (a file of concatenated CRLs is one entry); DER bytes and other values are kept as given.
 *
 * @throws CryptoError `invalid-crl` for PEM without a CRL block, a malformed block or empty bytes.
 * @see https://www.rfc-editor.org/rfc/rfc7468#section-6
 */
export function splitCrlInputs(inputs: readonly unknown[]): unknown[] {
  return inputs.flatMap((input) =>
    typeof input === 'string' || input instanceof Uint8Array
      ? derOrPemBlocks(input, 'X509 CRL', 'CRL', 'invalid-crl')
      : [input],
  )
}
