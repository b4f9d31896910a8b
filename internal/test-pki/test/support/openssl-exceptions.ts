/**
 * The known disagreements between fhir-auth's path policy and `openssl verify`, each with the
 * reason fhir-auth decides otherwise. The differential test accepts a disagreement only when one
 * of these explains it, and checks that docs/guides/udap.md lists every one by its `id`.
 */
import type { OpenSslVerdict } from './openssl-verify.js'

/** One listed exception. */
export interface ListedException {
  readonly id: string
  /** Whether it explains this disagreement (fhir-auth said `ours`, OpenSSL `theirs`). */
  readonly explains: (tags: readonly string[], ours: string, theirs: OpenSslVerdict) => boolean
}

/** X509_V_ERR_CA_CERT_MISSING_KEY_USAGE, X509_V_ERR_PATHLEN_WITHOUT_KU_KEY_CERT_SIGN. */
const strictKeyUsageProfileCodes = [92, 81]

export const listedExceptions: readonly ListedException[] = [
  {
    // -x509_strict requires keyUsage on every CA; DESIGN §11 checks keyCertSign "when the
    // extension is present", as RFC 5280 §6.1 does.
    id: 'ca-without-key-usage',
    explains: (tags, ours, theirs) =>
      ours === 'ok' &&
      !theirs.ok &&
      strictKeyUsageProfileCodes.includes(theirs.code) &&
      tags.some((tag) => !tag.startsWith('leaf') && tag.endsWith(':key-usage-absent')),
  },
  {
    // OpenSSL's SSL client purpose accepts keyAgreement (ECDH key exchange) instead of
    // digitalSignature; a UDAP leaf signs JWTs, so fhir-auth requires digitalSignature.
    id: 'leaf-key-agreement',
    explains: (tags, ours, theirs) =>
      ours === 'key-usage' && theirs.ok && tags.includes('leaf:key-usage-key-agreement-only'),
  },
  {
    // OpenSSL builds a path from an unordered bag of certificates; `x5c` is ordered (RFC 7515
    // §4.1.6), and fhir-auth refuses a chain that is not leaf first, issuer after issuer.
    id: 'chain-order',
    explains: (tags, ours, theirs) =>
      ours === 'order' && theirs.ok && tags.includes('chain:order-swapped'),
  },
  {
    // With a self-issued CA in the path (a key rollover: the same name, another key), OpenSSL
    // takes a CRL of that name signed by either key (RFC 5280 §6.3.3 (f): a CRL issuer other
    // than the certificate's issuer). fhir-auth counts only CRLs signed by the key that signed
    // the certificate, so the other key's CRL does not vouch for it.
    id: 'crl-signed-by-another-key',
    explains: (tags, ours, theirs) =>
      theirs.ok &&
      ['crl-missing', 'crl-bad-signature', 'crl-stale', 'revoked'].includes(ours) &&
      tags.includes('intermediate-1:self-issued'),
  },
]

/**
 * The fhir-auth reasons an OpenSSL error may correspond to (`X509_V_ERR_*` numbers of OpenSSL
 * 3.0), to compare the reasons of refusals both sides agree on.
 */
export const reasonsByOpenSslCode: Readonly<Record<number, readonly string[]>> = {
  // X509_V_ERR_UNSPECIFIED: what OpenSSL says of a key it cannot decode (an EC point off its
  // curve), which fhir-auth's parser refuses.
  1: ['invalid-certificate'],
  2: ['no-path', 'untrusted'],
  3: ['crl-missing'],
  7: ['bad-signature', 'untrusted'],
  8: ['crl-bad-signature'],
  9: ['not-yet-valid'],
  10: ['expired'],
  11: ['crl-stale'],
  12: ['crl-stale'],
  18: ['untrusted'],
  19: ['untrusted'],
  20: ['no-path', 'untrusted'],
  23: ['revoked'],
  24: ['not-a-ca', 'key-usage'],
  25: ['path-length'],
  26: ['key-usage'],
  34: ['unknown-critical-extension'],
  35: ['key-usage'],
  36: ['unknown-critical-extension'],
  44: ['crl-missing'],
  47: ['name-constraints'],
  48: ['name-constraints'],
  51: ['name-constraints'],
  79: ['not-a-ca', 'key-usage'],
  // The -x509_strict profile checks of OpenSSL 3.0 (X509_V_ERR_PATHLEN_INVALID_FOR_NON_CA …
  // X509_V_ERR_SUBJECT_KEY_IDENTIFIER_CRITICAL).
  80: ['path-length'],
  82: ['key-usage'],
  83: ['malformed'],
  84: ['malformed'],
  85: ['malformed'],
  86: ['malformed'],
  88: ['malformed'],
  89: ['not-a-ca'],
  90: ['unknown-critical-extension'],
  91: ['unknown-critical-extension'],
}
