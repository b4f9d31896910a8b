/**
 * `readCaIssuersCertificates`: an AIA caIssuers document is one DER certificate or a
 * "certs-only" PKCS#7 SignedData (RFC 5280 §4.2.2.1, RFC 5652 §5.1); anything else is refused
 * as `invalid-certificate`, naming the part that is wrong.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { CryptoError } from '../../../src/errors/crypto-error.js'
import { concatBytes, encodeDer, encodeDerSequence } from '../../../src/x509/der.js'
import { encodeDerOid } from '../../../src/x509/object-identifier.js'
import { readCaIssuersCertificates } from '../../../src/x509/revocation-online/ca-issuers.js'
import {
  certsOnlyPkcs7,
  createCertificate,
  integer,
  type TestCertificate,
} from '../fixtures/online-pki.js'

let first: TestCertificate
let second: TestCertificate

beforeAll(async () => {
  first = await createCertificate({ commonName: 'First CA', ca: true })
  second = await createCertificate({ commonName: 'Second CA', ca: true })
})

function refusal(body: Uint8Array) {
  try {
    readCaIssuersCertificates(body)
  } catch (error) {
    if (!(error instanceof CryptoError)) throw error
    return { reason: error.reason, message: error.message }
  }
  throw new Error('no refusal')
}

const signedDataOid = '1.2.840.113549.1.7.2'
const emptySet = encodeDer(0x31, new Uint8Array())
const dataContent = encodeDerSequence(encodeDerOid('1.2.840.113549.1.7.1'))

describe('readCaIssuersCertificates', () => {
  it('returns a DER certificate as it is', () => {
    expect(readCaIssuersCertificates(first.der)).toEqual([first.der])
  })

  it('returns the certificates of a certs-only PKCS#7 in order', () => {
    expect(readCaIssuersCertificates(certsOnlyPkcs7([second.der, first.der]))).toEqual([
      second.der,
      first.der,
    ])
  })

  it('skips the other certificate choices of a PKCS#7 (attribute certificates)', () => {
    const body = certsOnlyPkcs7([], {
      fields: [
        integer(1),
        emptySet,
        dataContent,
        encodeDer(0xa0, concatBytes(encodeDer(0xa1, integer(1)), first.der)),
        emptySet,
      ],
    })
    expect(readCaIssuersCertificates(body)).toEqual([first.der])
  })

  it('is empty for a SignedData without certificates', () => {
    const withoutCertificates = certsOnlyPkcs7([], {
      fields: [integer(1), emptySet, dataContent, emptySet],
    })
    expect(readCaIssuersCertificates(withoutCertificates)).toEqual([])
    // [0] before the fourth field is not the certificates.
    const misplaced = certsOnlyPkcs7([], {
      fields: [integer(1), emptySet, encodeDer(0xa0, first.der), emptySet],
    })
    expect(readCaIssuersCertificates(misplaced)).toEqual([])
  })

  it('takes the first [0] after encapContentInfo (crls are [1])', () => {
    const body = certsOnlyPkcs7([], {
      fields: [
        integer(1),
        emptySet,
        dataContent,
        encodeDer(0xa1, new Uint8Array()),
        encodeDer(0xa0, second.der),
        emptySet,
      ],
    })
    expect(readCaIssuersCertificates(body)).toEqual([second.der])
  })

  const signedData = (content: Uint8Array) =>
    encodeDerSequence(encodeDerOid(signedDataOid), content)
  it.each([
    ['not a SEQUENCE', integer(1), 'the caIssuers document has tag 0x02, expected 0x30'],
    ['an empty SEQUENCE', encodeDerSequence(), 'the content type is missing'],
    [
      'a content type that is not an OID',
      encodeDerSequence(integer(1)),
      'the content type has tag 0x02, expected 0x06',
    ],
    [
      'another content type',
      certsOnlyPkcs7([], { contentType: '1.2.840.113549.1.7.1' }),
      'the caIssuers document is 1.2.840.113549.1.7.1, not a certificate or SignedData',
    ],
    [
      'SignedData without content',
      encodeDerSequence(encodeDerOid(signedDataOid)),
      'the SignedData content is missing',
    ],
    [
      'SignedData content not [0]',
      signedData(encodeDer(0xa1, encodeDerSequence())),
      'the SignedData content has tag 0xa1, expected 0xa0',
    ],
    [
      'SignedData that is not a SEQUENCE',
      signedData(encodeDer(0xa0, emptySet)),
      'SignedData has tag 0x31, expected 0x30',
    ],
    ['an empty [0]', signedData(encodeDer(0xa0, new Uint8Array())), 'SignedData is missing'],
  ])('refuses %s', (_name, body, message) => {
    expect(refusal(body)).toEqual({ reason: 'invalid-certificate', message })
  })

  it('refuses trailing bytes and malformed certificates lists', () => {
    expect(refusal(concatBytes(first.der, Uint8Array.of(0))).reason).toBe('invalid-certificate')
    const truncated = certsOnlyPkcs7([], {
      fields: [integer(1), emptySet, dataContent, encodeDer(0xa0, Uint8Array.of(0x30, 0x05, 0x00))],
    })
    expect(refusal(truncated).reason).toBe('invalid-certificate')
  })
})
