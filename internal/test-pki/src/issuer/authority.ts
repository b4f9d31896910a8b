import { createHash, randomBytes } from 'node:crypto'
import { encodePem, readDerChildren, readDerDocument } from '@fhir-auth/core/backend'
import {
  encodeBitString,
  encodeDer,
  encodeDerSequence,
  encodeExplicit,
  encodeExtension,
  encodeIa5String,
  encodeInteger,
  encodeName,
  encodeOctetString,
  encodeTime,
  type NameParts,
} from './der-builders.js'
import {
  type ExtensionProfile,
  type IssuingDistributionPointOptions,
  issuingDistributionPointExtension,
  type ProfileDeviations,
  profileExtensions,
  type RawExtension,
  rawExtension,
} from './extensions.js'
import { generateTestKeyPair, type KeyType, type TestKeyPair } from './key-pair.js'
import { corruptLastByte, signatureAlgorithmIdentifier, signTbs } from './signing.js'

/** The organisation every test PKI name carries, so test certificates are recognisable. */
const testOrganization = 'fhir-auth Test PKI'

/** Options of {@link createCertificateAuthority}. */
export interface CertificateAuthorityOptions extends ExtensionProfile {
  /** Common name of the CA. */
  readonly name: string
  /** Default `p384` (instant); RSA sizes take longer to generate. */
  readonly keyType?: KeyType
  readonly notBefore: Date
  readonly notAfter: Date
  /** The issuing authority; omitted for a self-signed root. */
  readonly issuer?: CertificateAuthority
  /** basicConstraints cA; default true. `false` makes a hostile "CA" for `not-a-ca` cases. */
  readonly isCertificateAuthority?: boolean
  /** Serial number as a bigint or hex string; random when omitted. */
  readonly serial?: bigint | string
  /** Use this key instead of generating one (several CAs with one key, or a fixed corpus). */
  readonly keyPair?: TestKeyPair
  /** Subject `OU`; default `Root` or `Intermediate`. */
  readonly organizationalUnit?: string
}

/** Options of {@link CertificateAuthority.issue}. */
export interface IssueCertificateOptions extends ExtensionProfile {
  readonly commonName: string
  /** SAN `uniformResourceIdentifier` entries, written byte for byte as given. */
  readonly sanUris?: readonly string[]
  /** SAN `dNSName` entries. */
  readonly sanDnsNames?: readonly string[]
  /** SAN `rfc822Name` entries. */
  readonly sanEmails?: readonly string[]
  /** Default `p256`. */
  readonly keyType?: KeyType
  /** Default one hour ago. */
  readonly notBefore?: Date
  /** Default one year from now. */
  readonly notAfter?: Date
  /** basicConstraints cA for the issued certificate; default false. */
  readonly isCa?: boolean
  /** Serial number as a bigint or hex string; random when omitted. */
  readonly serial?: bigint | string
  /** Flip the last signature byte: a certificate that parses but does not verify. */
  readonly corruptSignature?: boolean
  /** Use this key instead of generating one (same key, several certificates). */
  readonly keyPair?: TestKeyPair
  /** An empty subject Name (`commonName` is then only a label); RFC 5280 §4.1.2.6. */
  readonly emptySubject?: boolean
  /** Mark the subjectAltName critical, as RFC 5280 §4.2.1.6 requires with an empty subject. */
  readonly subjectAltNameCritical?: boolean
}

/** A certificate the test PKI issued, with its private key. */
export interface IssuedCertificate {
  readonly certificatePem: string
  readonly certificateDer: Uint8Array
  /** Unencrypted PKCS#8 PEM. */
  readonly privateKeyPem: string
  /** Lowercase hex without leading zero bytes, as `CertificateInfo.serialNumber`. */
  readonly serialNumber: string
  readonly keyPair: TestKeyPair
  /** Leaf first, then the issuing CAs up to but excluding the self-signed root (an `x5c`). */
  readonly chainDer: readonly Uint8Array[]
}

/** Options of {@link CertificateAuthority.crl}. */
export interface CrlOptions {
  /** Serial numbers to list, as hex strings (any case, leading zeros allowed) or bigints (negative too). */
  readonly revokedSerials?: readonly (string | bigint)[]
  readonly thisUpdate: Date
  /** Omitted means a CRL without nextUpdate. */
  readonly nextUpdate?: Date
  /** Flip the last signature byte. */
  readonly corruptSignature?: boolean
  /** cRLNumber extension value; default 1. */
  readonly crlNumber?: bigint
  /** An `issuingDistributionPoint` (critical) limiting what the CRL covers. */
  readonly issuingDistributionPoint?: IssuingDistributionPointOptions
  /** CRL extensions appended after the defaults, as given. */
  readonly extraExtensions?: readonly RawExtension[]
  /** Sign with this key instead of the authority's (a CRL its issuer did not sign). */
  readonly signingKeyPair?: TestKeyPair
  /**
   * Departures from RFC 5280 §5.2 that `openssl verify -x509_strict` refuses: the
   * authorityKeyIdentifier left out, critical or naming another key; cRLNumber critical.
   */
  readonly authorityKeyIdentifier?: 'absent' | 'critical' | 'other-key'
  readonly crlNumberCritical?: boolean
}

/** A CRL the test PKI issued. */
export interface IssuedCrl {
  readonly crlDer: Uint8Array
  readonly crlPem: string
}

/** A certificate authority of the test PKI: a certificate plus its key, able to issue. */
export interface CertificateAuthority extends IssuedCertificate {
  readonly name: string
  readonly keyType: KeyType
  /** DER of the subject Name, written as the issuer of everything this CA signs. */
  readonly subjectDer: Uint8Array
  readonly subjectKeyIdentifier: Uint8Array
  /** This CA's certificate and its issuers up to but excluding the self-signed root. */
  readonly intermediatesDer: readonly Uint8Array[]
  issue(options: IssueCertificateOptions): Promise<IssuedCertificate>
  crl(options: CrlOptions): IssuedCrl
}

/**
 * Creates a root CA (self-signed) or, with `issuer`, an intermediate CA.
 *
 * Certificates are X.509 v3 with the subject `C=US, O=fhir-auth Test PKI, OU=…, CN=<name>`,
 * basicConstraints (critical), keyUsage (critical), subject and authority key identifiers, then
 * whatever the {@link ExtensionProfile} options add.
 * RSA issuers sign with SHA-256, P-256 with ECDSA SHA-256, P-384 with ECDSA SHA-384.
 */
export async function createCertificateAuthority(
  options: CertificateAuthorityOptions,
): Promise<CertificateAuthority> {
  const keyPair = options.keyPair ?? (await generateTestKeyPair(options.keyType ?? 'p384'))
  const keyType = keyPair.keyType
  const subject: NameParts = {
    country: 'US',
    organization: testOrganization,
    organizationalUnit:
      options.organizationalUnit ?? (options.issuer === undefined ? 'Root' : 'Intermediate'),
    commonName: options.name,
  }
  const subjectDer = encodeName(subject)
  const subjectKeyIdentifier = keyIdentifier(keyPair.spki)
  const isCertificateAuthority = options.isCertificateAuthority ?? true
  const signer = options.issuer ?? {
    keyType,
    keyPair,
    subjectDer,
    subjectKeyIdentifier,
    intermediatesDer: [],
  }
  const serial = serialOf(options.serial)
  const certificateDer = buildCertificate({
    serial,
    issuer: signer,
    subjectDer,
    notBefore: options.notBefore,
    notAfter: options.notAfter,
    keyPair,
    extensions: [
      ...profileExtensions(options, isCertificateAuthority),
      ...keyIdentifierExtensions(
        subjectKeyIdentifier,
        signer.subjectKeyIdentifier,
        options.profileDeviations,
      ),
      ...(options.extraExtensions ?? []).map(rawExtension),
    ],
    corruptSignature: false,
  })
  const intermediatesDer =
    options.issuer === undefined ? [] : [certificateDer, ...options.issuer.intermediatesDer]
  const authority: CertificateAuthority = {
    name: options.name,
    keyType,
    keyPair,
    subjectDer,
    subjectKeyIdentifier,
    certificateDer,
    certificatePem: encodePem(certificateDer, 'CERTIFICATE'),
    privateKeyPem: keyPair.privateKeyPem,
    serialNumber: serialHex(serial),
    chainDer: [certificateDer, ...(options.issuer?.intermediatesDer ?? [])],
    intermediatesDer,
    issue: (issueOptions) => issueCertificate(authority, issueOptions),
    crl: (crlOptions) => issueCrl(authority, crlOptions),
  }
  return authority
}

async function issueCertificate(
  authority: CertificateAuthority,
  options: IssueCertificateOptions,
): Promise<IssuedCertificate> {
  const keyPair = options.keyPair ?? (await generateTestKeyPair(options.keyType ?? 'p256'))
  const isCa = options.isCa ?? false
  const now = Date.now()
  const sanUris = options.sanUris ?? []
  const sanDnsNames = options.sanDnsNames ?? []
  const sanEmails = options.sanEmails ?? []
  const extensions = [
    ...profileExtensions(options, isCa),
    ...keyIdentifierExtensions(
      keyIdentifier(keyPair.spki),
      authority.subjectKeyIdentifier,
      options.profileDeviations,
    ),
  ]
  if (sanUris.length + sanDnsNames.length + sanEmails.length > 0) {
    // GeneralName [6] uniformResourceIdentifier, [2] dNSName and [1] rfc822Name: implicitly
    // tagged IA5Strings.
    const names = [
      ...sanUris.map((uri) => encodeIa5String(uri, 0x86)),
      ...sanDnsNames.map((dns) => encodeIa5String(dns, 0x82)),
      ...sanEmails.map((email) => encodeIa5String(email, 0x81)),
    ]
    extensions.push(
      encodeExtension(
        '2.5.29.17',
        options.subjectAltNameCritical === true,
        encodeDerSequence(...names),
      ),
    )
  }
  extensions.push(...(options.extraExtensions ?? []).map(rawExtension))
  const serial = serialOf(options.serial)
  const certificateDer = buildCertificate({
    serial,
    issuer: authority,
    subjectDer: options.emptySubject
      ? encodeDerSequence()
      : encodeName({
          country: 'US',
          organization: testOrganization,
          organizationalUnit: isCa ? 'Intermediate' : 'Leaf',
          commonName: options.commonName,
        }),
    notBefore: options.notBefore ?? new Date(now - 3_600_000),
    notAfter: options.notAfter ?? new Date(now + 365 * 86_400_000),
    keyPair,
    extensions,
    corruptSignature: options.corruptSignature ?? false,
  })
  return {
    certificateDer,
    certificatePem: encodePem(certificateDer, 'CERTIFICATE'),
    privateKeyPem: keyPair.privateKeyPem,
    serialNumber: serialHex(serial),
    keyPair,
    chainDer: [certificateDer, ...authority.intermediatesDer],
  }
}

function issueCrl(authority: CertificateAuthority, options: CrlOptions): IssuedCrl {
  const revoked = (options.revokedSerials ?? []).map((serial) =>
    encodeDerSequence(encodeInteger(serialOf(serial)), encodeTime(options.thisUpdate)),
  )
  const crlExtensions = encodeExplicit(
    0,
    encodeDerSequence(
      ...authorityKeyIdentifierExtension(
        authority.subjectKeyIdentifier,
        options.authorityKeyIdentifier,
      ),
      encodeExtension(
        '2.5.29.20',
        options.crlNumberCritical === true,
        encodeInteger(options.crlNumber ?? 1n),
      ),
      ...(options.issuingDistributionPoint === undefined
        ? []
        : [issuingDistributionPointExtension(options.issuingDistributionPoint)]),
      ...(options.extraExtensions ?? []).map(rawExtension),
    ),
  )
  const signingKey = options.signingKeyPair ?? authority.keyPair
  const algorithm = signatureAlgorithmIdentifier(signingKey.keyType)
  const tbs = encodeDerSequence(
    encodeInteger(1n),
    algorithm,
    authority.subjectDer,
    encodeTime(options.thisUpdate),
    ...(options.nextUpdate === undefined ? [] : [encodeTime(options.nextUpdate)]),
    ...(revoked.length === 0 ? [] : [encodeDerSequence(...revoked)]),
    crlExtensions,
  )
  const signed = encodeDerSequence(
    tbs,
    algorithm,
    encodeBitString(signTbs(signingKey.keyType, signingKey.privateKey, tbs)),
  )
  const crlDer = options.corruptSignature ? corruptLastByte(signed) : signed
  return { crlDer, crlPem: encodePem(crlDer, 'X509 CRL') }
}

/** What signing a certificate needs to know about its issuer. */
interface Signer {
  readonly keyType: KeyType
  readonly keyPair: TestKeyPair
  readonly subjectDer: Uint8Array
  readonly subjectKeyIdentifier: Uint8Array
}

interface CertificateFields {
  readonly serial: bigint
  readonly issuer: Signer
  readonly subjectDer: Uint8Array
  readonly notBefore: Date
  readonly notAfter: Date
  readonly keyPair: TestKeyPair
  readonly extensions: readonly Uint8Array[]
  readonly corruptSignature: boolean
}

function buildCertificate(fields: CertificateFields): Uint8Array {
  const algorithm = signatureAlgorithmIdentifier(fields.issuer.keyType)
  const tbs = encodeDerSequence(
    encodeExplicit(0, encodeInteger(2n)),
    encodeInteger(fields.serial),
    algorithm,
    fields.issuer.subjectDer,
    encodeDerSequence(encodeTime(fields.notBefore), encodeTime(fields.notAfter)),
    fields.subjectDer,
    fields.keyPair.spki,
    encodeExplicit(3, encodeDerSequence(...fields.extensions)),
  )
  const signature = signTbs(fields.issuer.keyType, fields.issuer.keyPair.privateKey, tbs)
  const certificate = encodeDerSequence(tbs, algorithm, encodeBitString(signature))
  return fields.corruptSignature ? corruptLastByte(certificate) : certificate
}

/** The subject and authority key identifiers, as the profile deviations say (default: both). */
function keyIdentifierExtensions(
  subjectKeyIdentifier: Uint8Array,
  issuerKeyIdentifier: Uint8Array,
  deviations: ProfileDeviations = {},
): Uint8Array[] {
  const subject = deviations.subjectKeyIdentifier
  return [
    ...(subject === 'absent'
      ? []
      : [
          encodeExtension(
            '2.5.29.14',
            subject === 'critical',
            encodeOctetString(subjectKeyIdentifier),
          ),
        ]),
    ...authorityKeyIdentifierExtension(issuerKeyIdentifier, deviations.authorityKeyIdentifier),
  ]
}

/** `AuthorityKeyIdentifier ::= SEQUENCE { [0] keyIdentifier }`, or none for `absent`. */
function authorityKeyIdentifierExtension(
  issuerKeyIdentifier: Uint8Array,
  deviation: 'absent' | 'critical' | 'other-key' | undefined,
): Uint8Array[] {
  if (deviation === 'absent') return []
  const identifier =
    deviation === 'other-key'
      ? issuerKeyIdentifier.map((octet) => octet ^ 0xff)
      : issuerKeyIdentifier
  return [
    encodeExtension(
      '2.5.29.35',
      deviation === 'critical',
      encodeDerSequence(encodeDer(0x80, identifier)),
    ),
  ]
}

/** RFC 5280 §4.2.1.2 method 1: SHA-1 of the subjectPublicKey BIT STRING value. */
function keyIdentifier(spki: Uint8Array): Uint8Array {
  const [, subjectPublicKey] = readDerChildren(readDerDocument(spki))
  const keyBits = subjectPublicKey?.content.subarray(1) ?? new Uint8Array()
  return new Uint8Array(createHash('sha1').update(keyBits).digest())
}

/**
 * A serial number: the given one (a negative bigint for the negative serials some CAs issued),
 * or 16 random bytes, positive (RFC 5280: at most 20 octets).
 */
function serialOf(serial: bigint | string | undefined): bigint {
  if (typeof serial === 'bigint') return serial
  if (typeof serial === 'string') return BigInt(`0x${serial}`)
  const bytes = randomBytes(16)
  bytes[0] = ((bytes[0] as number) & 0x7f) | 0x01
  return BigInt(`0x${bytes.toString('hex')}`)
}

/**
 * A serial number in `CertificateInfo.serialNumber` form (lowercase hex, no leading zero octets),
 * computed rather than parsed back, so a certificate with hostile extensions still gets issued.
 */
function serialHex(serial: bigint): string {
  const hex = (serial < 0n ? -serial : serial).toString(16)
  return `${serial < 0n ? '-' : ''}${hex.length % 2 === 0 ? hex : `0${hex}`}`
}
