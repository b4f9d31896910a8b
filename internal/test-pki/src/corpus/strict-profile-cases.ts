/**
 * One chain per RFC 5280 profile rule that `openssl verify -x509_strict` enforces (key
 * identifiers, critical basicConstraints on CAs, no path length or keyCertSign without cA, a
 * critical subjectAltName beside an empty subject, non-critical key identifiers and cRLNumber,
 * EC points on their curve), plus the conforming variants of the same rules, for the
 * differential test. Each case is root → intermediate → leaf with current CRLs, and departs from
 * the profile in exactly the one way its name says. Node only (node:crypto signs).
 */

import {
  type CertificateAuthorityOptions,
  type CrlOptions,
  createCertificateAuthority,
  type IssueCertificateOptions,
} from '../issuer/authority.js'
import { deriveTestKeyPair, type TestKeyPair } from '../issuer/key-pair.js'
import type { CorpusCase } from './chain-corpus.js'

/** The time every strict-profile verdict is judged at. */
export const strictProfileReferenceTime = new Date('2027-01-01T00:00:00Z')

const window = {
  notBefore: new Date('2025-01-01T00:00:00Z'),
  notAfter: new Date('2045-01-01T00:00:00Z'),
}

/** What one case changes: the root's, intermediate's or leaf's options, or a CRL's. */
interface Variation {
  readonly root?: Partial<CertificateAuthorityOptions>
  readonly intermediate?: Partial<CertificateAuthorityOptions>
  readonly leaf?: Partial<IssueCertificateOptions>
  /** The options of the intermediate's CRL (the one that covers the leaf). */
  readonly intermediateCrl?: Partial<CrlOptions>
  /** Replace the leaf's EC point with one that is not on P-256. */
  readonly leafPointOffCurve?: boolean
}

/**
 * The cases, by name: `<role>:<rule>`. Those ending in `-ok` conform (OpenSSL accepts them);
 * the others each break one `-x509_strict` rule.
 */
const variations: Readonly<Record<string, Variation>> = {
  'strict-baseline-ok': {},
  'root:authority-key-identifier-absent-ok': {
    root: { profileDeviations: { authorityKeyIdentifier: 'absent' } },
  },
  'intermediate:authority-key-identifier-absent': {
    intermediate: { profileDeviations: { authorityKeyIdentifier: 'absent' } },
  },
  'leaf:authority-key-identifier-absent': {
    leaf: { profileDeviations: { authorityKeyIdentifier: 'absent' } },
  },
  'leaf:authority-key-identifier-other-key': {
    leaf: { profileDeviations: { authorityKeyIdentifier: 'other-key' } },
  },
  'intermediate:authority-key-identifier-other-key': {
    intermediate: { profileDeviations: { authorityKeyIdentifier: 'other-key' } },
  },
  'leaf:authority-key-identifier-critical': {
    leaf: { profileDeviations: { authorityKeyIdentifier: 'critical' } },
  },
  'root:subject-key-identifier-absent': {
    root: { profileDeviations: { subjectKeyIdentifier: 'absent' } },
  },
  'intermediate:subject-key-identifier-absent': {
    intermediate: { profileDeviations: { subjectKeyIdentifier: 'absent' } },
  },
  'leaf:subject-key-identifier-absent-ok': {
    leaf: { profileDeviations: { subjectKeyIdentifier: 'absent' } },
  },
  'intermediate:subject-key-identifier-critical': {
    intermediate: { profileDeviations: { subjectKeyIdentifier: 'critical' } },
  },
  'root:basic-constraints-not-critical': {
    root: { profileDeviations: { basicConstraintsNotCritical: true } },
  },
  'intermediate:basic-constraints-not-critical': {
    intermediate: { profileDeviations: { basicConstraintsNotCritical: true } },
  },
  'leaf:basic-constraints-not-critical-ok': {
    leaf: { profileDeviations: { basicConstraintsNotCritical: true } },
  },
  'leaf:path-length-without-ca': {
    leaf: { profileDeviations: { pathLengthWithoutCa: 0 } },
  },
  'leaf:key-cert-sign-without-ca': {
    leaf: { keyUsage: ['digitalSignature', 'keyCertSign'] },
  },
  'leaf:empty-subject-san-not-critical': {
    leaf: { emptySubject: true, sanUris: ['https://client.example.test/app'] },
  },
  'leaf:empty-subject-san-critical-ok': {
    leaf: {
      emptySubject: true,
      sanUris: ['https://client.example.test/app'],
      subjectAltNameCritical: true,
    },
  },
  // OpenSSL 3.0 uses a CRL without an authorityKeyIdentifier, or with a critical one (it
  // handles the extension); so does fhir-auth. Naming another key makes it unusable.
  'intermediate-crl:authority-key-identifier-absent-ok': {
    intermediateCrl: { authorityKeyIdentifier: 'absent' },
  },
  'intermediate-crl:authority-key-identifier-other-key': {
    intermediateCrl: { authorityKeyIdentifier: 'other-key' },
  },
  'intermediate-crl:authority-key-identifier-critical-ok': {
    intermediateCrl: { authorityKeyIdentifier: 'critical' },
  },
  'intermediate-crl:crl-number-critical': {
    intermediateCrl: { crlNumberCritical: true },
  },
  'leaf:ec-point-off-curve': { leafPointOffCurve: true },
}

/** Every strict-profile case, in a fixed order; keys are derived, so names are stable. */
export async function generateStrictProfileCases(): Promise<CorpusCase[]> {
  const cases: CorpusCase[] = []
  for (const [name, variation] of Object.entries(variations)) {
    cases.push(await generateCase(name, variation))
  }
  return cases
}

async function generateCase(name: string, variation: Variation): Promise<CorpusCase> {
  const root = await createCertificateAuthority({
    name: `Strict ${name} Root`,
    keyPair: deriveTestKeyPair('strict profile root', 'p256'),
    ...window,
    ...variation.root,
  })
  const intermediate = await createCertificateAuthority({
    name: `Strict ${name} Intermediate`,
    keyPair: deriveTestKeyPair('strict profile intermediate', 'p256'),
    issuer: root,
    ...window,
    ...variation.intermediate,
  })
  const leafKey = deriveTestKeyPair('strict profile leaf', 'p256')
  const leaf = await intermediate.issue({
    commonName: `Strict ${name} Leaf`,
    keyPair: variation.leafPointOffCurve ? withPointOffCurve(leafKey) : leafKey,
    sanUris: ['https://client.example.test/app'],
    ...window,
    ...variation.leaf,
  })
  const crlWindow = { thisUpdate: window.notBefore, nextUpdate: window.notAfter }
  return {
    name,
    tags: [name],
    chainDer: [leaf.certificateDer, intermediate.certificateDer],
    trustAnchorsDer: [root.certificateDer],
    crlsDer: [
      root.crl(crlWindow).crlDer,
      intermediate.crl({ ...crlWindow, ...variation.intermediateCrl }).crlDer,
    ],
  }
}

/**
 * The key pair with the last octet of its uncompressed P-256 point changed: `y` no longer
 * solves the curve equation (for all but a negligible share of keys, and not for this one).
 */
function withPointOffCurve(keyPair: TestKeyPair): TestKeyPair {
  const spki = Uint8Array.from(keyPair.spki)
  spki[spki.length - 1] = (spki[spki.length - 1] as number) ^ 0x01
  return { ...keyPair, spki }
}
