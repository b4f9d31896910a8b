/**
 * What OpenSSL refuses, both backends refuse (issue 31 items 3 and 4), through
 * `verifyCertificateChain` and `parseCertificate` with certificates a CA really signed: one
 * chain per `openssl verify -x509_strict` profile rule (the chains of the OpenSSL differential
 * test, `generateStrictProfileCases`) ends in the `CertificateChainError` reason that corresponds
 * to OpenSSL's error, and its conforming twin verifies; unique identifiers out of place, name
 * values that are no strings and SAN names that do not parse are a `CryptoError`
 * (`invalid-certificate`) when read.
 */
import {
  CertificateChainError,
  type CryptoBackend,
  CryptoError,
  type VerifiedCertificateChain,
} from '@fhir-auth/core'
import {
  encodeDer,
  encodeDerOid,
  encodeDerSequence,
  readDerChildren,
  readDerDocument,
} from '@fhir-auth/core/backend'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import {
  createCertificateAuthority,
  deriveTestKeyPair,
  generateStrictProfileCases,
  strictProfileReferenceTime,
} from '@fhir-auth/test-pki/issuer'
import { describe, expect, it } from 'vitest'

const backends: readonly (readonly [string, CryptoBackend])[] = [
  ['crypto-node', createNodeCryptoBackend()],
  ['crypto-webcrypto', createWebCryptoBackend()],
]

/** The outcome each strict-profile case must have; `-ok` cases verify. */
const expectedOutcome: Readonly<Record<string, string>> = {
  'intermediate:authority-key-identifier-absent': 'malformed',
  'leaf:authority-key-identifier-absent': 'malformed',
  'leaf:authority-key-identifier-other-key': 'no-path',
  'intermediate:authority-key-identifier-other-key': 'no-path',
  'leaf:authority-key-identifier-critical': 'unknown-critical-extension',
  'root:subject-key-identifier-absent': 'malformed',
  'intermediate:subject-key-identifier-absent': 'malformed',
  'intermediate:subject-key-identifier-critical': 'unknown-critical-extension',
  'root:basic-constraints-not-critical': 'not-a-ca',
  'intermediate:basic-constraints-not-critical': 'not-a-ca',
  'leaf:path-length-without-ca': 'path-length',
  'leaf:key-cert-sign-without-ca': 'key-usage',
  'leaf:empty-subject-san-not-critical': 'malformed',
  'intermediate-crl:authority-key-identifier-other-key': 'crl-missing',
  'intermediate-crl:crl-number-critical': 'unknown-critical-extension',
  'leaf:ec-point-off-curve': 'invalid-certificate',
}

async function outcomeOf(promise: Promise<VerifiedCertificateChain | unknown>): Promise<string> {
  try {
    await promise
    return 'ok'
  } catch (error) {
    if (error instanceof CertificateChainError || error instanceof CryptoError) return error.reason
    throw error
  }
}

const window = {
  notBefore: new Date('2025-01-01T00:00:00Z'),
  notAfter: new Date('2045-01-01T00:00:00Z'),
}

/** A leaf a CA really signed, with its TBS edited afterwards (the signature no longer matches). */
async function editedLeaf(edit: (fields: Uint8Array[]) => Uint8Array[]): Promise<Uint8Array> {
  const root = await createCertificateAuthority({
    name: 'Loader Refusals Root',
    keyPair: deriveTestKeyPair('loader refusals root', 'p256'),
    ...window,
  })
  const leaf = await root.issue({
    commonName: 'Loader Refusals Leaf',
    keyPair: deriveTestKeyPair('loader refusals leaf', 'p256'),
    ...window,
  })
  const [tbs, ...outer] = readDerChildren(readDerDocument(leaf.certificateDer))
  const fields = readDerChildren(tbs as ReturnType<typeof readDerDocument>).map((f) => f.bytes)
  return encodeDerSequence(encodeDerSequence(...edit(fields)), ...outer.map((f) => f.bytes))
}

describe.each(backends)('%s', (_name, backend) => {
  it('refuses one chain per -x509_strict profile rule and accepts its conforming twin', async () => {
    const cases = await generateStrictProfileCases()
    const outcomes: Record<string, string> = {}
    for (const entry of cases) {
      outcomes[entry.name] = await outcomeOf(
        backend.verifyCertificateChain({
          chain: entry.chainDer,
          trustAnchors: entry.trustAnchorsDer,
          crls: entry.crlsDer,
          at: strictProfileReferenceTime,
        }),
      )
    }
    expect(outcomes).toEqual(
      Object.fromEntries(cases.map((entry) => [entry.name, expectedOutcome[entry.name] ?? 'ok'])),
    )
    expect(Object.values(outcomes).filter((outcome) => outcome === 'ok')).toHaveLength(
      cases.length - Object.keys(expectedOutcome).length,
    )
  })

  it('refuses unique identifiers out of place, name values that are no strings and SAN names that do not parse', async () => {
    const otherNameWithoutValue = encodeDerSequence(
      encodeDerOid('2.5.29.17'),
      encodeDer(0x04, encodeDerSequence(encodeDer(0xa0, encodeDerOid('1.2.3')))),
    )
    const broken = [
      // [1] issuerUniqueID after [3] extensions.
      await editedLeaf((fields) => [...fields, encodeDer(0x81, Uint8Array.of(0, 1))]),
      // An INTEGER as the value of the subject's CN.
      await editedLeaf((fields) =>
        fields.map((field, index) =>
          index === 5
            ? encodeDerSequence(
                encodeDer(
                  0x31,
                  encodeDerSequence(encodeDerOid('2.5.4.3'), encodeDer(0x02, Uint8Array.of(1))),
                ),
              )
            : field,
        ),
      ),
      // A subjectAltName otherName without its [0] value.
      await editedLeaf((fields) => {
        const [list] = readDerChildren(readDerDocument(fields[7] as Uint8Array))
        const extensions = readDerChildren(list as ReturnType<typeof readDerDocument>)
        return [
          ...fields.slice(0, 7),
          encodeDer(
            0xa3,
            encodeDerSequence(...extensions.map((e) => e.bytes), otherNameWithoutValue),
          ),
        ]
      }),
    ]
    for (const der of broken) {
      expect(await outcomeOf(backend.parseCertificate(der))).toBe('invalid-certificate')
      expect(
        await outcomeOf(
          backend.verifyCertificateChain({
            chain: [der],
            trustAnchors: [der],
            crls: [],
            at: strictProfileReferenceTime,
          }),
        ),
      ).toBe('invalid-certificate')
    }
  })
})
