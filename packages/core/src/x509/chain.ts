import type { CertificateInfo, VerifiedCertificateChain } from '../crypto/backend.js'
import { bytesEqual } from '../crypto/bytes.js'
import { ConfigurationError } from '../errors/configuration-error.js'
import { HttpError } from '../errors/http-error.js'
import type { ParsedCertificate } from './certificate.js'
import { failChain as fail } from './chain-failure.js'
import type { ParsedCrl } from './crl.js'
import { crlStatus } from './crl-status.js'
import { checkPathRules } from './path-rules.js'
import { fetchMissingIssuers } from './revocation-online/missing-issuers.js'
import type { OnlineRevocation } from './revocation-online/online-revocation.js'
import { checkRevocationOnline } from './revocation-online/online-status.js'
import { type SignatureVerifier, isSignedBy as signatureVerifies } from './signed-by.js'

export type { SignatureVerifier }

/**
 * Input of {@link validateCertificateChain}: parsed certificates and CRLs, explicit trust and an
 * explicit time.
 */
export interface ChainValidationInput {
  /** Leaf first, then its issuer, and so on (the `x5c` order). May end with the anchor itself. */
  readonly chain: readonly ParsedCertificate[]
  readonly trustAnchors: readonly ParsedCertificate[]
  readonly crls: readonly ParsedCrl[]
  readonly at: Date
  /**
   * Where a certificate's revocation status comes from when `crls` has no CRL from its issuer
   * (CRLs fetched from its distribution points); without it, such a certificate is
   * `crl-missing`.
   */
  readonly revocation?: OnlineRevocation | undefined
}

/**
 * Validates a leaf-first certificate chain against trust anchors at a given time, with
 * revocation required. This is the one path policy every backend inherits; backends only
 * supply `verify`. The checks run in this order and the first failure wins:
 *
 * 1. an empty chain is `no-path`;
 * 2. each certificate's issuer name must be the next one's subject name (`order`);
 * 3. (with `revocation`) an issuer the chain lacks is fetched from the top certificate's AIA
 *    `caIssuers` URLs (DER or PKCS#7 certs-only); then the path ends at a trust anchor: the
 *    last certificate itself, or an anchor whose subject is the last certificate's issuer (AKI/SKI matches tried first) and whose key verifies it.
 *    No anchor of that name is `untrusted` when the last certificate is self-issued (a root we
 *    do not trust) and `no-path` otherwise (an intermediate is missing); anchors of that name
 *    whose key does not verify are `untrusted`;
 * 4. every certificate's signature verifies with its issuer's key (`bad-signature`, also for
 *    unsupported signature algorithms);
 * 5. the rules of the path's certificates, anchor included ({@link checkPathRules}):
 *    `unknown-critical-extension`, `not-a-ca`, the RFC 5280 profile OpenSSL's `-x509_strict`
 *    checks (key identifiers, critical basicConstraints on CAs, empty names: `malformed`,
 *    `no-path`, `not-a-ca`, `path-length`, `key-usage`), `key-usage` (`keyCertSign` on
 *    issuers, `digitalSignature` on the leaf), `path-length`, `name-constraints`;
 * 6. every certificate, anchor included, is valid at `at`, leaf first (`not-yet-valid`, `expired`);
 * 7. every certificate below the anchor, leaf first, has a CRL from its issuer (`crl-missing`),
 *    an issuer whose keyUsage, when present, has `cRLSign` (`key-usage`), a CRL that verifies
 *    with the issuer's key (`crl-bad-signature`), whose authorityKeyIdentifier, when present,
 *    names that key (`crl-missing`), has no critical extension the policy does not
 *    understand (`unknown-critical-extension`), is current at `at` (`crl-stale`) and does not
 *    list its serial number (`revoked`). With `revocation`, a certificate that has no CRL from
 *    its issuer in `crls` is looked up online instead (CRLs from its distribution
 *    points, then OCSP): `revoked`, or `revocation-unavailable` when none answers.
 *    Only certificates whose signatures were verified up to the anchor get there, so no URL of
 *    an unverified certificate is ever fetched.
 *
 * The anchor is trusted for its name and key as given: its own signature and revocation are not
 * checked. Everything else its certificate says (validity, CA flag, key usage, path length, name
 * constraints, critical extensions) still binds the path: an anchor narrows, it never widens.
 * Only CRLs issued and signed by the certificate's own issuer count: indirect CRLs and separate
 * CRL-signing keys are not supported. Policies are not processed (any policy is accepted, and a
 * critical policy constraint is an unknown critical extension). Without `revocation` nothing
 * is fetched: only `crls` count, and neither AIA (`caIssuers`, OCSP) nor distribution points are
 * used. With it, a missing issuer may come from AIA `caIssuers` (step 3) and a certificate's
 * revocation from its CRL distribution points, then its AIA OCSP responders (step 7); an OCSP
 * answer counts when the issuer, or a responder it delegated to with id-kp-OCSPSigning, signed
 * it, it is fresh and it says `good` or `revoked`.
 *
 * @returns the leaf and the path from leaf to anchor inclusive, as plain `CertificateInfo`.
 * @throws CertificateChainError with the `reason` above and the `subject` of the certificate
 *   the failure is about.
 * @throws ConfigurationError `at` when the validation time is not a valid `Date`.
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-6.1
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.1.13 (CRL distribution points)
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-4.2.2.1 (authority information access)
 * @see https://www.rfc-editor.org/rfc/rfc6960 (OCSP)
 * @see https://hl7.org/fhir/us/udap-security/STU2/ (certificate chain validation for UDAP)
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0004-certificate-path-policy-in-core.md
 */
export async function validateCertificateChain(
  input: ChainValidationInput,
  verify: SignatureVerifier,
): Promise<VerifiedCertificateChain> {
  const { trustAnchors, crls, at, revocation } = input
  requireValidTime(at)
  const verifies = failingClosed(verify)
  const leaf = checkOrder(input.chain)
  // An issuer the chain lacks is fetched from the AIA caIssuers URLs (the only URLs read from a
  // certificate not yet verified); whatever is appended goes through every check below.
  const chain =
    revocation === undefined
      ? input.chain
      : await fetchMissingIssuers(input.chain, trustAnchors, revocation)
  const { anchor, belowAnchor, verifiedTop } = await findAnchor(chain, trustAnchors, verifies)
  const path = [...belowAnchor, anchor]
  const issuerOf = (index: number): ParsedCertificate => path[index + 1] as ParsedCertificate
  await checkSignatures(belowAnchor, issuerOf, verifies, verifiedTop)
  checkPathRules(path)
  checkValidity(path, at)
  for (const [index, certificate] of belowAnchor.entries()) {
    await checkRevocation(certificate, issuerOf(index), crls, at, verifies, revocation)
  }
  return { leaf: toCertificateInfo(leaf), path: path.map(toCertificateInfo) }
}

/** Input of {@link validateOwnCertificateChain}: a client's own chain and the signing time. */
export interface OwnChainValidationInput {
  /** Leaf first, each certificate followed by its issuer; may or may not end with the root. */
  readonly chain: readonly ParsedCertificate[]
  readonly at: Date
}

/**
 * Checks a client's own certificate chain before it signs with it (UDAP software statements
 * and authentication tokens) with the rules of {@link validateCertificateChain} that do not need
 * trust or revocation, which are the server's to judge: order, every signature within the chain
 * (each certificate by the next; the top one's issuer may be absent), `unknown-critical-extension`,
 * `not-a-ca`, `key-usage`, `path-length`, `name-constraints` (of the CAs in the chain), then
 * validity. The first failure wins.
 *
 * @returns the leaf.
 * @throws CertificateChainError with the `reason` and the `subject` of the certificate the
 *   failure is about.
 * @throws ConfigurationError `at` when the time is not a valid `Date`.
 * @see https://hl7.org/fhir/us/udap-security/STU2/general.html#jwt-headers (x5c)
 */
export async function validateOwnCertificateChain(
  input: OwnChainValidationInput,
  verify: SignatureVerifier,
): Promise<ParsedCertificate> {
  const { chain, at } = input
  requireValidTime(at)
  const leaf = checkOrder(chain)
  const issuerOf = (index: number): ParsedCertificate => chain[index + 1] as ParsedCertificate
  await checkSignatures(chain.slice(0, -1), issuerOf, failingClosed(verify), undefined)
  checkPathRules(chain)
  checkValidity(chain, at)
  return leaf
}

function requireValidTime(at: Date): void {
  // An Invalid Date compares false with everything, which would silently pass the validity checks.
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
    throw new ConfigurationError({
      invalidAttribute: 'at',
      invalidValue: at instanceof Date ? 'Invalid Date' : at,
      message: 'the certificate validation time "at" must be a valid Date',
    })
  }
}

/**
 * The verifier with rejections and non-`true` answers read as "does not verify", except a
 * backend whose code could not load (`HttpError`, see `lazyImport`): no verdict, passed on.
 */
function failingClosed(verify: SignatureVerifier): SignatureVerifier {
  return async (check) => {
    try {
      return (await verify(check)) === true
    } catch (error) {
      if (HttpError.isInstance(error)) throw error
      return false
    }
  }
}

/** The leaf, once every certificate's issuer name is the next one's subject (`order`). */
function checkOrder(chain: readonly ParsedCertificate[]): ParsedCertificate {
  const leaf = chain[0]
  if (leaf === undefined) fail('no-path', 'the certificate chain is empty')
  for (let index = 0; index + 1 < chain.length; index++) {
    const certificate = chain[index] as ParsedCertificate
    const next = chain[index + 1] as ParsedCertificate
    if (!bytesEqual(certificate.issuerDer, next.subjectDer)) {
      fail(
        'order',
        `certificate ${index} ("${certificate.subject}") is issued by "${certificate.issuer}", but the next certificate in the chain is "${next.subject}"; chains must be leaf first, each followed by its issuer`,
        certificate,
      )
    }
  }
  return leaf
}

async function checkSignatures(
  certificates: readonly ParsedCertificate[],
  issuerOf: (index: number) => ParsedCertificate,
  verifies: SignatureVerifier,
  alreadyVerified: ParsedCertificate | undefined,
): Promise<void> {
  for (const [index, certificate] of certificates.entries()) {
    if (certificate === alreadyVerified) continue
    if (!(await signatureVerifies(certificate, issuerOf(index), verifies))) {
      fail(
        'bad-signature',
        certificate.signatureAlgorithm === undefined
          ? `certificate "${certificate.subject}" uses a signature algorithm that is not supported`
          : `the signature of certificate "${certificate.subject}" does not verify with the key of "${issuerOf(index).subject}"`,
        certificate,
      )
    }
  }
}

function checkValidity(path: readonly ParsedCertificate[], at: Date): void {
  for (const certificate of path) {
    if (at.getTime() < certificate.notBefore.getTime()) {
      fail(
        'not-yet-valid',
        `certificate "${certificate.subject}" is not valid before ${certificate.notBefore.toISOString()} (checked at ${at.toISOString()})`,
        certificate,
      )
    }
    if (at.getTime() > certificate.notAfter.getTime()) {
      fail(
        'expired',
        `certificate "${certificate.subject}" expired on ${certificate.notAfter.toISOString()} (checked at ${at.toISOString()})`,
        certificate,
      )
    }
  }
}

interface AnchoredPath {
  readonly anchor: ParsedCertificate
  /** The chain's certificates below the anchor, leaf first. */
  readonly belowAnchor: readonly ParsedCertificate[]
  /** The top certificate whose signature was already verified while choosing the anchor. */
  readonly verifiedTop: ParsedCertificate | undefined
}

async function findAnchor(
  chain: readonly ParsedCertificate[],
  trustAnchors: readonly ParsedCertificate[],
  verifies: SignatureVerifier,
): Promise<AnchoredPath> {
  const top = chain[chain.length - 1] as ParsedCertificate
  const includedAnchor = trustAnchors.find((anchor) => bytesEqual(anchor.der, top.der))
  if (includedAnchor !== undefined) {
    return { anchor: includedAnchor, belowAnchor: chain.slice(0, -1), verifiedTop: undefined }
  }
  const named = trustAnchors.filter((anchor) => bytesEqual(anchor.subjectDer, top.issuerDer))
  if (named.length === 0) {
    if (bytesEqual(top.subjectDer, top.issuerDer)) {
      fail(
        'untrusted',
        `the chain ends at "${top.subject}", a self-issued certificate that is not a trust anchor`,
        top,
      )
    }
    fail(
      'no-path',
      `no trust anchor or chain certificate is the issuer "${top.issuer}" of "${top.subject}"`,
      top,
    )
  }
  if (top.signatureAlgorithm === undefined) {
    fail(
      'bad-signature',
      `certificate "${top.subject}" uses a signature algorithm that is not supported`,
      top,
    )
  }
  // Prefer anchors whose subjectKeyIdentifier matches the certificate's authorityKeyIdentifier
  // (a CA that renewed its key keeps its name), then confirm by the signature itself.
  const keyIdentifier = top.authorityKeyIdentifier
  const ranked = [...named].sort(
    (left, right) =>
      Number(matchesKeyIdentifier(right, keyIdentifier)) -
      Number(matchesKeyIdentifier(left, keyIdentifier)),
  )
  for (const anchor of ranked) {
    if (await signatureVerifies(top, anchor, verifies))
      return { anchor, belowAnchor: chain, verifiedTop: top }
  }
  fail(
    'untrusted',
    `the trust anchor "${top.issuer}" did not sign "${top.subject}" (a different key has that name)`,
    top,
  )
}

function matchesKeyIdentifier(
  anchor: ParsedCertificate,
  keyIdentifier: Uint8Array | undefined,
): boolean {
  return (
    keyIdentifier !== undefined &&
    anchor.subjectKeyIdentifier !== undefined &&
    bytesEqual(anchor.subjectKeyIdentifier, keyIdentifier)
  )
}

async function checkRevocation(
  certificate: ParsedCertificate,
  issuer: ParsedCertificate,
  crls: readonly ParsedCrl[],
  at: Date,
  verifies: SignatureVerifier,
  revocation: OnlineRevocation | undefined,
): Promise<void> {
  // The caller's CRLs come first: when they hold one from the issuer, they decide, as given.
  const given = crls.some((crl) => bytesEqual(crl.issuerDer, certificate.issuerDer))
  if (!given && revocation !== undefined) {
    await checkRevocationOnline(certificate, issuer, revocation, at, verifies)
    return
  }
  const status = await crlStatus(certificate, issuer, crls, at, verifies)
  if (status.status === 'revoked') fail('revoked', status.message, certificate)
  if (status.status === 'unusable') fail(status.reason, status.message, status.certificate)
}

/**
 * The public {@link CertificateInfo} view of a parsed certificate, without the parser's
 * internal fields (TBS bytes, DER names, key identifiers).
 */
export function toCertificateInfo(certificate: ParsedCertificate): CertificateInfo {
  return {
    der: certificate.der,
    subject: certificate.subject,
    issuer: certificate.issuer,
    serialNumber: certificate.serialNumber,
    notBefore: certificate.notBefore,
    notAfter: certificate.notAfter,
    subjectAltNameUris: certificate.subjectAltNameUris,
    publicKeySpki: certificate.publicKeySpki,
    publicKeyJwk: certificate.publicKeyJwk,
    isCertificateAuthority: certificate.isCertificateAuthority,
  }
}
