import { describe, expect, it } from 'vitest'
import { parseCrl } from '../../src/x509/crl.js'
import { concatBytes, encodeDer, encodeDerSequence } from '../../src/x509/der.js'
import { encodeDerOid } from '../../src/x509/object-identifier.js'
import { withTbsFields } from './fixtures/certificate-surgery.js'
import { openTestPkiFiles } from './fixtures/test-pki-files.js'

const crlBytes = (name: string) => openTestPkiFiles().bytes(`crls/${name}.crl`)
const extension = (oid: string, critical: boolean, value: Uint8Array) =>
  encodeDerSequence(
    encodeDerOid(oid),
    ...(critical ? [encodeDer(0x01, Uint8Array.of(0xff))] : []),
    encodeDer(0x04, value),
  )
const uri = (value: string) => encodeDer(0x86, new TextEncoder().encode(value))
const revocationDate = encodeDer(0x17, new TextEncoder().encode('250101000000Z'))

/** The EC root CRL (version, signature, issuer, thisUpdate, nextUpdate, [0] extensions) with other extensions. */
function withCrlExtensions(...extensions: Uint8Array[]): Uint8Array {
  return withTbsFields(crlBytes('ec-root'), (fields) => [
    ...fields.slice(0, 5),
    encodeDer(0xa0, encodeDerSequence(...extensions)),
  ])
}

/** The same CRL with one revoked entry carrying entry extensions. */
function withEntryExtensions(...extensions: Uint8Array[]): Uint8Array {
  return withTbsFields(crlBytes('ec-root'), (fields) => [
    ...fields.slice(0, 5),
    encodeDerSequence(
      encodeDerSequence(
        encodeDer(0x02, Uint8Array.of(7)),
        revocationDate,
        encodeDerSequence(...extensions),
      ),
    ),
    ...fields.slice(5),
  ])
}

describe('CRL extensions', () => {
  it('has no scope and nothing unrecognised for the test PKI CRLs', () => {
    const parsed = parseCrl(crlBytes('rsa-intermediate'))
    expect(parsed.scope).toBeUndefined()
    expect(parsed.unrecognizedCriticalExtensions).toEqual([])
  })

  it('lists critical CRL extensions it does not understand, and ignores non-critical ones', () => {
    const parsed = parseCrl(
      withCrlExtensions(
        extension('2.5.29.27', true, encodeDer(0x02, Uint8Array.of(1))),
        extension('1.2.3.4', false, new Uint8Array()),
        extension('2.5.29.35', true, encodeDerSequence(encodeDer(0x80, Uint8Array.of(1)))),
      ),
    )
    expect(parsed.unrecognizedCriticalExtensions).toEqual(['2.5.29.27'])
    expect(parsed.authorityKeyIdentifier).toEqual(Uint8Array.of(1))
  })

  it('reads the keyIdentifier of the authorityKeyIdentifier, and only that field', () => {
    const aki = (...fields: Uint8Array[]) =>
      parseCrl(withCrlExtensions(extension('2.5.29.35', false, encodeDerSequence(...fields))))
    const serial = encodeDer(0x82, Uint8Array.of(7))
    expect(aki(serial).authorityKeyIdentifier).toBeUndefined()
    expect(aki(encodeDer(0x80, Uint8Array.of(9)), serial).authorityKeyIdentifier).toEqual(
      Uint8Array.of(9),
    )
    expect(() => aki().authorityKeyIdentifier).not.toThrow()
    expect(() =>
      parseCrl(withCrlExtensions(extension('2.5.29.35', false, encodeDer(0x04, new Uint8Array())))),
    ).toThrow('authorityKeyIdentifier has tag 0x04, expected 0x30')
  })

  it('does not accept a critical cRLNumber, as OpenSSL does not (RFC 5280 §5.2.3)', () => {
    const crlNumber = (critical: boolean) =>
      parseCrl(
        withCrlExtensions(extension('2.5.29.20', critical, encodeDer(0x02, Uint8Array.of(1)))),
      )
    expect(crlNumber(false).unrecognizedCriticalExtensions).toEqual([])
    expect(crlNumber(true).unrecognizedCriticalExtensions).toEqual(['2.5.29.20'])
  })

  it('lists critical entry extensions it does not understand, each once', () => {
    const certificateIssuer = extension('2.5.29.29', true, encodeDerSequence(uri('x')))
    const reasonCode = extension('2.5.29.21', true, encodeDer(0x0a, Uint8Array.of(1)))
    const parsed = parseCrl(withEntryExtensions(certificateIssuer, reasonCode))
    expect(parsed.unrecognizedCriticalExtensions).toEqual(['2.5.29.29'])
    expect([...parsed.revokedSerialNumbers]).toEqual(['07'])
  })

  it('reads an issuingDistributionPoint', () => {
    const point = encodeDer(
      0xa0,
      encodeDer(0xa0, concatBytes(uri('http://crl.test/a'), uri('http://crl.test/b'))),
    )
    const parsed = parseCrl(
      withCrlExtensions(
        extension(
          '2.5.29.28',
          true,
          encodeDerSequence(
            point,
            encodeDer(0x81, Uint8Array.of(0xff)),
            encodeDer(0x83, Uint8Array.of(7, 0x80)),
            encodeDer(0x84, Uint8Array.of(0)),
          ),
        ),
      ),
    )
    expect(parsed.unrecognizedCriticalExtensions).toEqual([])
    expect(parsed.scope).toEqual({
      distributionPointNames: [uri('http://crl.test/a'), uri('http://crl.test/b')],
      onlyUserCertificates: true,
      onlyCaCertificates: false,
      onlySomeReasons: true,
      indirect: false,
      onlyAttributeCertificates: false,
    })
  })

  it('reads a relative distribution point name as one that never matches', () => {
    const relative = encodeDer(0xa0, encodeDer(0xa1, new Uint8Array()))
    const parsed = parseCrl(
      withCrlExtensions(extension('2.5.29.28', true, encodeDerSequence(relative))),
    )
    expect(parsed.scope?.distributionPointNames).toEqual([])
  })

  it.each([
    [
      'two extension lists',
      () =>
        withTbsFields(crlBytes('ec-root'), (fields) => [
          ...fields.slice(0, 5),
          encodeDer(0xa0, concatBytes(encodeDerSequence(), encodeDerSequence())),
        ]),
      'two extension lists',
    ],
    [
      'an extension twice',
      () =>
        withCrlExtensions(
          extension('1.2.3', false, new Uint8Array()),
          extension('1.2.3', false, new Uint8Array()),
        ),
      'twice',
    ],
    [
      'IDP fields out of order',
      () =>
        withCrlExtensions(
          extension(
            '2.5.29.28',
            true,
            encodeDerSequence(
              encodeDer(0x82, Uint8Array.of(0xff)),
              encodeDer(0x81, Uint8Array.of(0xff)),
            ),
          ),
        ),
      'unexpected field',
    ],
    [
      'an IDP field 6',
      () =>
        withCrlExtensions(
          extension('2.5.29.28', true, encodeDerSequence(encodeDer(0x86, Uint8Array.of(0xff)))),
        ),
      'unexpected field',
    ],
    [
      'an IDP flag that is no BOOLEAN',
      () =>
        withCrlExtensions(
          extension('2.5.29.28', true, encodeDerSequence(encodeDer(0x81, Uint8Array.of(1, 1)))),
        ),
      'BOOLEAN',
    ],
    [
      'an IDP point of two names',
      () =>
        withCrlExtensions(
          extension(
            '2.5.29.28',
            true,
            encodeDerSequence(
              encodeDer(
                0xa0,
                concatBytes(encodeDer(0xa1, new Uint8Array()), encodeDer(0xa1, new Uint8Array())),
              ),
            ),
          ),
        ),
      'not one name',
    ],
    [
      'an entry with a fourth field',
      () =>
        withTbsFields(crlBytes('ec-root'), (fields) => [
          ...fields.slice(0, 5),
          encodeDerSequence(
            encodeDerSequence(
              encodeDer(0x02, Uint8Array.of(7)),
              revocationDate,
              encodeDerSequence(),
              encodeDer(0x05, new Uint8Array()),
            ),
          ),
          ...fields.slice(5),
        ]),
      'extra fields',
    ],
    [
      'entry extensions that are no list',
      () =>
        withTbsFields(crlBytes('ec-root'), (fields) => [
          ...fields.slice(0, 5),
          encodeDerSequence(
            encodeDerSequence(
              encodeDer(0x02, Uint8Array.of(7)),
              revocationDate,
              encodeDer(0x05, new Uint8Array()),
            ),
          ),
          ...fields.slice(5),
        ]),
      'extension list of a CRL entry',
    ],
  ])('refuses %s with invalid-crl', (_title, build, fragment) => {
    expect(() => parseCrl(build())).toThrow(
      expect.objectContaining({
        name: 'CryptoError',
        reason: 'invalid-crl',
        message: expect.stringContaining(fragment),
      }),
    )
  })
})
