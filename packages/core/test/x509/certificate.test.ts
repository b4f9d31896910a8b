import { describe, expect, it } from 'vitest'
import { CryptoError } from '../../src/errors/crypto-error.js'
import { parseCertificate } from '../../src/x509/certificate.js'
import { certificateDer } from '../../src/x509/certificate-der.js'
import { encodeDer, encodeDerSequence } from '../../src/x509/der.js'
import { encodeDerOid } from '../../src/x509/object-identifier.js'
import { withExtensions, withOuterFields, withTbsFields } from './fixtures/certificate-surgery.js'
import { openTestPkiFiles } from './fixtures/test-pki-files.js'
import { bufferOf, signWithPem, verifyWithWebCrypto } from './fixtures/webcrypto-keys.js'

const testPki = openTestPkiFiles()
const { manifest, manifestCase } = testPki
const fixtureText = testPki.text
const fixtureBytes = testPki.bytes

const leafDer = (name: string) => fixtureBytes(`leaves/${name}/certificate.der`)
const authorityDer = (name: string) => certificateDer(fixtureText(`authorities/${name}.pem`))
const extension = (oid: string, value: Uint8Array) =>
  encodeDerSequence(encodeDerOid(oid), encodeDer(0x04, value))

function reasonOf(der: Uint8Array): string {
  try {
    parseCertificate(der)
    return 'ok'
  } catch (error) {
    expect(error).toBeInstanceOf(CryptoError)
    return (error as CryptoError).reason
  }
}

function messageOf(der: Uint8Array): string {
  try {
    parseCertificate(der)
  } catch (error) {
    return (error as Error).message
  }
  return 'parsed'
}

describe('parseCertificate', () => {
  it('refuses a NULL with content as algorithm parameters (X.690 §8.8.2)', () => {
    const sha256WithRsa = (nullContent: Uint8Array) =>
      encodeDerSequence(encodeDerOid('1.2.840.113549.1.1.11'), encodeDer(0x05, nullContent))
    const withAlgorithm = (identifier: Uint8Array) =>
      withOuterFields(
        withTbsFields(leafDer('rsa-client'), (fields) =>
          fields.map((field, index) => (index === 2 ? identifier : field)),
        ),
        ([tbs, , signature]) => [tbs as Uint8Array, identifier, signature as Uint8Array],
      )
    expect(
      parseCertificate(withAlgorithm(sha256WithRsa(new Uint8Array()))).signatureAlgorithm,
    ).toBe('RS256')
    const withContent = withAlgorithm(sha256WithRsa(Uint8Array.of(0x00)))
    expect(reasonOf(withContent)).toBe('invalid-certificate')
    expect(messageOf(withContent)).toMatch(/ has a NULL with content$/)
  })

  it('reads serial numbers by value and refuses padded ones (X.690 §8.3.2)', () => {
    const withSerial = (...octets: number[]) =>
      withTbsFields(leafDer('rsa-client'), (fields) =>
        fields.map((field, index) =>
          index === 1 ? encodeDer(0x02, Uint8Array.from(octets)) : field,
        ),
      )
    expect(parseCertificate(withSerial(0x00, 0xff)).serialNumber).toBe('ff')
    expect(parseCertificate(withSerial(0xff)).serialNumber).toBe('-01')
    for (const padded of [withSerial(0x00, 0x00, 0xff), withSerial(0xff, 0xff)]) {
      expect(reasonOf(padded)).toBe('invalid-certificate')
      expect(messageOf(padded)).toBe('the serial number is not a minimally encoded INTEGER')
    }
  })

  it('reads unique identifiers only in place, once, as valid BIT STRINGs (RFC 5280 §4.1)', () => {
    // A v3 certificate: [0] version … [6] SPKI, then [1] and [2] may precede [3] extensions.
    const withTrailing = (...trailing: Uint8Array[]) =>
      withTbsFields(leafDer('rsa-client'), (fields) => [
        ...fields.slice(0, 7),
        ...trailing,
        fields[7] as Uint8Array,
      ])
    const issuerId = (...octets: number[]) => encodeDer(0x81, Uint8Array.from(octets))
    const subjectId = (...octets: number[]) => encodeDer(0x82, Uint8Array.from(octets))
    expect(reasonOf(withTrailing(issuerId(0, 0xab), subjectId(4, 0xf0)))).toBe('ok')
    expect(reasonOf(withTrailing(issuerId(0)))).toBe('ok')
    expect(reasonOf(withTrailing(subjectId(7, 0x80)))).toBe('ok')
    const extensionsFirst = withTbsFields(leafDer('rsa-client'), (fields) => [
      ...fields,
      issuerId(0, 1),
    ])
    for (const [der, message] of [
      [withTrailing(subjectId(0, 1), issuerId(0, 1)), 'unexpected field with tag 0x81'],
      [withTrailing(issuerId(0, 1), issuerId(0, 2)), 'unexpected field with tag 0x81'],
      [extensionsFirst, 'unexpected field with tag 0x81'],
      [withTrailing(encodeDer(0xa1, encodeDer(0x03, Uint8Array.of(0)))), 'tag 0xa1'],
      [withTrailing(issuerId()), 'the issuerUniqueID is an empty BIT STRING'],
      [withTrailing(subjectId(8, 0)), 'the subjectUniqueID has invalid unused bits'],
      [withTrailing(subjectId(1)), 'the subjectUniqueID has invalid unused bits'],
      [withTrailing(subjectId(4, 0x01)), 'the subjectUniqueID has invalid unused bits'],
    ] as const) {
      expect(reasonOf(der)).toBe('invalid-certificate')
      expect(messageOf(der)).toContain(message)
    }
    // v1 certificates carry neither; v2 ones no extensions.
    const version = (number: number) => encodeDer(0xa0, encodeDer(0x02, Uint8Array.of(number)))
    const v1 = withTbsFields(leafDer('rsa-client'), (fields) => [
      ...fields.slice(1, 7),
      issuerId(0, 1),
    ])
    expect(messageOf(v1)).toContain('unexpected field with tag 0x81')
    const v2 = withTbsFields(leafDer('rsa-client'), (fields) => [
      version(1),
      ...fields.slice(1, 7),
      issuerId(0, 1),
    ])
    expect(reasonOf(v2)).toBe('ok')
  })

  it('refuses name values that are no strings and wide strings with surrogates (RFC 5280 §4.1.2.4)', () => {
    const withSubject = (value: Uint8Array) =>
      withTbsFields(leafDer('rsa-client'), (fields) =>
        fields.map((field, index) =>
          index === 5
            ? encodeDerSequence(encodeDer(0x31, encodeDerSequence(encodeDerOid('2.5.4.3'), value)))
            : field,
        ),
      )
    expect(parseCertificate(withSubject(encodeDer(0x1e, Uint8Array.of(0, 0x41)))).subject).toBe(
      'CN=A',
    )
    expect(parseCertificate(withSubject(encodeDer(0x03, Uint8Array.of(0, 0xab)))).subject).toBe(
      'CN=#030200ab',
    )
    for (const [value, message] of [
      [
        encodeDer(0x03, new TextEncoder().encode('US')),
        'the value of name attribute 2.5.4.3 has invalid unused bits',
      ],
      [encodeDer(0x03, new Uint8Array()), 'is an empty BIT STRING'],
      [encodeDer(0x30, Uint8Array.of(0x02)), 'malformed DER'],
      [encodeDer(0x02, Uint8Array.of(1)), 'has tag 0x2, which is no string type'],
      [encodeDer(0x04, Uint8Array.of(1)), 'has tag 0x4, which is no string type'],
      [encodeDer(0x05, new Uint8Array()), 'has tag 0x5, which is no string type'],
      [encodeDer(0x17, new TextEncoder().encode('250101000000Z')), 'has tag 0x17'],
      [
        encodeDer(0x1e, Uint8Array.of(0xd8, 0x00)),
        'the value of name attribute 2.5.4.3 has an invalid character',
      ],
      [encodeDer(0x1e, Uint8Array.of(0xd8, 0x3d, 0xde, 0x00)), 'has an invalid character'],
      [encodeDer(0x1c, Uint8Array.of(0, 0, 0xdc, 0)), 'has an invalid character'],
    ] as const) {
      expect(reasonOf(withSubject(value))).toBe('invalid-certificate')
      expect(messageOf(withSubject(value))).toContain(message)
    }
  })

  it('refuses an EC public key whose point is not on its curve', () => {
    const der = leafDer('ec-p256-client')
    expect(parseCertificate(der).publicKey.namedCurve).toBe('P-256')
    const offCurve = withTbsFields(der, (fields) =>
      fields.map((field, index) => {
        if (index !== 6) return field
        const spki = Uint8Array.from(field)
        spki[spki.length - 1] = (spki[spki.length - 1] as number) ^ 0x01
        return spki
      }),
    )
    expect(reasonOf(offCurve)).toBe('invalid-certificate')
    expect(messageOf(offCurve)).toMatch(
      /^the public key of certificate ".*" is not a point on P-256$/,
    )
  })

  it('reads the fields of a test PKI leaf as the manifest and WebCrypto see them', async () => {
    const entry = manifestCase('rsa-client')
    const der = leafDer('rsa-client')
    const parsed = parseCertificate(der)
    expect(parsed.subject).toBe(entry.subject)
    expect(parsed.subject).toBe('CN=fhir-auth test client (RSA),OU=Leaf,O=fhir-auth Test PKI,C=US')
    expect(parsed.issuer).toBe(manifest.authorities['rsa-intermediate']?.subject)
    expect(parsed.serialNumber).toBe(entry.serialNumber)
    expect(parsed.notBefore.toISOString()).toBe('2025-01-01T00:00:00.000Z')
    expect(parsed.notAfter.toISOString()).toBe(new Date(entry.notAfter).toISOString())
    expect(parsed.subjectAltNameUris).toEqual(['https://client.example.test/app'])
    expect(parsed.isCertificateAuthority).toBe(false)
    // WebCrypto reads the SPKI we extracted: its JWK must carry the same modulus and exponent.
    const webCryptoKey = await crypto.subtle.importKey(
      'spki',
      bufferOf(parsed.publicKeySpki),
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      true,
      ['verify'],
    )
    const jwk = await crypto.subtle.exportKey('jwk', webCryptoKey)
    expect(parsed.publicKeyJwk).toEqual({ kty: 'RSA', n: jwk.n, e: jwk.e })
    expect(parsed.signatureAlgorithm).toBe('RS256')
    expect(parsed.signature).toHaveLength(384)
    expect([...parsed.der]).toEqual([...der])
  })

  it('reads CA flags and key identifiers that link a certificate to its issuer', () => {
    const intermediate = parseCertificate(authorityDer('rsa-intermediate'))
    const leaf = parseCertificate(leafDer('rsa-client'))
    expect(intermediate.isCertificateAuthority).toBe(true)
    expect(parseCertificate(authorityDer('rsa-intermediate-not-ca')).isCertificateAuthority).toBe(
      false,
    )
    expect(leaf.authorityKeyIdentifier).toEqual(intermediate.subjectKeyIdentifier)
    expect([...leaf.issuerDer]).toEqual([...intermediate.subjectDer])
  })

  it('reads SAN URIs exactly, including a comma inside one', () => {
    expect(parseCertificate(leafDer('rsa-client-two-sans')).subjectAltNameUris).toEqual([
      'https://client.example.test/app',
      'https://client.example.test/app,second',
    ])
  })

  it('reads a GeneralizedTime notAfter (2050 and later)', () => {
    expect(parseCertificate(leafDer('not-yet-valid')).notAfter.toISOString()).toBe(
      '2050-01-01T00:00:00.000Z',
    )
  })

  it('reads EC keys and converts ECDSA signatures to r‖s', () => {
    const p256 = parseCertificate(leafDer('ec-p256-client'))
    expect(p256.publicKey).toMatchObject({ type: 'EC', namedCurve: 'P-256' })
    expect(p256.signatureAlgorithm).toBe('ES384')
    expect(p256.signature).toHaveLength(96)
  })

  it('keeps its own copy of the DER', () => {
    const der = new Uint8Array(leafDer('rsa-client'))
    const parsed = parseCertificate(der)
    der.fill(0)
    expect(parsed.der[0]).toBe(0x30)
    expect(parsed.tbs[0]).toBe(0x30)
  })

  describe('signature algorithms', () => {
    const keyPem = fixtureText('leaves/rsa-client/key.pkcs8.pem')
    const hashOid = (bits: number) => `2.16.840.1.101.3.4.2.${{ 256: 1, 384: 2, 512: 3 }[bits]}`
    const pssIdentifier = (bits: number, saltLength: number) =>
      encodeDerSequence(
        encodeDerOid('1.2.840.113549.1.1.10'),
        encodeDerSequence(
          encodeDer(0xa0, encodeDerSequence(encodeDerOid(hashOid(bits)))),
          encodeDer(
            0xa1,
            encodeDerSequence(
              encodeDerOid('1.2.840.113549.1.1.8'),
              encodeDerSequence(encodeDerOid(hashOid(bits))),
            ),
          ),
          encodeDer(0xa2, encodeDer(0x02, Uint8Array.of(saltLength))),
        ),
      )
    const withAlgorithm = (identifier: Uint8Array) =>
      withOuterFields(
        withTbsFields(leafDer('rsa-client'), (fields) =>
          fields.map((field, index) => (index === 2 ? identifier : field)),
        ),
        ([tbs, , signature]) => [tbs as Uint8Array, identifier, signature as Uint8Array],
      )

    it.each([
      [256, 32, 'PS256'],
      [384, 48, 'PS384'],
      [512, 64, 'PS512'],
    ])('reads RSASSA-PSS with SHA-%i and a %i-byte salt as %s', (bits, salt, expected) => {
      expect(parseCertificate(withAlgorithm(pssIdentifier(bits, salt))).signatureAlgorithm).toBe(
        expected,
      )
    })

    it('gives undefined for PSS with another salt length and for SHA-1 or unknown algorithms', () => {
      expect(
        parseCertificate(withAlgorithm(pssIdentifier(256, 20))).signatureAlgorithm,
      ).toBeUndefined()
      expect(
        parseCertificate(withAlgorithm(encodeDerSequence(encodeDerOid('1.2.840.113549.1.1.10'))))
          .signatureAlgorithm,
      ).toBeUndefined()
      const sha1WithRsa = encodeDerSequence(
        encodeDerOid('1.2.840.113549.1.1.5'),
        encodeDer(0x05, new Uint8Array()),
      )
      expect(parseCertificate(withAlgorithm(sha1WithRsa)).signatureAlgorithm).toBeUndefined()
      expect(
        parseCertificate(withAlgorithm(encodeDerSequence(encodeDerOid('1.3.101.112'))))
          .signatureAlgorithm,
      ).toBeUndefined()
    })

    it('produces a PSS signature WebCrypto verifies over the TBS it reports', async () => {
      const identifier = pssIdentifier(256, 32)
      const unsigned = withAlgorithm(identifier)
      const tbs = parseCertificate(unsigned).tbs
      const signature = await signWithPem(keyPem, 'PS256', tbs)
      const signed = withOuterFields(unsigned, ([first, second]) => [
        first as Uint8Array,
        second as Uint8Array,
        encodeDer(0x03, new Uint8Array([0, ...signature])),
      ])
      const parsed = parseCertificate(signed)
      expect([...parsed.signature]).toEqual([...signature])
      expect(
        await verifyWithWebCrypto({
          algorithm: 'PS256',
          publicKeySpki: parseCertificate(leafDer('rsa-client')).publicKeySpki,
          data: parsed.tbs,
          signature: parsed.signature,
        }),
      ).toBe(true)
    })
  })

  describe('malformed input', () => {
    const der = () => leafDer('rsa-client')

    it.each([
      ['a trailing byte', () => new Uint8Array([...der(), 0]), 'bytes follow'],
      ['truncation', () => der().subarray(0, der().length - 1), 'malformed DER'],
      [
        'an outer SET',
        () => new Uint8Array([0x31, ...der().subarray(1)]),
        'the certificate has tag 0x31',
      ],
      [
        'a fourth top-level field',
        () => withOuterFields(der(), (fields) => [...fields, encodeDer(0x05, new Uint8Array())]),
        'more than three fields',
      ],
      [
        'a signature with unused bits',
        () =>
          withOuterFields(der(), ([tbs, algorithm]) => [
            tbs as Uint8Array,
            algorithm as Uint8Array,
            encodeDer(0x03, Uint8Array.of(1, 0xfe)),
          ]),
        'unused bits',
      ],
      [
        'a missing subject public key',
        () => withTbsFields(der(), (fields) => [...fields.slice(0, 6), ...fields.slice(7)]),
        'subjectPublicKeyInfo',
      ],
      [
        'version 4',
        () =>
          withTbsFields(der(), ([, ...rest]) => [
            encodeDer(0xa0, encodeDer(0x02, Uint8Array.of(3))),
            ...rest,
          ]),
        'version 4',
      ],
      [
        'extensions in a v1 certificate',
        () => withTbsFields(der(), ([, ...rest]) => rest),
        'unexpected field',
      ],
      [
        'an invalid notBefore',
        () =>
          withTbsFields(der(), (fields) =>
            fields.map((field, index) =>
              index === 4
                ? encodeDerSequence(
                    encodeDer(0x17, new TextEncoder().encode('251301000000Z')),
                    encodeDer(0x17, new TextEncoder().encode('450101000000Z')),
                  )
                : field,
            ),
          ),
        'not a valid date',
      ],
      [
        'an unexpected TBS field',
        () => withTbsFields(der(), (fields) => [...fields, encodeDer(0x05, new Uint8Array())]),
        'unexpected field',
      ],
      [
        'a non-ASCII SAN URI',
        () =>
          withExtensions(der(), (extensions) => [
            ...extensions.filter((_, index) => index !== 4),
            extension('2.5.29.17', encodeDerSequence(encodeDer(0x86, Uint8Array.of(0x68, 0xe9)))),
          ]),
        'non-ASCII',
      ],
      [
        'a duplicate extension',
        () => withExtensions(der(), (extensions) => [...extensions, extensions[0] as Uint8Array]),
        'twice',
      ],
      [
        'an extension without a value',
        () =>
          withExtensions(der(), (extensions) => [
            ...extensions,
            encodeDerSequence(encodeDerOid('1.2.3.4')),
          ]),
        'extnValue',
      ],
    ])('refuses %s with invalid-certificate', (_title, build, fragment) => {
      const built = build()
      expect(reasonOf(built)).toBe('invalid-certificate')
      expect(messageOf(built)).toContain(fragment)
    })

    it('refuses a certificate whose inner and outer signature algorithms differ', () => {
      const rs384 = encodeDerSequence(
        encodeDerOid('1.2.840.113549.1.1.12'),
        encodeDer(0x05, new Uint8Array()),
      )
      expect(
        messageOf(
          withOuterFields(der(), ([tbs, , signature]) => [
            tbs as Uint8Array,
            rs384,
            signature as Uint8Array,
          ]),
        ),
      ).toContain('differs')
    })

    it('refuses a certificate for an unsupported key type with invalid-certificate naming the problem', () => {
      // RFC 8410: an Ed25519 SPKI is its OID and a 32-byte key; the parser needs no real key.
      const ed25519 = encodeDerSequence(
        encodeDerSequence(encodeDerOid('1.3.101.112')),
        encodeDer(0x03, new Uint8Array(33)),
      )
      const built = withTbsFields(der(), (fields) =>
        fields.map((field, index) => (index === 6 ? ed25519 : field)),
      )
      expect(reasonOf(built)).toBe('invalid-certificate')
      expect(messageOf(built)).toContain('cannot be used')
    })

    it('refuses values that are not bytes', () => {
      expect(reasonOf('MIIB' as unknown as Uint8Array)).toBe('invalid-certificate')
    })

    it('accepts a certificate without extensions only as v1', () => {
      const v1 = withTbsFields(der(), (fields) => fields.slice(1, 7))
      const parsed = parseCertificate(v1)
      expect(parsed.isCertificateAuthority).toBe(false)
      expect(parsed.subjectAltNameUris).toEqual([])
      expect(parsed.authorityKeyIdentifier).toBeUndefined()
    })
  })
})
