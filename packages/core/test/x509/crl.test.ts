import { describe, expect, it } from 'vitest'
import { CryptoError } from '../../src/errors/crypto-error.js'
import { crlDer } from '../../src/x509/certificate-der.js'
import { parseCrl } from '../../src/x509/crl.js'
import { encodeDer, encodeDerSequence } from '../../src/x509/der.js'
import { encodeDerOid } from '../../src/x509/object-identifier.js'
import { withOuterFields, withTbsFields } from './fixtures/certificate-surgery.js'
import { openTestPkiFiles } from './fixtures/test-pki-files.js'

const testPki = openTestPkiFiles()
const { manifest, manifestCase } = testPki
const fixtureText = testPki.text
const fixtureBytes = testPki.bytes

const crlBytes = (name: string) => fixtureBytes(`crls/${name}.crl`)

function failure(der: Uint8Array): CryptoError {
  try {
    parseCrl(der)
  } catch (error) {
    expect(error).toBeInstanceOf(CryptoError)
    return error as CryptoError
  }
  throw new Error('expected a CryptoError')
}

describe('parseCrl', () => {
  it('reads issuer, dates and revoked serial numbers of a test PKI CRL', () => {
    const parsed = parseCrl(crlBytes('rsa-intermediate'))
    expect(parsed.issuer).toBe(manifest.authorities['rsa-intermediate']?.subject)
    expect(parsed.thisUpdate.toISOString()).toBe('2025-01-01T00:00:00.000Z')
    expect(parsed.nextUpdate?.toISOString()).toBe('2045-01-01T00:00:00.000Z')
    expect([...parsed.revokedSerialNumbers]).toEqual([manifestCase('revoked').serialNumber])
    expect(parsed.signatureAlgorithm).toBe('RS256')
    expect(parsed.tbs[0]).toBe(0x30)
  })

  it('reads the root CRL listing the revoked intermediate, and PEM through crlDer', () => {
    const parsed = parseCrl(crlDer(fixtureText('crls/rsa-root.crl.pem')))
    expect(
      parsed.revokedSerialNumbers.has(
        manifest.authorities['rsa-intermediate-revoked']?.serialNumber ?? '',
      ),
    ).toBe(true)
  })

  it('reads an ECDSA CRL with an r‖s signature and an empty revocation list', () => {
    const parsed = parseCrl(crlBytes('ec-intermediate'))
    expect(parsed.signatureAlgorithm).toBe('ES384')
    expect(parsed.signature).toHaveLength(96)
    expect(parsed.revokedSerialNumbers.size).toBe(0)
  })

  it('reads a v1 CRL without nextUpdate, entries or extensions', () => {
    // TBS fields of the fixture: version, signature, issuer, thisUpdate, nextUpdate, [revoked], [0] extensions.
    const minimal = withTbsFields(crlBytes('ec-root'), (fields) => fields.slice(1, 4))
    const parsed = parseCrl(minimal)
    expect(parsed.nextUpdate).toBeUndefined()
    expect(parsed.revokedSerialNumbers.size).toBe(0)
  })

  it('normalises revoked serial numbers like certificate serial numbers', () => {
    const entry = encodeDerSequence(
      encodeDer(0x02, Uint8Array.of(0x00, 0x80, 0x01)),
      encodeDer(0x17, new TextEncoder().encode('250101000000Z')),
    )
    const withEntry = withTbsFields(crlBytes('ec-root'), (fields) => [
      ...fields.slice(0, 5),
      encodeDerSequence(entry),
      ...fields.slice(5),
    ])
    expect([...parseCrl(withEntry).revokedSerialNumbers]).toEqual(['8001'])
  })

  it('keeps negative revoked serial numbers apart from positive ones, and refuses padded ones', () => {
    const withSerials = (...serials: number[][]) =>
      withTbsFields(crlBytes('ec-root'), (fields) => [
        ...fields.slice(0, 5),
        encodeDerSequence(
          ...serials.map((octets) =>
            encodeDerSequence(
              encodeDer(0x02, Uint8Array.from(octets)),
              encodeDer(0x17, new TextEncoder().encode('250101000000Z')),
            ),
          ),
        ),
        ...fields.slice(5),
      ])
    expect([...parseCrl(withSerials([0xff], [0x00, 0xff])).revokedSerialNumbers]).toEqual([
      '-01',
      'ff',
    ])
    expect(failure(withSerials([0x00, 0x00, 0xff])).message).toBe(
      'the serial number is not a minimally encoded INTEGER',
    )
  })

  it.each([
    ['a trailing byte', (der: Uint8Array) => new Uint8Array([...der, 0]), 'bytes follow'],
    [
      'a certificate instead of a CRL',
      () => fixtureBytes('leaves/rsa-client/certificate.der'),
      'tbsCertList',
    ],
    [
      'version 3',
      (der: Uint8Array) =>
        withTbsFields(der, ([, ...rest]) => [encodeDer(0x02, Uint8Array.of(2)), ...rest]),
      'version 3',
    ],
    [
      'a missing thisUpdate',
      (der: Uint8Array) => withTbsFields(der, (fields) => fields.slice(0, 3)),
      'thisUpdate is missing',
    ],
    [
      'an entry without a revocation date',
      (der: Uint8Array) =>
        withTbsFields(der, (fields) => [
          ...fields.slice(0, 5),
          encodeDerSequence(encodeDerSequence(encodeDer(0x02, Uint8Array.of(1)))),
          ...fields.slice(5),
        ]),
      'revocationDate',
    ],
    [
      'an unexpected field',
      (der: Uint8Array) =>
        withTbsFields(der, (fields) => [...fields, encodeDer(0x05, new Uint8Array())]),
      'unexpected fields',
    ],
    [
      'different inner and outer algorithms',
      (der: Uint8Array) =>
        withOuterFields(der, ([tbs, , signature]) => [
          tbs as Uint8Array,
          encodeDerSequence(encodeDerOid('1.2.840.10045.4.3.2')),
          signature as Uint8Array,
        ]),
      'differs',
    ],
  ])('refuses %s with invalid-crl', (_title, build, fragment) => {
    const error = failure(build(crlBytes('ec-root')))
    expect(error.reason).toBe('invalid-crl')
    expect(error.message).toContain(fragment)
  })

  it('refuses values that are not bytes', () => {
    expect(failure('crl' as unknown as Uint8Array).reason).toBe('invalid-crl')
  })
})
