import type { VerificationAlgorithm } from '../crypto/signature-check.js'
import { CryptoError } from '../errors/crypto-error.js'
import { type DerElement, readDerChildren } from './der.js'
import { decodeSerialNumber, decodeTime } from './der-certificate-values.js'
import { derTag, expectTag, readSmallInteger } from './der-values.js'
import { renderDistinguishedName } from './distinguished-name.js'
import { type CrlScope, readIssuingDistributionPoint } from './distribution-points.js'
import { type ExtensionEntry, readExtensionList, unrecognizedCritical } from './extension-list.js'
import { readKeyIdentifierOfAuthority } from './key-identifiers.js'
import { readSignature, readSignedStructure } from './signed-structure.js'

/**
 * A certificate revocation list as the chain policy needs it.
 */
export interface ParsedCrl {
  readonly der: Uint8Array
  /** DER of `tbsCertList`: the bytes the issuer signed. */
  readonly tbs: Uint8Array
  /** `undefined` when the signature algorithm is not supported (never verifies). */
  readonly signatureAlgorithm: VerificationAlgorithm | undefined
  /** JOSE form: ECDSA as `r‖s`, RSA as is. */
  readonly signature: Uint8Array
  /** RFC 4514 form, for messages. */
  readonly issuer: string
  /** DER of the issuer `Name`; matched byte for byte against certificates' issuer names. */
  readonly issuerDer: Uint8Array
  readonly thisUpdate: Date
  readonly nextUpdate: Date | undefined
  /**
   * Serial numbers in the canonical text of `CertificateInfo.serialNumber` (one text per integer),
   * so a revocation lookup compares integers, not encodings.
   */
  readonly revokedSerialNumbers: ReadonlySet<string>
  /**
   * The `keyIdentifier` of its authorityKeyIdentifier, when present: a CRL naming another key
   * than its issuer's is not used (RFC 5280 §5.2.1).
   */
  readonly authorityKeyIdentifier: Uint8Array | undefined
  /** What the CRL covers, from its `issuingDistributionPoint`; `undefined` without one. */
  readonly scope: CrlScope | undefined
  /**
   * OIDs of critical CRL or entry extensions the policy does not understand (a delta CRL
   * indicator, an entry's certificateIssuer, …): RFC 5280 §5.2 forbids using such a CRL.
   */
  readonly unrecognizedCriticalExtensions: readonly string[]
}

const reason = 'invalid-crl'

/** `[0] EXPLICIT Extensions` of a TBSCertList. */
const crlExtensionsTag = 0xa0

const issuingDistributionPointOid = '2.5.29.28'

const authorityKeyIdentifierOid = '2.5.29.35'

/**
 * CRL extensions the policy accepts as critical: the authority key identifier and the scope, as
 * OpenSSL does. The CRL number is read by no rule and RFC 5280 §5.2.3 makes it non-critical, so a
 * critical one makes the CRL unusable, as in OpenSSL.
 */
const understoodCrlExtensions: ReadonlySet<string> = new Set([
  authorityKeyIdentifierOid,
  issuingDistributionPointOid,
])

/** Entry extensions the policy understands: reason code, hold instruction, invalidity date. */
const understoodEntryExtensions: ReadonlySet<string> = new Set([
  '2.5.29.21',
  '2.5.29.23',
  '2.5.29.24',
])

/**
 * Parses a DER X.509 v1 or v2 CRL. No signature is checked here.
 *
 * @throws CryptoError `invalid-crl` naming what is malformed: not DER, trailing bytes, missing
 *   fields, an unknown version, differing signature algorithms, invalid dates or entries.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-5.1
 */
export function parseCrl(der: Uint8Array): ParsedCrl {
  const signed = readSignedStructure(der, 'CRL')
  const fields = readDerChildren(signed.tbs, reason)
  let index = 0
  if (fields[0]?.tag === derTag.integer) {
    const version = readSmallInteger(fields[0], 'the CRL version', reason)
    if (version !== 1) throw new CryptoError(reason, `CRL version ${version + 1} is not supported`)
    index = 1
  }
  const { signatureAlgorithm, signature } = readSignature(
    signed,
    expectTag(fields[index++], derTag.sequence, 'the tbsCertList signature algorithm', reason),
  )
  const issuer = expectTag(fields[index++], derTag.sequence, 'the CRL issuer name', reason)
  const thisUpdate = decodeTime(
    fields[index++] ?? missing('thisUpdate'),
    'the CRL thisUpdate',
    reason,
  )
  let nextUpdate: Date | undefined
  const candidate = fields[index]
  if (candidate?.tag === derTag.utcTime || candidate?.tag === derTag.generalizedTime) {
    nextUpdate = decodeTime(candidate, 'the CRL nextUpdate', reason)
    index++
  }
  let revoked: RevokedEntries = { serialNumbers: new Set(), unrecognizedCritical: [] }
  if (fields[index]?.tag === derTag.sequence) {
    revoked = readRevokedEntries(fields[index] as DerElement)
    index++
  }
  let extensions = new Map<string, ExtensionEntry>()
  if (fields[index]?.tag === crlExtensionsTag) {
    const [list, extra] = readDerChildren(fields[index] as DerElement, reason)
    if (extra !== undefined) throw new CryptoError(reason, 'the CRL has two extension lists')
    extensions = readExtensionList(list, reason, 'the CRL')
    index++
  }
  const issuingDistributionPoint = extensions.get(issuingDistributionPointOid)
  if (index !== fields.length) throw new CryptoError(reason, 'tbsCertList has unexpected fields')
  return {
    der: signed.der,
    tbs: signed.tbs.bytes,
    signatureAlgorithm,
    signature,
    issuer: renderDistinguishedName(issuer, reason),
    issuerDer: issuer.bytes,
    thisUpdate,
    nextUpdate,
    revokedSerialNumbers: revoked.serialNumbers,
    authorityKeyIdentifier: readKeyIdentifierOfAuthority(
      extensions.get(authorityKeyIdentifierOid)?.value,
      reason,
    ),
    scope:
      issuingDistributionPoint === undefined
        ? undefined
        : readIssuingDistributionPoint(issuingDistributionPoint.value),
    unrecognizedCriticalExtensions: [
      ...unrecognizedCritical(extensions, understoodCrlExtensions),
      ...revoked.unrecognizedCritical,
    ],
  }
}

function missing(field: string): never {
  throw new CryptoError(reason, `the CRL ${field} is missing`)
}

interface RevokedEntries {
  readonly serialNumbers: Set<string>
  /** Critical entry extensions not understood, each OID once. */
  readonly unrecognizedCritical: readonly string[]
}

/** `revokedCertificates ::= SEQUENCE OF SEQUENCE { userCertificate, revocationDate, crlEntryExtensions OPTIONAL }`. */
function readRevokedEntries(revoked: DerElement): RevokedEntries {
  const serialNumbers = new Set<string>()
  const unrecognized = new Set<string>()
  for (const entry of readDerChildren(revoked, reason)) {
    const [serialNumber, revocationDate, entryExtensions, extra] = readDerChildren(
      expectTag(entry, derTag.sequence, 'a revoked certificate entry', reason),
      reason,
    )
    if (extra !== undefined)
      throw new CryptoError(reason, 'a revoked certificate entry has extra fields')
    serialNumbers.add(
      decodeSerialNumber(
        expectTag(serialNumber, derTag.integer, 'a revoked serial number', reason).content,
        reason,
      ),
    )
    decodeTime(revocationDate ?? missing('revocationDate'), 'a revocation date', reason)
    if (entryExtensions !== undefined) {
      const entries = readExtensionList(entryExtensions, reason, 'a CRL entry')
      for (const oid of unrecognizedCritical(entries, understoodEntryExtensions))
        unrecognized.add(oid)
    }
  }
  return { serialNumbers, unrecognizedCritical: [...unrecognized] }
}
