/**
 * Hostile input to the extension parsers of RFC 5280's path rules (DESIGN §11): keyUsage bit
 * strings, basicConstraints path lengths, subjectAltName and nameConstraints trees, CRL
 * distribution points, issuing distribution points and unknown critical extensions with hostile
 * lengths — as values a CA really signed (issued by the test PKI's issuer, so the policy gets
 * past the signatures and applies its rules), as random name-constraint trees against random
 * names, and as damaged DER of the path-rule fixtures. Through core's parsers and both backends'
 * `verifyCertificateChain`, every case ends in a verdict, a `CertificateChainError` or a
 * `CryptoError`, in time.
 */
import type { CryptoBackend } from '@fhir-auth/core'
import {
  concatBytes,
  encodeDer,
  encodeDerSequence,
  parseCertificate,
  parseCrl,
} from '@fhir-auth/core/internal'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { pathRuleLeaves, testPkiReferenceTime } from '@fhir-auth/test-pki'
import {
  type CertificateAuthority,
  createCertificateAuthority,
  deriveTestKeyPair,
  type RawExtension,
} from '@fhir-auth/test-pki/issuer'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  expectTypedOutcome,
  mutatedBytes,
  OutcomeTally,
  printCaseLedger,
  propertySettings,
} from '../src/index.js'

const marginMs = 5_000
const window = {
  notBefore: new Date('2025-01-01T00:00:00Z'),
  notAfter: new Date('2045-01-01T00:00:00Z'),
}
const backends: readonly CryptoBackend[] = [createNodeCryptoBackend(), createWebCryptoBackend()]
const leafKey = deriveTestKeyPair('hardening leaf', 'p256')
const intermediateKey = deriveTestKeyPair('hardening intermediate', 'p256')

let root: CertificateAuthority

beforeAll(async () => {
  root = await createCertificateAuthority({
    name: 'Hardening Path Rules Root',
    keyPair: deriveTestKeyPair('hardening root', 'p256'),
    ...window,
  })
})
afterAll(() => printCaseLedger('hostile-path-extensions'))

/** Lengths DER readers trip over, as the length octets of a nested element. */
const hostileLength = fc.constantFrom(
  Uint8Array.of(0x80),
  Uint8Array.of(0x84, 0xff, 0xff, 0xff, 0xff),
  Uint8Array.of(0x85, 0x01, 0x00, 0x00, 0x00, 0x00),
  Uint8Array.of(0x82, 0x00, 0x05),
  Uint8Array.of(0x81, 0x05),
  Uint8Array.of(0x7f),
)

/** A DER element with a hostile tag, length or content. */
const hostileElement: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 255 }), hostileLength, fc.uint8Array({ maxLength: 12 }))
    .map(([tag, length, content]) => concatBytes(Uint8Array.of(tag), length, content)),
  fc
    .tuple(fc.integer({ min: 0, max: 255 }), fc.uint8Array({ maxLength: 40 }))
    .map(([tag, content]) => encodeDer(tag, content)),
  fc.uint8Array({ maxLength: 24 }),
)

const text = fc.oneof(
  fc.constantFrom('example.test', '.example.test', 'ops@example.test', '@example.test', '', '.'),
  fc.constantFrom(
    'https://client.example.test/app',
    'https://127.0.0.1/',
    'urn:x',
    'https://[::1]/',
  ),
  fc.string({ maxLength: 24, unit: 'binary-ascii' }),
  fc.stringMatching(/^[a-z.@:/[\]]{0,30}$/),
)
const ascii = (value: string) => new TextEncoder().encode(value)

/** A GeneralName: every choice tag, mostly well-formed, sometimes insane content. */
const generalName: fc.Arbitrary<Uint8Array> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(
        fc.constantFrom(0x81, 0x82, 0x86),
        fc.constantFrom(
          'example.test',
          '.example.test',
          'client.example.test',
          'other.test',
          'ops@example.test',
          'ops@client.example.test',
          'https://client.example.test/app',
          'https://other.test/',
        ),
      )
      .map(([tag, value]) => encodeDer(tag, ascii(value))),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(0x81, 0x82, 0x86), text)
      .map(([tag, value]) => encodeDer(tag, ascii(value))),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(4, 8, 16, 32, 5)
      .chain((length) => fc.uint8Array({ minLength: length, maxLength: length }))
      .map((octets) => encodeDer(0x87, octets)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      encodeDer(0xa4, encodeDerSequence()),
      encodeDer(0xa4, encodeDerSequence(encodeDer(0x31, new Uint8Array()))),
      encodeDer(0xa0, new Uint8Array()),
      encodeDer(0xa3, new Uint8Array()),
      encodeDer(0x88, Uint8Array.of(0x2a)),
    ),
  },
  { weight: 1, arbitrary: hostileElement },
)

const distanceBound = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 5 }) },
)
const subtree = fc
  .tuple(generalName, distanceBound, distanceBound)
  .map(([base, minimum, maximum]) =>
    encodeDerSequence(
      base,
      ...(minimum === undefined ? [] : [encodeDer(0x80, minimum)]),
      ...(maximum === undefined ? [] : [encodeDer(0x81, maximum)]),
    ),
  )
const subtrees = fc.option(fc.array(subtree, { minLength: 1, maxLength: 4 }), { nil: undefined })

/** A nameConstraints value: permitted and excluded lists of random subtrees, or noise. */
const nameConstraintsValue: fc.Arbitrary<Uint8Array> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(subtrees, subtrees)
      .map(([permitted, excluded]) =>
        encodeDerSequence(
          ...(permitted === undefined ? [] : [encodeDer(0xa0, concatBytes(...permitted))]),
          ...(excluded === undefined ? [] : [encodeDer(0xa1, concatBytes(...excluded))]),
        ),
      ),
  },
  { weight: 1, arbitrary: hostileElement },
)

/** A value for one of the extensions the path policy reads (or an unknown one), hostile. */
const extensionUnderTest: fc.Arbitrary<RawExtension> = fc
  .tuple(
    fc.constantFrom(
      '2.5.29.15', // keyUsage
      '2.5.29.17', // subjectAltName
      '2.5.29.30', // nameConstraints
      '2.5.29.31', // cRLDistributionPoints
      '2.5.29.32', // certificatePolicies
      '2.25.77', // unknown
      '2.5.29.37', // extendedKeyUsage (not understood)
    ),
    fc.boolean(),
  )
  .chain(([oid, critical]) => {
    const value: fc.Arbitrary<Uint8Array> =
      oid === '2.5.29.15'
        ? fc.oneof(
            fc
              .tuple(fc.integer({ min: 0, max: 9 }), fc.uint8Array({ maxLength: 3 }))
              .map(([unused, bits]) => encodeDer(0x03, Uint8Array.of(unused, ...bits))),
            hostileElement,
          )
        : oid === '2.5.29.17'
          ? fc.oneof(
              fc.array(generalName, { maxLength: 4 }).map((names) => encodeDerSequence(...names)),
              hostileElement,
            )
          : oid === '2.5.29.30'
            ? nameConstraintsValue
            : oid === '2.5.29.31'
              ? fc.oneof(
                  fc
                    .array(
                      fc
                        .array(fc.oneof(generalName, hostileElement), { maxLength: 2 })
                        .map((names) =>
                          encodeDerSequence(
                            encodeDer(0xa0, encodeDer(0xa0, concatBytes(...names))),
                          ),
                        ),
                      { maxLength: 3 },
                    )
                    .map((points) => encodeDerSequence(...points)),
                  hostileElement,
                )
              : hostileElement
    return value.map((bytes) => ({ oid, critical, value: bytes }))
  })

/** Verdict of one backend for a chain, as a label: `ok`, the chain reason, or the error name. */
async function verdicts(
  tally: OutcomeTally,
  reasons: Map<string, number>,
  chain: readonly Uint8Array[],
  crls: readonly Uint8Array[],
): Promise<void> {
  for (const backend of backends) {
    const outcome = tally.record(
      await expectTypedOutcome(
        () =>
          backend.verifyCertificateChain({
            chain,
            trustAnchors: [root.certificateDer],
            crls,
            at: testPkiReferenceTime,
          }),
        { maxElapsedMs: marginMs },
      ),
    )
    const label =
      outcome.kind === 'success'
        ? 'ok'
        : outcome.error.name === 'CertificateChainError'
          ? String((outcome.error as { reason?: unknown }).reason)
          : outcome.error.name
    reasons.set(label, (reasons.get(label) ?? 0) + 1)
    if (outcome.kind === 'typed-error')
      expect(['CertificateChainError', 'CryptoError']).toContain(outcome.error.name)
  }
}

const rootCrl = () => root.crl({ thisUpdate: window.notBefore, nextUpdate: window.notAfter }).crlDer

describe('path-rule extensions a CA really signed', () => {
  it('hostile extension values in a leaf: a verdict, CertificateChainError or CryptoError', async () => {
    const tally = new OutcomeTally()
    const reasons = new Map<string, number>()
    const crl = rootCrl()
    await fc.assert(
      fc.asyncProperty(extensionUnderTest, async (extension) => {
        const leaf = await root.issue({
          commonName: 'Hostile extension leaf',
          keyPair: leafKey,
          ...window,
          ...(extension.oid === '2.5.29.15' ? { keyUsage: null } : {}),
          extraExtensions: [extension],
        })
        await verdicts(tally, reasons, [leaf.certificateDer], [crl])
      }),
      propertySettings('hostile path-rule extension values in a signed leaf', 250),
    )
    const seen = [...reasons.keys()]
    expect(seen, tally.summary()).toContain('ok')
    expect(seen, tally.summary()).toContain('CryptoError')
    console.info(
      `[hardening] extension verdicts: ${[...reasons].map(([label, count]) => `${label} ${count}`).join(', ')}`,
    )
    expect(seen, tally.summary()).toContain('unknown-critical-extension')
  })

  it('random name-constraint trees against random names: a verdict or a typed error', async () => {
    const tally = new OutcomeTally()
    const reasons = new Map<string, number>()
    await fc.assert(
      fc.asyncProperty(
        nameConstraintsValue,
        fc.array(generalName, { minLength: 1, maxLength: 3 }),
        async (constraints, names) => {
          const intermediate = await createCertificateAuthority({
            name: 'Hostile constraints',
            issuer: root,
            keyPair: intermediateKey,
            ...window,
            extraExtensions: [{ oid: '2.5.29.30', critical: true, value: constraints }],
          })
          const leaf = await intermediate.issue({
            commonName: 'Constrained leaf',
            keyPair: leafKey,
            ...window,
            extraExtensions: [
              { oid: '2.5.29.17', critical: false, value: encodeDerSequence(...names) },
            ],
          })
          const crls = [
            rootCrl(),
            intermediate.crl({ thisUpdate: window.notBefore, nextUpdate: window.notAfter }).crlDer,
          ]
          await verdicts(tally, reasons, leaf.chainDer, crls)
        },
      ),
      propertySettings('random name-constraint trees against random names', 250),
    )
    const seen = [...reasons.keys()]
    expect(seen, tally.summary()).toContain('ok')
    console.info(
      `[hardening] name-constraint verdicts: ${[...reasons].map(([label, count]) => `${label} ${count}`).join(', ')}`,
    )
    expect(seen, tally.summary()).toContain('name-constraints')
  })
})

describe('damaged DER of the path-rule fixtures', () => {
  const certificates = pathRuleLeaves.flatMap((entry) => [
    ...entry.chainDer,
    ...entry.trustAnchorsDer,
  ])
  const crls = pathRuleLeaves.flatMap((entry) => entry.crlsDer)

  it('parseCertificate: a certificate or CryptoError', async () => {
    const tally = new OutcomeTally()
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...certificates).chain(mutatedBytes), async (der) => {
        const outcome = tally.record(
          await expectTypedOutcome(() => parseCertificate(der), { maxElapsedMs: marginMs }),
        )
        if (outcome.kind === 'typed-error') expect(outcome.error.name).toBe('CryptoError')
      }),
      propertySettings('parseCertificate damaged path-rule fixtures', 400),
    )
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
  })

  it('parseCrl: a CRL (with its scope and critical extensions) or CryptoError', async () => {
    const tally = new OutcomeTally()
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...crls).chain(mutatedBytes), async (der) => {
        const outcome = tally.record(
          await expectTypedOutcome(() => parseCrl(der), { maxElapsedMs: marginMs }),
        )
        if (outcome.kind === 'typed-error') expect(outcome.error.name).toBe('CryptoError')
      }),
      propertySettings('parseCrl damaged path-rule fixtures', 300),
    )
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
  })
})
