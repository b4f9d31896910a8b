/**
 * `readPublicKeyType` reads only the key type and curve of an SPKI, without the X.509 readers,
 * and must refuse exactly what `describeSubjectPublicKeyInfo` refuses, with the same reasons: a
 * verifier that uses it (crypto-webcrypto's `verifySignature`) keeps the typed errors it gave
 * when it read the whole SPKI. Compared on real keys and on every damaged variant below.
 */
import { describe, expect, it } from 'vitest'
import { CryptoError } from '../../src/errors/crypto-error.js'
import {
  type DerElement,
  encodeDer,
  encodeDerSequence,
  readDerChildren,
  readDerDocument,
} from '../../src/x509/der.js'
import { encodeDerOid } from '../../src/x509/object-identifier.js'
import { describeSubjectPublicKeyInfo } from '../../src/x509/spki.js'
import { readPublicKeyType } from '../../src/x509/spki-key-type.js'
import { generateTestKeyPair } from './fixtures/webcrypto-keys.js'

/** What a reader answers: the key type and curve, or the CryptoError reason. */
function outcome(read: () => { type: string; namedCurve?: string | undefined }): string {
  try {
    const { type, namedCurve } = read()
    return `${type} ${namedCurve ?? ''}`.trim()
  } catch (error) {
    expect(error).toBeInstanceOf(CryptoError)
    return (error as CryptoError).reason
  }
}

function expectSameOutcome(spki: Uint8Array): string {
  const described = outcome(() => describeSubjectPublicKeyInfo(spki))
  expect(
    outcome(() => readPublicKeyType(spki)),
    `SPKI ${Array.from(spki, (octet) => octet.toString(16).padStart(2, '0')).join('')}`,
  ).toBe(described)
  return described
}

function spkiOf(algorithm: Uint8Array, key: Uint8Array): Uint8Array {
  return encodeDerSequence(algorithm, encodeDer(0x03, Uint8Array.of(0, ...key)))
}

const ecAlgorithm = (curveOid: string) =>
  encodeDerSequence(encodeDerOid('1.2.840.10045.2.1'), encodeDerOid(curveOid))
const rsaAlgorithm = encodeDerSequence(
  encodeDerOid('1.2.840.113549.1.1.1'),
  encodeDer(0x05, new Uint8Array()),
)

async function realKeys(): Promise<Uint8Array[]> {
  const rsa = await generateTestKeyPair('RS256')
  const ec = await Promise.all(
    (['P-256', 'P-384', 'P-521'] as const).map((curve) => generateTestKeyPair('ES256', curve)),
  )
  return [rsa.spki, ...ec.map((pair) => pair.spki)]
}

describe('readPublicKeyType', () => {
  it('reads the type and curve of RSA and EC keys as describeSubjectPublicKeyInfo does', async () => {
    const outcomes = (await realKeys()).map(expectSameOutcome)
    expect(outcomes).toEqual(['RSA', 'EC P-256', 'EC P-384', 'EC P-521'])
  })

  it('gives the same reasons for foreign, compressed and malformed keys', async () => {
    const [rsa, p256] = (await realKeys()) as [Uint8Array, Uint8Array]
    const point = p256.subarray(p256.length - 65)
    const cases: [Uint8Array, string][] = [
      // Ed25519 (RFC 8410) and secp256k1: other key types and curves.
      [
        spkiOf(encodeDerSequence(encodeDerOid('1.3.101.112')), new Uint8Array(32)),
        'unsupported-key',
      ],
      [
        spkiOf(ecAlgorithm('1.3.132.0.10'), Uint8Array.of(4, ...new Uint8Array(64))),
        'unsupported-key',
      ],
      [
        spkiOf(ecAlgorithm('1.2.840.10045.3.1.7'), Uint8Array.of(2, ...point.subarray(1, 33))),
        'unsupported-key',
      ],
      [spkiOf(ecAlgorithm('1.2.840.10045.3.1.7'), point.subarray(0, 64)), 'invalid-key'],
      [
        spkiOf(ecAlgorithm('1.2.840.10045.3.1.7'), Uint8Array.of(5, ...point.subarray(1))),
        'invalid-key',
      ],
      // An EC key without its curve, or with a malformed curve OID (a redundant 0x80 octet).
      [spkiOf(encodeDerSequence(encodeDerOid('1.2.840.10045.2.1')), point), 'invalid-key'],
      [
        spkiOf(
          encodeDerSequence(
            encodeDerOid('1.2.840.10045.2.1'),
            encodeDer(0x06, Uint8Array.of(0x2b, 0x80, 0x04)),
          ),
          point,
        ),
        'invalid-key',
      ],
      // A malformed algorithm OID (truncated last sub-identifier) is malformed, not unknown.
      [spkiOf(encodeDerSequence(encodeDer(0x06, Uint8Array.of(0x2a, 0x86))), point), 'invalid-key'],
      [
        spkiOf(
          encodeDerSequence(encodeDer(0x06, new Uint8Array()), encodeDer(0x05, new Uint8Array())),
          point,
        ),
        'invalid-key',
      ],
      // RSAPublicKey members: negative, non-minimal, empty, missing, one too many.
      ...[
        [Uint8Array.of(0x80, 1), Uint8Array.of(1, 0, 1)],
        [Uint8Array.of(0, 1), Uint8Array.of(1, 0, 1)],
        [Uint8Array.of(0, 0x80), new Uint8Array()],
        [Uint8Array.of(0, 0x80)],
        [Uint8Array.of(0, 0x80), Uint8Array.of(3), Uint8Array.of(3)],
      ].map((members): [Uint8Array, string] => [
        spkiOf(
          rsaAlgorithm,
          encodeDerSequence(...members.map((member) => encodeDer(0x02, member))),
        ),
        'invalid-key',
      ]),
      // Unused bits in the key, no key, three fields, trailing bytes, an empty SEQUENCE.
      [
        encodeDerSequence(rsaAlgorithm, encodeDer(0x03, Uint8Array.of(1, ...rsa.subarray(24)))),
        'invalid-key',
      ],
      [encodeDerSequence(rsaAlgorithm), 'invalid-key'],
      [
        encodeDerSequence(
          rsaAlgorithm,
          encodeDer(0x03, Uint8Array.of(0)),
          encodeDer(0x05, new Uint8Array()),
        ),
        'invalid-key',
      ],
      [Uint8Array.of(...rsa, 0), 'invalid-key'],
      [Uint8Array.of(0x30, 0), 'invalid-key'],
      [new Uint8Array(), 'invalid-key'],
    ]
    for (const [spki, reason] of cases) expect(expectSameOutcome(spki)).toBe(reason)
  })

  it('refuses RSA key parameters other than NULL, as OpenSSL does (RFC 3279 §2.3.1)', async () => {
    const [rsa] = (await realKeys()) as [Uint8Array]
    const [, bits] = readDerChildren(readDerDocument(rsa))
    const key = (bits as DerElement).content.subarray(1)
    const rsaWith = (...parameters: Uint8Array[]) =>
      spkiOf(encodeDerSequence(encodeDerOid('1.2.840.113549.1.1.1'), ...parameters), key)
    expect(expectSameOutcome(rsa)).toBe('RSA')
    expect(expectSameOutcome(rsaWith())).toBe('RSA')
    for (const parameters of [
      encodeDer(0x06, new Uint8Array()),
      encodeDer(0x01, new Uint8Array()),
      encodeDer(0x05, Uint8Array.of(0)),
      encodeDerSequence(),
    ]) {
      expect(expectSameOutcome(rsaWith(parameters))).toBe('invalid-key')
    }
    const withOid = rsaWith(encodeDer(0x06, Uint8Array.of(0x2a)))
    expect(() => describeSubjectPublicKeyInfo(withOid)).toThrow(
      'the RSA key algorithm parameters are not NULL',
    )
    expect(() => readPublicKeyType(withOid)).toThrow(
      'the SubjectPublicKeyInfo has RSA key algorithm parameters that are not NULL',
    )
  })

  it('gives the same answer on every truncation and on damaged header bytes of real keys', async () => {
    const answers = new Set<string>()
    for (const spki of await realKeys()) {
      for (let length = 0; length < spki.length; length++) {
        answers.add(expectSameOutcome(spki.subarray(0, length)))
      }
      // The headers and OIDs sit in the first 30 bytes (and the RSAPublicKey's just after).
      for (let index = 0; index < 40; index++) {
        for (const mask of [0x01, 0x02, 0x20, 0x80, 0xff]) {
          const damaged = spki.slice()
          damaged[index] = (damaged[index] as number) ^ mask
          answers.add(expectSameOutcome(damaged))
        }
        answers.add(
          expectSameOutcome(Uint8Array.of(...spki.subarray(0, index), 0, ...spki.subarray(index))),
        )
      }
    }
    // The damage reached every kind of answer, so the comparison covered each path.
    expect([...answers].sort()).toEqual(
      expect.arrayContaining(['EC P-256', 'RSA', 'invalid-key', 'unsupported-key']),
    )
  })
})
