/**
 * Hostile bytes where the library reads X.509 and keys: DER certificates, CRLs, SPKIs and
 * private keys damaged at random (bit flips, tag and length bytes, hostile long-form lengths,
 * truncation, extension, insertion, deletion, random bytes), damaged PEM text, values of the
 * wrong type, and compact JWS text — through core's parsers (`parseCertificate`, `parseCrl`,
 * `describePrivateKeyPem`, `describeSubjectPublicKeyInfo`, `decodePemBlocks`,
 * `certificateDer`, `crlDer`, `decodeCompactJws`) and both backends' `parseCertificate` and
 * `verifyCertificateChain`. Every case ends in success or a `FhirAuthError`, and no private
 * key material reaches an error.
 */
import { base64UrlEncodeText, type CryptoBackend } from '@fhir-auth/core'
import {
  certificateDer,
  crlDer,
  decodePemBlocks,
  describePrivateKeyPem,
  describeSubjectPublicKeyInfo,
  encodePem,
  parseCertificate,
  parseCrl,
} from '@fhir-auth/core/backend'
import { decodeCompactJws } from '@fhir-auth/core/jws'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { testPki, testPkiReferenceTime } from '@fhir-auth/test-pki'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import {
  damagedText,
  expectTypedOutcome,
  hostileValue,
  mutatedBytes,
  named,
  OutcomeTally,
  printCaseLedger,
  propertySettings,
  renderJson,
  wrongTypeInputs,
} from '../src/index.js'

const marginMs = 5_000
const leaves = testPki.leaves
const certificates = [
  leaves['rsa-client'].certificateDer,
  leaves['rsa-client-two-sans'].certificateDer,
  leaves['ec-p256-client'].certificateDer,
  leaves['ec-p384-client'].certificateDer,
  leaves['not-yet-valid'].certificateDer,
  testPki.authorities['rsa-root'].der,
  testPki.authorities['ec-intermediate'].der,
]
const crls = Object.values(testPki.crls).map((crl) => crl.der)
const privateKeys = [
  leaves['rsa-client'].privateKeyPkcs8Pem,
  leaves['rsa-client'].privateKeyTraditionalPem,
  leaves['ec-p256-client'].privateKeyPkcs8Pem,
  leaves['ec-p256-client'].privateKeyTraditionalPem,
  leaves['ec-p384-client'].privateKeyTraditionalPem,
]
const backends = [
  named('node', { name: 'node', crypto: createNodeCryptoBackend() as CryptoBackend }),
  named('webcrypto', { name: 'webcrypto', crypto: createWebCryptoBackend() }),
]

afterAll(() => printCaseLedger('hostile-certificates-and-keys'))

/** A certificate or CRL from the list, damaged. */
function damaged(list: readonly Uint8Array[]): fc.Arbitrary<Uint8Array> {
  return fc.constantFrom(...list).chain(mutatedBytes)
}

/** The label and body of a PEM block, re-encoded after the DER inside was damaged. */
function damagedPem(pem: string): fc.Arbitrary<string> {
  const label = /-----BEGIN ([A-Z0-9 ]+)-----/.exec(pem)?.[1] ?? 'PRIVATE KEY'
  const [der] = decodePemBlocks(pem, label)
  return fc.oneof(
    mutatedBytes(der ?? new Uint8Array()).map((bytes) => encodePem(bytes, label)),
    damagedText(pem),
    fc.constantFrom(
      pem.replace('-----END', '-----BEGIN'),
      pem.replace(/\n/g, '\r\n'),
      pem.replace(/-----END [A-Z ]+-----/, ''),
      `Proc-Type: 4,ENCRYPTED\n${pem}`,
      pem.replace(label, 'ENCRYPTED PRIVATE KEY'),
      pem.replace(label, 'PUBLIC KEY'),
      pem.replace(/[A-Za-z0-9+/]{8}\n/, '!!!!!!!!\n'),
      `${pem}${pem}`,
    ),
  )
}

/** Runs one core parser over damaged input; it must end in its value or a `CryptoError`. */
async function expectParserOutcome(
  tally: OutcomeTally,
  parse: () => unknown,
  privateKeyPems: readonly string[] = [],
): Promise<void> {
  const outcome = tally.record(
    await expectTypedOutcome(parse, { maxElapsedMs: marginMs, privateKeyPems }),
  )
  if (outcome.kind === 'typed-error') expect(outcome.error.name).toBe('CryptoError')
}

describe("core's X.509 and key parsers over damaged bytes", () => {
  it('parseCertificate: a parsed certificate with valid dates, or CryptoError', async () => {
    const tally = new OutcomeTally()
    await fc.assert(
      fc.asyncProperty(damaged(certificates), async (der) => {
        await expectParserOutcome(tally, () => {
          const parsed = parseCertificate(der)
          if (Number.isNaN(parsed.notBefore.getTime()) || Number.isNaN(parsed.notAfter.getTime()))
            throw new Error('parseCertificate returned an invalid date')
          return parsed
        })
      }),
      propertySettings('parseCertificate damaged DER', 600),
    )
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
  })

  it('parseCrl: a parsed CRL or CryptoError', async () => {
    const tally = new OutcomeTally()
    await fc.assert(
      fc.asyncProperty(damaged(crls), async (der) => {
        await expectParserOutcome(tally, () => parseCrl(der))
      }),
      propertySettings('parseCrl damaged DER', 400),
    )
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
  })

  it('describeSubjectPublicKeyInfo: a key description or CryptoError', async () => {
    const tally = new OutcomeTally()
    const spkis = certificates.map((der) => parseCertificate(der).publicKeySpki)
    await fc.assert(
      fc.asyncProperty(damaged(spkis), async (spki) => {
        await expectParserOutcome(tally, () => describeSubjectPublicKeyInfo(spki))
      }),
      propertySettings('describeSubjectPublicKeyInfo damaged DER', 400),
    )
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
  })

  it('describePrivateKeyPem: a description or CryptoError that quotes no key material', async () => {
    const tally = new OutcomeTally()
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...privateKeys)
          .chain((pem) => damagedPem(pem).map((damagedKey) => ({ pem, damagedKey }))),
        async ({ pem, damagedKey }) => {
          await expectParserOutcome(tally, () => describePrivateKeyPem(damagedKey), [pem])
        },
      ),
      propertySettings('describePrivateKeyPem damaged PEM', 400),
    )
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
  })

  it('decodePemBlocks, certificateDer and crlDer: DER or CryptoError for damaged PEM and wrong types', async () => {
    const tally = new OutcomeTally()
    const pemInput = fc.oneof(
      fc.constantFrom(...certificates).chain((der) => damagedPem(encodePem(der, 'CERTIFICATE'))),
      fc.constantFrom(...crls).chain((der) => damagedPem(encodePem(der, 'X509 CRL'))),
      fc.constantFrom(...wrongTypeInputs),
      fc.uint8Array({ maxLength: 64 }).map((bytes) => Uint8Array.of(0x2d, 0x2d, ...bytes)),
    )
    await fc.assert(
      fc.asyncProperty(
        pemInput,
        fc.constantFrom('pem', 'certificate', 'crl'),
        async (input, reader) => {
          await expectParserOutcome(tally, () => {
            if (reader === 'pem') return decodePemBlocks(input as string, 'CERTIFICATE')
            if (reader === 'certificate') return certificateDer(input as string)
            return crlDer(input as string)
          })
        },
      ),
      propertySettings('PEM decoding damaged text', 400),
    )
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
  })
})

describe('decodeCompactJws over hostile text', () => {
  const validJws = `${base64UrlEncodeText('{"alg":"RS256","typ":"JWT"}')}.${base64UrlEncodeText('{"iss":"https://a.example","exp":1}')}.c2lnbmF0dXJl`

  it('a decoded JWS with object header and payload, or CryptoError', async () => {
    const tally = new OutcomeTally()
    const hostileJws = fc.oneof(
      damagedText(validJws),
      fc
        .tuple(hostileValue, hostileValue)
        .map(
          ([header, payload]) =>
            `${base64UrlEncodeText(renderJson(header))}.${base64UrlEncodeText(renderJson(payload))}.c2ln`,
        ),
      fc.constantFrom<unknown>(
        ...wrongTypeInputs,
        '..',
        'a.b',
        'a.b.c.d',
        '.'.repeat(100_000),
        `${'a'.repeat(300_000)}.b.c`,
      ),
    )
    await fc.assert(
      fc.asyncProperty(hostileJws, async (jws) => {
        const outcome = tally.record(
          await expectTypedOutcome(() => decodeCompactJws(jws), { maxElapsedMs: marginMs }),
        )
        if (outcome.kind === 'typed-error') expect(outcome.error.name).toBe('CryptoError')
        else {
          const decoded = outcome.value as ReturnType<typeof decodeCompactJws>
          expect(typeof decoded.header === 'object' && !Array.isArray(decoded.header)).toBe(true)
          expect(typeof decoded.payload === 'object' && !Array.isArray(decoded.payload)).toBe(true)
        }
      }),
      propertySettings('decodeCompactJws hostile text', 400),
    )
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
  })
})

describe.each(backends)('the $name backend over damaged certificates', (backend) => {
  it('parseCertificate: CertificateInfo or a typed error, for damaged DER, damaged PEM and wrong types', async () => {
    const tally = new OutcomeTally()
    const input = fc.oneof(
      { weight: 4, arbitrary: damaged(certificates) },
      {
        weight: 2,
        arbitrary: fc
          .constantFrom(...certificates)
          .chain((der) => damagedPem(encodePem(der, 'CERTIFICATE'))),
      },
      { weight: 1, arbitrary: fc.constantFrom(...wrongTypeInputs) },
    )
    await fc.assert(
      fc.asyncProperty(input, async (certificate) => {
        const outcome = tally.record(
          await expectTypedOutcome(
            () => backend.crypto.parseCertificate(certificate as Uint8Array),
            {
              maxElapsedMs: marginMs,
            },
          ),
        )
        if (outcome.kind === 'typed-error')
          expect(['CryptoError', 'ConfigurationError']).toContain(outcome.error.name)
      }),
      propertySettings(`${backend.name} parseCertificate damaged`, 300),
    )
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
  })

  it('verifyCertificateChain: a verified chain or a typed error when a chain member, anchor or CRL is damaged', async () => {
    const tally = new OutcomeTally()
    const cases = [leaves['rsa-client'], leaves['ec-p256-client'], leaves['ec-p384-client']]
    const damagedChain = fc
      .record({
        leaf: fc.constantFrom(...cases),
        target: fc.constantFrom('chain', 'anchor', 'crl', 'list'),
        position: fc.nat(),
      })
      .chain(({ leaf, target, position }) => {
        const list =
          target === 'chain'
            ? leaf.chainDer
            : target === 'anchor'
              ? leaf.trustAnchorsDer
              : leaf.crlsDer
        const index = position % Math.max(1, list.length)
        const replacement: fc.Arbitrary<unknown> =
          target === 'list'
            ? fc.constantFrom(...wrongTypeInputs)
            : mutatedBytes(list[index] ?? new Uint8Array())
        return replacement.map((value) => {
          const replace = (items: readonly Uint8Array[], which: string) =>
            which === target ? items.map((item, at) => (at === index ? value : item)) : items
          return named(`${leaf.name} ${target}[${index}] damaged`, {
            chain:
              target === 'list' && position % 3 === 0 ? value : replace(leaf.chainDer, 'chain'),
            trustAnchors:
              target === 'list' && position % 3 === 1
                ? value
                : replace(leaf.trustAnchorsDer, 'anchor'),
            crls: target === 'list' && position % 3 === 2 ? value : replace(leaf.crlsDer, 'crl'),
          })
        })
      })
    await fc.assert(
      fc.asyncProperty(damagedChain, async (params) => {
        const outcome = tally.record(
          await expectTypedOutcome(
            () =>
              backend.crypto.verifyCertificateChain({
                ...(params as unknown as Parameters<CryptoBackend['verifyCertificateChain']>[0]),
                at: testPkiReferenceTime,
              }),
            { maxElapsedMs: marginMs },
          ),
        )
        if (outcome.kind === 'typed-error') {
          expect(['CertificateChainError', 'CryptoError', 'ConfigurationError']).toContain(
            outcome.error.name,
          )
        }
      }),
      propertySettings(`${backend.name} verifyCertificateChain damaged`, 250),
    )
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    console.info(`[hardening] ${backend.name} verifyCertificateChain damaged: ${tally.summary()}`)
  })
})
