/**
 * The X.509 extensions the test PKI can put into certificates and CRLs beyond the defaults
 * (basicConstraints, keyUsage, key identifiers, subjectAltName): path length, name constraints,
 * CRL distribution points, an issuing distribution point and raw extensions of any OID, so that
 * every rule of the path policy has a broken and a satisfied fixture.
 */
import { keyUsageBitNames } from '@fhir-auth/core/backend'
import {
  concatBytes,
  encodeBoolean,
  encodeDer,
  encodeDerOid,
  encodeDerSequence,
  encodeExtension,
  encodeIa5String,
  encodeInteger,
  encodeNamedBits,
} from './der-builders.js'

/** The `KeyUsage` bits, by their RFC 5280 names, in bit order (bit 0 first): core's list. */
export const keyUsageNames = keyUsageBitNames

/** One {@link keyUsageNames} entry. */
export type KeyUsageName = (typeof keyUsageNames)[number]

/** Names of one form each, as subtree bases of a name constraint. */
export interface NameSubtrees {
  /** `uniformResourceIdentifier` bases: a host (`example.test`) or a domain (`.example.test`). */
  readonly uris?: readonly string[]
  /** `dNSName` bases. */
  readonly dnsNames?: readonly string[]
  /** `rfc822Name` bases: a mailbox, a host, or a domain with a leading period. */
  readonly emails?: readonly string[]
}

/** `nameConstraints` of a CA. */
export interface NameConstraintsOptions {
  readonly permitted?: NameSubtrees
  readonly excluded?: NameSubtrees
}

/** An extension given as OID, criticality and the DER of its value. */
export interface RawExtension {
  readonly oid: string
  readonly critical: boolean
  readonly value: Uint8Array
}

/** Extensions a certificate may carry beyond the defaults. Every member is optional. */
export interface ExtensionProfile {
  /**
   * keyUsage bits (critical). `null` leaves the extension out. Default: `digitalSignature`,
   * `keyCertSign`, `cRLSign` for a CA, `digitalSignature` for a leaf.
   */
  readonly keyUsage?: readonly KeyUsageName[] | null
  /** basicConstraints `pathLenConstraint` (only written for a CA). */
  readonly pathLengthConstraint?: number
  /** nameConstraints (critical). */
  readonly nameConstraints?: NameConstraintsOptions
  /** cRLDistributionPoints: one distribution point per URI (fullName). */
  readonly crlDistributionPoints?: readonly string[]
  /** authorityInfoAccess (not critical): OCSP responder and CA issuer URLs. */
  readonly authorityInformationAccess?: {
    readonly ocsp?: readonly string[]
    readonly caIssuers?: readonly string[]
  }
  /** extendedKeyUsage (not critical): key purpose OIDs, e.g. id-kp-OCSPSigning. */
  readonly extendedKeyUsage?: readonly string[]
  /** Appended after every other extension, as given. */
  readonly extraExtensions?: readonly RawExtension[]
  /**
   * Departures from the RFC 5280 profile that `openssl verify -x509_strict` refuses, for the
   * differential corpus. Default: none (key identifiers present and not critical,
   * basicConstraints critical, pathLenConstraint only on a CA).
   */
  readonly profileDeviations?: ProfileDeviations
}

/** See {@link ExtensionProfile.profileDeviations}. */
export interface ProfileDeviations {
  /** Leave out the subjectKeyIdentifier, or mark it critical (RFC 5280 §4.2.1.2). */
  readonly subjectKeyIdentifier?: 'absent' | 'critical'
  /**
   * Leave out the authorityKeyIdentifier, mark it critical, or name another key than the
   * issuer's (RFC 5280 §4.2.1.1).
   */
  readonly authorityKeyIdentifier?: 'absent' | 'critical' | 'other-key'
  /** basicConstraints not critical (RFC 5280 §4.2.1.9 wants it critical on a CA). */
  readonly basicConstraintsNotCritical?: boolean
  /** Write `pathLenConstraint` even without cA (RFC 5280 §4.2.1.9 forbids it). */
  readonly pathLengthWithoutCa?: number
}

/** A private OID (under 2.25, a UUID arc) that no validator understands. */
export const unknownExtensionOid = '2.25.329800735698586629295641978511506172918'

/** A critical extension no validator understands, for `unknown-critical-extension` cases. */
export function unknownCriticalExtension(): RawExtension {
  return { oid: unknownExtensionOid, critical: true, value: encodeDer(0x05, new Uint8Array()) }
}

/**
 * `basicConstraints` (critical unless `critical` is false): `cA` and, for a CA, the optional
 * path length; `pathLengthWithoutCa` writes a path length without `cA`.
 */
export function basicConstraintsExtension(
  isCertificateAuthority: boolean,
  pathLengthConstraint: number | undefined,
  deviations: ProfileDeviations = {},
): Uint8Array {
  const pathLength = isCertificateAuthority ? pathLengthConstraint : deviations.pathLengthWithoutCa
  const fields = [
    ...(isCertificateAuthority ? [encodeBoolean(true)] : []),
    ...(pathLength === undefined ? [] : [encodeInteger(BigInt(pathLength))]),
  ]
  return encodeExtension(
    '2.5.29.19',
    deviations.basicConstraintsNotCritical !== true,
    encodeDerSequence(...fields),
  )
}

/** `keyUsage` (critical) with the named bits; an empty list encodes an all-zero BIT STRING. */
export function keyUsageExtension(names: readonly KeyUsageName[]): Uint8Array {
  const bits = names.map((name) => keyUsageNames.indexOf(name))
  const value = bits.length === 0 ? encodeDer(0x03, Uint8Array.of(0)) : encodeNamedBits(bits)
  return encodeExtension('2.5.29.15', true, value)
}

/** `nameConstraints` (critical): `[0] permittedSubtrees`, `[1] excludedSubtrees`. */
export function nameConstraintsExtension(options: NameConstraintsOptions): Uint8Array {
  const subtrees = (tag: number, names: NameSubtrees | undefined): Uint8Array[] => {
    const bases = [
      ...(names?.emails ?? []).map((email) => encodeIa5String(email, 0x81)),
      ...(names?.dnsNames ?? []).map((dns) => encodeIa5String(dns, 0x82)),
      ...(names?.uris ?? []).map((uri) => encodeIa5String(uri, 0x86)),
    ]
    if (bases.length === 0) return []
    return [encodeDer(tag, concatBytes(...bases.map((base) => encodeDerSequence(base))))]
  }
  return encodeExtension(
    '2.5.29.30',
    true,
    encodeDerSequence(...subtrees(0xa0, options.permitted), ...subtrees(0xa1, options.excluded)),
  )
}

/** `cRLDistributionPoints` (not critical): one point per URI, as `fullName`. */
export function crlDistributionPointsExtension(uris: readonly string[]): Uint8Array {
  return encodeExtension(
    '2.5.29.31',
    false,
    encodeDerSequence(...uris.map((uri) => encodeDerSequence(distributionPointName([uri])))),
  )
}

/** What a CRL's `issuingDistributionPoint` says. */
export interface IssuingDistributionPointOptions {
  /** The point's `fullName` URIs. */
  readonly uris?: readonly string[]
  readonly onlyContainsUserCerts?: boolean
  readonly onlyContainsCACerts?: boolean
}

/** `issuingDistributionPoint` (critical, as RFC 5280 §5.2.5 requires). */
export function issuingDistributionPointExtension(
  options: IssuingDistributionPointOptions,
): Uint8Array {
  return encodeExtension(
    '2.5.29.28',
    true,
    encodeDerSequence(
      ...(options.uris === undefined ? [] : [distributionPointName(options.uris)]),
      ...(options.onlyContainsUserCerts ? [encodeDer(0x81, Uint8Array.of(0xff))] : []),
      ...(options.onlyContainsCACerts ? [encodeDer(0x82, Uint8Array.of(0xff))] : []),
    ),
  )
}

/** `[0] DistributionPointName` holding `[0] fullName` of URIs. */
function distributionPointName(uris: readonly string[]): Uint8Array {
  return encodeDer(
    0xa0,
    encodeDer(0xa0, concatBytes(...uris.map((uri) => encodeIa5String(uri, 0x86)))),
  )
}

/** A raw extension as an `Extension` element. */
export function rawExtension(extension: RawExtension): Uint8Array {
  return encodeExtension(extension.oid, extension.critical, extension.value)
}

/** The extensions of an {@link ExtensionProfile} after the default ones, in a fixed order. */
export function profileExtensions(
  profile: ExtensionProfile,
  isCertificateAuthority: boolean,
): Uint8Array[] {
  const defaultUsage: readonly KeyUsageName[] = isCertificateAuthority
    ? ['digitalSignature', 'keyCertSign', 'cRLSign']
    : ['digitalSignature']
  const keyUsage = profile.keyUsage === undefined ? defaultUsage : profile.keyUsage
  return [
    basicConstraintsExtension(
      isCertificateAuthority,
      profile.pathLengthConstraint,
      profile.profileDeviations,
    ),
    ...(keyUsage === null ? [] : [keyUsageExtension(keyUsage)]),
    ...(profile.nameConstraints === undefined
      ? []
      : [nameConstraintsExtension(profile.nameConstraints)]),
    ...(profile.crlDistributionPoints === undefined
      ? []
      : [crlDistributionPointsExtension(profile.crlDistributionPoints)]),
    ...(profile.authorityInformationAccess === undefined
      ? []
      : [authorityInformationAccessExtension(profile.authorityInformationAccess)]),
    ...(profile.extendedKeyUsage === undefined
      ? []
      : [
          encodeExtension(
            '2.5.29.37',
            false,
            encodeDerSequence(...profile.extendedKeyUsage.map((oid) => encodeDerOid(oid))),
          ),
        ]),
  ]
}

/** `id-kp-OCSPSigning`: the purpose of a delegated OCSP responder's certificate. */
export const ocspSigningPurpose = '1.3.6.1.5.5.7.3.9'

/** `authorityInfoAccess` (not critical): `id-ad-ocsp` and `id-ad-caIssuers` URIs. */
export function authorityInformationAccessExtension(access: {
  readonly ocsp?: readonly string[]
  readonly caIssuers?: readonly string[]
}): Uint8Array {
  const description = (method: string, uri: string) =>
    encodeDerSequence(encodeDerOid(method), encodeIa5String(uri, 0x86))
  return encodeExtension(
    '1.3.6.1.5.5.7.1.1',
    false,
    encodeDerSequence(
      ...(access.ocsp ?? []).map((uri) => description('1.3.6.1.5.5.7.48.1', uri)),
      ...(access.caIssuers ?? []).map((uri) => description('1.3.6.1.5.5.7.48.2', uri)),
    ),
  )
}
