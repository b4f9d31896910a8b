import { base64Decode, base64Encode } from '../crypto/base64.js'
import { CryptoError, type CryptoErrorReason } from '../errors/crypto-error.js'

/** The reason a PEM problem is reported under when the caller does not say: keys, CRLs, else certificates. */
function defaultReason(label: string): CryptoErrorReason {
  if (label.includes('KEY')) return 'invalid-key'
  if (label.includes('CRL')) return 'invalid-crl'
  return 'invalid-certificate'
}

/**
 * Decodes every `-----BEGIN <label>-----` block of a PEM text (RFC 7468), in order. Text
 * between blocks (comments, `openssl x509 -text` output, other labels) is ignored.
 *
 * The body must be strict base64: whitespace between lines is allowed, anything else
 * (RFC 1421 headers such as `Proc-Type`, stray characters, wrong padding) is refused rather than
 * skipped, so a damaged file never decodes to different bytes.
 *
 * @param reason - the `CryptoError` reason for malformed blocks; by default `invalid-key` for
 *   labels with `KEY`, `invalid-crl` for `X509 CRL`, otherwise `invalid-certificate`.
 * @returns the DER of each block; `[]` when the text has no block with that label.
 * @throws CryptoError `reason` for a block without its END line, an empty body or bad base64.
 *   The message never contains the body (it could be a private key).
 * @see https://www.rfc-editor.org/rfc/rfc7468#section-2
 */
export function decodePemBlocks(
  text: string,
  label: string,
  reason: CryptoErrorReason = defaultReason(label),
): Uint8Array[] {
  if (typeof text !== 'string') throw new CryptoError(reason, 'PEM input is not a string')
  const begin = `-----BEGIN ${label}-----`
  const end = `-----END ${label}-----`
  const blocks: Uint8Array[] = []
  // One pass: each search starts where the previous one stopped, so no stretch of the text is
  // read twice (a regular expression per block rescans to the end for every BEGIN without END).
  for (let cursor = text.indexOf(begin); cursor !== -1; ) {
    const bodyStart = cursor + begin.length
    const bodyEnd = text.indexOf(end, bodyStart)
    if (bodyEnd === -1) {
      throw new CryptoError(reason, `a PEM ${label} block has no matching END line`)
    }
    const body = text.slice(bodyStart, bodyEnd).replace(/[ \t\r\n]+/g, '')
    const der = base64Decode(body)
    if (der === undefined || der.length === 0) {
      throw new CryptoError(
        reason,
        `the PEM ${label} block ${blocks.length + 1} is not valid base64`,
      )
    }
    blocks.push(der)
    // An END line holds no BEGIN line: the next search may start where this END starts.
    cursor = text.indexOf(begin, bodyEnd)
  }
  return blocks
}

/**
 * Encodes DER as a PEM block with 64-character lines and a final newline.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7468#section-2
 */
export function encodePem(der: Uint8Array, label: string): string {
  const body = base64Encode(der).replace(/.{64}/g, '$&\n').replace(/\n$/, '')
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`
}
