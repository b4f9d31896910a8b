import { describe, expect, it } from 'vitest'
import { CryptoError } from '../../src/errors/crypto-error.js'
import { parseCertificate } from '../../src/x509/certificate.js'
import { understoodExtensions } from '../../src/x509/certificate-extensions.js'
import { crlCovers } from '../../src/x509/crl-scope.js'
import { concatBytes, encodeDer, encodeDerSequence } from '../../src/x509/der.js'
import { describeKeyUsage } from '../../src/x509/key-usage.js'
import { encodeDerOid } from '../../src/x509/object-identifier.js'
import { withExtensions } from './fixtures/certificate-surgery.js'
import { openTestPkiFiles } from './fixtures/test-pki-files.js'

const leafDer = () => openTestPkiFiles().bytes('leaves/ec-p256-client/certificate.der')
const extension = (oid: string, critical: boolean, value: Uint8Array) =>
  encodeDerSequence(
    encodeDerOid(oid),
    ...(critical ? [encodeDer(0x01, Uint8Array.of(0xff))] : []),
    encodeDer(0x04, value),
  )
const ascii = (text: string) => new TextEncoder().encode(text)
const uri = (value: string) => encodeDer(0x86, ascii(value))
const basicConstraints = (...fields: Uint8Array[]) =>
  extension('2.5.29.19', true, encodeDerSequence(...fields))
const cA = encodeDer(0x01, Uint8Array.of(0xff))

/** The fixture leaf (basicConstraints, keyUsage, SKI, AKI, SAN) with extensions replaced. */
function withReplaced(index: number, replacement: Uint8Array | undefined, ...added: Uint8Array[]) {
  return parseCertificate(
    withExtensions(leafDer(), (extensions) => [
      ...extensions.flatMap((entry, position) =>
        position !== index ? [entry] : replacement === undefined ? [] : [replacement],
      ),
      ...added,
    ]),
  )
}

function refusal(build: () => unknown): string {
  try {
    build()
    return 'parsed'
  } catch (error) {
    expect(error).toBeInstanceOf(CryptoError)
    return (error as CryptoError).message
  }
}

describe('certificate extensions', () => {
  it('reads keyUsage, SANs of every form and no path length for a test PKI leaf', () => {
    const leaf = parseCertificate(leafDer())
    expect(describeKeyUsage(leaf.keyUsage ?? { bits: [] })).toBe('digitalSignature')
    expect(leaf.subjectAltNames).toEqual([
      { form: 'uri', value: 'https://client.example.test/app' },
    ])
    expect(leaf.pathLengthConstraint).toBeUndefined()
    expect(leaf.nameConstraints).toBeUndefined()
    expect(leaf.crlDistributionPointNames).toEqual([])
    expect(leaf.unrecognizedCriticalExtensions).toEqual([])
  })

  it('reads basicConstraints cA and pathLenConstraint', () => {
    const ca = withReplaced(0, basicConstraints(cA, encodeDer(0x02, Uint8Array.of(2))))
    expect(ca.isCertificateAuthority).toBe(true)
    expect(ca.pathLengthConstraint).toBe(2)
    const lengthOnly = withReplaced(0, basicConstraints(encodeDer(0x02, Uint8Array.of(0))))
    expect(lengthOnly.isCertificateAuthority).toBe(false)
    expect(lengthOnly.pathLengthConstraint).toBe(0)
    expect(withReplaced(0, undefined).isCertificateAuthority).toBe(false)
  })

  it('has no keyUsage when the extension is absent', () => {
    expect(withReplaced(1, undefined).keyUsage).toBeUndefined()
  })

  it('lists critical extensions it does not understand, in order, and no others', () => {
    const parsed = withReplaced(
      -1,
      undefined,
      extension('2.5.29.37', true, encodeDerSequence(encodeDerOid('1.3.6.1.5.5.7.3.2'))),
      extension('1.2.3.4', false, new Uint8Array()),
      extension('2.25.1', true, encodeDer(0x05, new Uint8Array())),
      extension('2.5.29.32', true, encodeDerSequence()),
    )
    expect(parsed.unrecognizedCriticalExtensions).toEqual(['2.5.29.37', '2.25.1'])
    expect(parsed.criticalExtensions).toEqual([
      '2.5.29.19',
      '2.5.29.15',
      '2.5.29.37',
      '2.25.1',
      '2.5.29.32',
    ])
  })

  it('lists critical key identifiers as not understood (RFC 5280 §4.2.1.1, §4.2.1.2)', () => {
    // The fixture leaf lists basicConstraints, keyUsage, SKI (index 2) and AKI (index 3).
    const leaf = parseCertificate(leafDer())
    const ski = extension('2.5.29.14', true, encodeDer(0x04, Uint8Array.of(1)))
    const aki = extension('2.5.29.35', true, encodeDerSequence(encodeDer(0x80, Uint8Array.of(2))))
    const criticalSki = withReplaced(2, ski)
    expect(criticalSki.subjectKeyIdentifier).toEqual(Uint8Array.of(1))
    expect(criticalSki.unrecognizedCriticalExtensions).toEqual(['2.5.29.14'])
    const criticalAki = withReplaced(3, aki)
    expect(criticalAki.authorityKeyIdentifier).toEqual(Uint8Array.of(2))
    expect(criticalAki.unrecognizedCriticalExtensions).toEqual(['2.5.29.35'])
    expect(leaf.unrecognizedCriticalExtensions).toEqual([])
  })

  it('understands exactly the extensions it acts on; key identifiers only when not critical', () => {
    expect([...understoodExtensions].sort()).toEqual(
      ['2.5.29.15', '2.5.29.17', '2.5.29.19', '2.5.29.30', '2.5.29.31', '2.5.29.32'].sort(),
    )
  })

  it('reads nameConstraints', () => {
    const parsed = withReplaced(
      -1,
      undefined,
      extension(
        '2.5.29.30',
        true,
        encodeDerSequence(encodeDer(0xa1, encodeDerSequence(encodeDer(0x82, ascii('bad.test'))))),
      ),
    )
    expect(parsed.nameConstraints?.excluded).toEqual([
      { base: { form: 'dns', value: 'bad.test' }, hasDistanceBounds: false },
    ])
  })

  it('reads the names of complete CRL distribution points only', () => {
    const point = (...fields: Uint8Array[]) => encodeDerSequence(...fields)
    const fullName = (...names: Uint8Array[]) =>
      encodeDer(0xa0, encodeDer(0xa0, concatBytes(...names)))
    const parsed = withReplaced(
      -1,
      undefined,
      extension(
        '2.5.29.31',
        false,
        encodeDerSequence(
          point(fullName(uri('http://crl.test/a'))),
          point(fullName(uri('http://crl.test/partial')), encodeDer(0x81, Uint8Array.of(7, 0x80))),
          point(fullName(uri('http://crl.test/indirect')), encodeDer(0xa2, uri('x'))),
          point(encodeDer(0xa0, encodeDer(0xa1, new Uint8Array()))),
          point(encodeDer(0xa2, uri('issuer-only'))),
        ),
      ),
    )
    expect(parsed.crlDistributionPointNames).toEqual([uri('http://crl.test/a')])
    const scope = {
      distributionPointNames: [uri('http://crl.test/b'), uri('http://crl.test/a')],
      onlyUserCertificates: true,
      onlyCaCertificates: false,
      onlyAttributeCertificates: false,
      onlySomeReasons: false,
      indirect: false,
    }
    expect(crlCovers(scope, parsed)).toBe(true)
    expect(
      crlCovers({ ...scope, distributionPointNames: [uri('http://crl.test/b')] }, parsed),
    ).toBe(false)
    expect(
      crlCovers({ ...scope, onlyUserCertificates: false, onlyCaCertificates: true }, parsed),
    ).toBe(false)
  })

  it.each([
    [
      'basicConstraints with an extra field',
      () =>
        withReplaced(
          0,
          basicConstraints(
            cA,
            encodeDer(0x02, Uint8Array.of(1)),
            encodeDer(0x05, new Uint8Array()),
          ),
        ),
      'extra fields',
    ],
    [
      'a negative pathLenConstraint',
      () => withReplaced(0, basicConstraints(cA, encodeDer(0x02, Uint8Array.of(0xff)))),
      'negative',
    ],
    [
      'a huge pathLenConstraint',
      () => withReplaced(0, basicConstraints(cA, encodeDer(0x02, Uint8Array.of(1, 0, 0, 0, 0)))),
      'too large',
    ],
    [
      'a keyUsage that is no BIT STRING',
      () => withReplaced(1, extension('2.5.29.15', true, encodeDer(0x04, Uint8Array.of(0)))),
      'keyUsage',
    ],
    [
      'an empty subjectAltName',
      () => withReplaced(4, extension('2.5.29.17', false, encodeDerSequence())),
      'empty list',
    ],
    [
      'a malformed nameConstraints',
      () =>
        withReplaced(
          -1,
          undefined,
          extension('2.5.29.30', true, encodeDer(0x04, new Uint8Array())),
        ),
      'nameConstraints',
    ],
    [
      'certificatePolicies that are no SEQUENCE',
      () =>
        withReplaced(
          -1,
          undefined,
          extension('2.5.29.32', false, encodeDer(0x05, new Uint8Array())),
        ),
      'certificatePolicies',
    ],
    [
      'a distribution point with an unknown field',
      () =>
        withReplaced(
          -1,
          undefined,
          extension(
            '2.5.29.31',
            false,
            encodeDerSequence(encodeDerSequence(encodeDer(0x83, new Uint8Array()))),
          ),
        ),
      'unexpected field',
    ],
    [
      'a distribution point name of two choices',
      () =>
        withReplaced(
          -1,
          undefined,
          extension(
            '2.5.29.31',
            false,
            encodeDerSequence(
              encodeDerSequence(
                encodeDer(
                  0xa0,
                  concatBytes(encodeDer(0xa1, new Uint8Array()), encodeDer(0xa1, new Uint8Array())),
                ),
              ),
            ),
          ),
        ),
      'not one name',
    ],
    [
      'a critical flag of two octets',
      () =>
        withReplaced(
          -1,
          undefined,
          encodeDerSequence(
            encodeDerOid('1.2.3'),
            encodeDer(0x01, Uint8Array.of(1, 1)),
            encodeDer(0x04, new Uint8Array()),
          ),
        ),
      'BOOLEAN',
    ],
  ])('refuses %s with invalid-certificate', (_title, build, fragment) => {
    expect(refusal(build)).toContain(fragment)
  })
})
