/**
 * `@fhir-auth/test-pki/issuer`: a small X.509 certificate and CRL issuer for tests and the
 * sandbox, on node:crypto and core's DER encoder. Node only. Keys are unencrypted: test data.
 *
 * @example
 * ```ts
 * const root = await createCertificateAuthority({ name: 'Root', notBefore, notAfter })
 * const server = await root.issue({ commonName: baseUrl, sanUris: [baseUrl] })
 * const crl = root.crl({ thisUpdate: notBefore, nextUpdate: notAfter })
 * ```
 */

export {
  generateStrictProfileCases,
  strictProfileReferenceTime,
} from '../corpus/strict-profile-cases.js'
export {
  type CertificateAuthority,
  type CertificateAuthorityOptions,
  type CrlOptions,
  createCertificateAuthority,
  type IssueCertificateOptions,
  type IssuedCertificate,
  type IssuedCrl,
} from './authority.js'
export {
  type ExtensionProfile,
  type IssuingDistributionPointOptions,
  type KeyUsageName,
  keyUsageNames,
  type NameConstraintsOptions,
  type NameSubtrees,
  ocspSigningPurpose,
  type ProfileDeviations,
  type RawExtension,
  unknownCriticalExtension,
  unknownExtensionOid,
} from './extensions.js'
export {
  deriveTestKeyPair,
  generateTestKeyPair,
  type KeyType,
  keyTypes,
  type TestKeyPair,
} from './key-pair.js'
