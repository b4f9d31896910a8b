import type { KeyDescription } from '../crypto/algorithms.js'
import { CryptoError } from '../errors/crypto-error.js'
import { readAlgorithmIdentifier } from './algorithm-identifier.js'
import { type DerElement, encodeDer, encodeDerSequence, readDerChildren } from './der.js'
import { derTag, expectTag, readDerDocumentWithTag, readSmallInteger } from './der-values.js'
import { decodeDerOid, encodeDerOid } from './object-identifier.js'
import { decodePemBlocks } from './pem.js'
import { ecPublicKeyOid, namedCurveOf, rsaEncryptionOid } from './spki.js'

/** A private key read from PEM: its type and curve, and the key as PKCS#8 DER. */
export interface PrivateKeyDescription extends KeyDescription {
  /** The encoding the PEM used. */
  readonly format: 'pkcs8' | 'pkcs1' | 'sec1'
  /** The key as unencrypted PKCS#8 DER, converted from PKCS#1 or SEC1 when needed. */
  readonly pkcs8: Uint8Array
}

const reason = 'invalid-key'

/** PEM labels of unencrypted private keys, with the format each holds. */
const privateKeyLabels = [
  ['PRIVATE KEY', 'pkcs8'],
  ['RSA PRIVATE KEY', 'pkcs1'],
  ['EC PRIVATE KEY', 'sec1'],
] as const

/**
 * Reads a private key from PEM: PKCS#8 `PRIVATE KEY`, PKCS#1 `RSA PRIVATE KEY` or SEC1
 * `EC PRIVATE KEY`, and returns it as PKCS#8 DER (what WebCrypto's `importKey('pkcs8')` takes).
 * Other PEM blocks in the text (`EC PARAMETERS`, certificates) are ignored.
 *
 * Only the structure is checked (versions, field types, the curve): the key's mathematics are
 * left to the crypto backend that imports it.
 *
 * @throws CryptoError `invalid-key` for encrypted keys (`ENCRYPTED PRIVATE KEY` or a
 *   `Proc-Type: 4,ENCRYPTED` header: decrypt them first), for text without a private key block
 *   and for malformed DER; `unsupported-key` for key types other than RSA and EC, and for curves
 *   other than P-256, P-384 and P-521. Messages never contain key bytes.
 * @see https://www.rfc-editor.org/rfc/rfc5208#section-5 (PKCS#8)
 * @see https://www.rfc-editor.org/rfc/rfc8017#appendix-A.1.2 (PKCS#1)
 * @see https://www.rfc-editor.org/rfc/rfc5915#section-3 (SEC1 ECPrivateKey)
 */
export function describePrivateKeyPem(pem: string): PrivateKeyDescription {
  if (typeof pem !== 'string') throw new CryptoError(reason, 'the private key PEM is not a string')
  if (
    pem.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----') ||
    /Proc-Type:\s*4,\s*ENCRYPTED/.test(pem)
  ) {
    throw new CryptoError(
      reason,
      'encrypted PEM keys are not supported; decrypt the key first (for example `openssl pkcs8 -nocrypt`) or load it from PKCS#12',
    )
  }
  const found = privateKeyLabels
    .map(([label, format]) => ({ format, index: pem.indexOf(`-----BEGIN ${label}-----`), label }))
    .filter((candidate) => candidate.index >= 0)
    .sort((left, right) => left.index - right.index)[0]
  if (found === undefined) {
    const other = /-----BEGIN ([A-Z0-9 ]+)-----/.exec(pem)?.[1]
    throw new CryptoError(
      reason,
      other === undefined
        ? 'the text is not a PEM private key'
        : `the PEM holds a ${other}, not a private key (PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY)`,
    )
  }
  const [der] = decodePemBlocks(pem, found.label, reason)
  if (der === undefined) throw new CryptoError(reason, `the PEM ${found.label} block is empty`)
  if (found.format === 'pkcs1') {
    checkRsaPrivateKey(der)
    return {
      type: 'RSA',
      format: 'pkcs1',
      pkcs8: wrapPkcs8(
        encodeDerSequence(encodeDerOid(rsaEncryptionOid), encodeDer(derTag.null, new Uint8Array())),
        der,
      ),
    }
  }
  if (found.format === 'sec1') {
    const key = readEcPrivateKey(der, undefined)
    return {
      type: 'EC',
      namedCurve: key.curveName,
      format: 'sec1',
      pkcs8: wrapPkcs8(
        encodeDerSequence(encodeDerOid(ecPublicKeyOid), encodeDerOid(key.curveOid)),
        key.withoutParameters,
      ),
    }
  }
  return { ...describePkcs8(der), format: 'pkcs8', pkcs8: der }
}

/** `PrivateKeyInfo ::= SEQUENCE { version 0, algorithm, privateKey OCTET STRING }`. */
function wrapPkcs8(algorithmIdentifier: Uint8Array, privateKey: Uint8Array): Uint8Array {
  return encodeDerSequence(
    encodeDer(derTag.integer, Uint8Array.of(0)),
    algorithmIdentifier,
    encodeDer(derTag.octetString, privateKey),
  )
}

function describePkcs8(der: Uint8Array): KeyDescription {
  const outer = readDerDocumentWithTag(der, derTag.sequence, 'PrivateKeyInfo', reason)
  const [version, algorithmElement, privateKey] = readDerChildren(outer, reason)
  const versionNumber = readSmallInteger(version, 'the PKCS#8 version', reason)
  if (versionNumber > 1)
    throw new CryptoError(reason, `PKCS#8 version ${versionNumber} is not supported`)
  const algorithm = readAlgorithmIdentifier(algorithmElement, 'the private key algorithm', reason)
  const keyBytes = expectTag(
    privateKey,
    derTag.octetString,
    'the PKCS#8 private key',
    reason,
  ).content
  if (algorithm.oid === rsaEncryptionOid) {
    checkRsaPrivateKey(keyBytes)
    return { type: 'RSA' }
  }
  if (algorithm.oid === ecPublicKeyOid) {
    const curveOid = decodeDerOid(
      expectTag(algorithm.parameters, derTag.objectIdentifier, 'the EC named curve', reason)
        .content,
      reason,
    )
    const key = readEcPrivateKey(keyBytes, curveOid)
    return { type: 'EC', namedCurve: key.curveName }
  }
  throw new CryptoError(
    'unsupported-key',
    `private keys of algorithm ${algorithm.oid} are not supported; use RSA or EC`,
  )
}

/** `RSAPrivateKey`: two-prime version 0 with the nine INTEGERs of RFC 8017 A.1.2. */
function checkRsaPrivateKey(der: Uint8Array): void {
  const sequence = readDerDocumentWithTag(der, derTag.sequence, 'RSAPrivateKey', reason)
  const fields = readDerChildren(sequence, reason)
  if (fields.length !== 9)
    throw new CryptoError(
      reason,
      'RSAPrivateKey does not have nine fields (multi-prime keys are not supported)',
    )
  // Tags only: some older tools write non-minimal INTEGERs here, and the backend checks the values.
  for (const field of fields) expectTag(field, derTag.integer, 'an RSAPrivateKey field', reason)
  if (readSmallInteger(fields[0], 'the RSAPrivateKey version', reason) !== 0) {
    throw new CryptoError(reason, 'RSAPrivateKey has an unsupported version')
  }
}

interface EcPrivateKey {
  readonly curveOid: string
  readonly curveName: string
  /** The ECPrivateKey re-encoded without its `[0] parameters`, as PKCS#8 carries it. */
  readonly withoutParameters: Uint8Array
}

/**
 * `ECPrivateKey ::= SEQUENCE { version 1, privateKey OCTET STRING, [0] parameters OPTIONAL,
 * [1] publicKey OPTIONAL }`. The curve comes from `[0]` (SEC1 PEM) or from the PKCS#8 algorithm;
 * when both are present they must agree.
 */
function readEcPrivateKey(der: Uint8Array, outerCurveOid: string | undefined): EcPrivateKey {
  const sequence = readDerDocumentWithTag(der, derTag.sequence, 'ECPrivateKey', reason)
  const [version, privateKey, ...optional] = readDerChildren(sequence, reason)
  if (readSmallInteger(version, 'the ECPrivateKey version', reason) !== 1) {
    throw new CryptoError(reason, 'ECPrivateKey has an unsupported version')
  }
  const scalar = expectTag(privateKey, derTag.octetString, 'the EC private key', reason)
  const parameters = optional.find((field) => field.tag === 0xa0)
  const publicKey = optional.find((field) => field.tag === 0xa1)
  if (optional.some((field) => field !== parameters && field !== publicKey)) {
    throw new CryptoError(reason, 'ECPrivateKey has unexpected fields')
  }
  let innerCurveOid: string | undefined
  if (parameters !== undefined) {
    const [curve] = readDerChildren(parameters, reason)
    if (curve?.tag !== derTag.objectIdentifier) {
      throw new CryptoError(
        'unsupported-key',
        'the EC key has explicit curve parameters; only named curves (P-256, P-384, P-521) are supported',
      )
    }
    innerCurveOid = decodeDerOid(curve.content, reason)
  }
  if (
    outerCurveOid !== undefined &&
    innerCurveOid !== undefined &&
    outerCurveOid !== innerCurveOid
  ) {
    throw new CryptoError(reason, 'the EC private key names two different curves')
  }
  const curveOid = outerCurveOid ?? innerCurveOid
  if (curveOid === undefined)
    throw new CryptoError(reason, 'the EC private key does not name its curve')
  const curve = namedCurveOf(curveOid)
  if (scalar.content.length === 0 || scalar.content.length > curve.size) {
    throw new CryptoError(reason, `the ${curve.name} private key has the wrong length`)
  }
  const withoutParameters = encodeDerSequence(
    (version as DerElement).bytes,
    scalar.bytes,
    ...(publicKey === undefined ? [] : [publicKey.bytes]),
  )
  return { curveOid, curveName: curve.name, withoutParameters }
}
