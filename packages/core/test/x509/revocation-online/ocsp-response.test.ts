/**
 * `parseOcspResponse`: what it reads from a basic OCSP response (RFC 6960 §4.2.1) and the
 * `invalid-crl` refusal, naming the field, for each field that is missing, mistagged or malformed.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { CryptoError } from '../../../src/errors/crypto-error.js'
import { concatBytes, encodeDer, encodeDerSequence } from '../../../src/x509/der.js'
import { encodeDerOid } from '../../../src/x509/object-identifier.js'
import { parseOcspResponse } from '../../../src/x509/revocation-online/ocsp-response.js'
import {
  certIdDer,
  certStatus,
  nonceExtension,
  ocspResponse,
  ocspResponseOf,
  responseData,
  sha1,
  singleResponse,
  successfulResponse,
} from '../fixtures/ocsp-responses.js'
import {
  bitString,
  createCertificate,
  ecdsaWithSha256Algorithm,
  generalizedTime,
  generateKey,
  integer,
  octetString,
  type TestCertificate,
  type TestKey,
  utcTime,
} from '../fixtures/online-pki.js'

const thisUpdate = new Date('2027-01-01T00:00:00Z')
const nextUpdate = new Date('2027-01-08T00:00:00Z')
const producedAt = new Date('2027-01-01T00:00:05Z')
const nameHash = new Uint8Array(20).fill(1)
const keyHash = new Uint8Array(20).fill(2)
const serial = Uint8Array.of(0x01, 0x23)
const certId = certIdDer({ issuerNameHash: nameHash, issuerKeyHash: keyHash, serialNumber: serial })
const good = singleResponse({ certId, status: 'good', thisUpdate, nextUpdate })

let signer: TestKey
let responder: TestCertificate

beforeAll(async () => {
  signer = await generateKey()
  responder = await createCertificate({ commonName: 'Responder', key: signer })
})

function refusal(der: Uint8Array): { reason: string; message: string } {
  try {
    parseOcspResponse(der)
  } catch (error) {
    if (!(error instanceof CryptoError)) throw error
    return { reason: error.reason, message: error.message }
  }
  throw new Error('parsed')
}

/** A successful response whose BasicOCSPResponse has these fields (the signature is a dummy). */
const basicWith = (...fields: Uint8Array[]) => ocspResponseOf(fields)
const dummySignature = bitString(encodeDerSequence(integer(1), integer(1)))
/** A response with this tbsResponseData. */
const withTbs = (tbs: Uint8Array) => basicWith(tbs, ecdsaWithSha256Algorithm, dummySignature)
/** A response whose only SingleResponse has these fields. */
const withSingle = (...fields: Uint8Array[]) =>
  withTbs(responseData({ responses: [encodeDerSequence(...fields)], producedAt }))
/** A response whose only CertID has these fields. */
const withCertId = (...fields: Uint8Array[]) =>
  withSingle(encodeDerSequence(...fields), certStatus('good'), generalizedTime(thisUpdate))
const hashAlgorithm = encodeDerSequence(encodeDerOid(sha1), encodeDer(0x05, new Uint8Array()))

describe('parseOcspResponse', () => {
  it('reads the signed part, the signature, each SingleResponse and the certificates sent', async () => {
    const tbs = responseData({
      responses: [good],
      version: true,
      responderId: encodeDer(0xa2, octetString(keyHash)),
      producedAt,
    })
    const der = await ocspResponse({
      signer,
      responses: [good],
      version: true,
      responderId: encodeDer(0xa2, octetString(keyHash)),
      producedAt,
      certificates: [responder.der],
    })
    const parsed = parseOcspResponse(der)
    expect(parsed.tbs).toEqual(tbs)
    expect(parsed.signatureAlgorithm).toBe('ES256')
    // JOSE r‖s of P-256: 64 octets (the DER form is longer and varies).
    expect(parsed.signature).toHaveLength(64)
    expect(parsed.responses).toEqual([
      {
        hashAlgorithm: sha1,
        issuerNameHash: nameHash,
        issuerKeyHash: keyHash,
        serialNumber: serial,
        status: 'good',
        thisUpdate,
        nextUpdate,
      },
    ])
    expect(parsed.certificates.map((certificate) => certificate.der)).toEqual([responder.der])
  })

  it('reads a response without version, certificates or nextUpdate, responder by name', async () => {
    const revoked = singleResponse({ certId, status: 'revoked', thisUpdate, extensions: true })
    const unknown = singleResponse({ certId, status: 'unknown', thisUpdate, nextUpdate })
    const parsed = parseOcspResponse(
      await ocspResponse({ signer, responses: [revoked, unknown], producedAt }),
    )
    expect(parsed.certificates).toEqual([])
    expect(parsed.responses.map(({ status, nextUpdate }) => ({ status, nextUpdate }))).toEqual([
      { status: 'revoked', nextUpdate: undefined },
      { status: 'unknown', nextUpdate },
    ])
  })

  it('reads the nonce extension’s value, or none when the responder sent no nonce', async () => {
    const nonce = octetString(new Uint8Array(32).fill(7))
    const withNonce = await ocspResponse({
      signer,
      responses: [good],
      extensions: [nonceExtension(Uint8Array.of(1), '1.3.6.1.5.5.7.48.1.9'), nonceExtension(nonce)],
    })
    expect(parseOcspResponse(withNonce).nonce).toEqual(nonce)
    const otherExtension = await ocspResponse({
      signer,
      responses: [good],
      extensions: [nonceExtension(nonce, '1.3.6.1.5.5.7.48.1.9')],
    })
    expect(parseOcspResponse(otherExtension).nonce).toBeUndefined()
    expect(
      parseOcspResponse(await ocspResponse({ signer, responses: [good] })).nonce,
    ).toBeUndefined()
    // Something else after the responses (not [1]) is no extension list.
    const tbs = encodeDerSequence(
      encodeDer(0xa1, encodeDerSequence()),
      generalizedTime(producedAt),
      encodeDerSequence(good),
      encodeDer(0xa2, encodeDerSequence(nonceExtension(nonce))),
    )
    expect(parseOcspResponse(withTbs(tbs)).nonce).toBeUndefined()
  })

  it('names the critical extensions it does not understand, of the response and of each SingleResponse, once each', async () => {
    const critical = (oid: string) =>
      encodeDerSequence(
        encodeDerOid(oid),
        encodeDer(0x01, Uint8Array.of(0xff)),
        octetString(Uint8Array.of(5, 0)),
      )
    const nonCritical = (oid: string) => nonceExtension(Uint8Array.of(5, 0), oid)
    const singleWith = (...extensions: Uint8Array[]) =>
      encodeDerSequence(
        certId,
        certStatus('good'),
        generalizedTime(thisUpdate),
        encodeDer(0xa0, generalizedTime(nextUpdate)),
        encodeDer(0xa1, encodeDerSequence(...extensions)),
      )
    const parsed = parseOcspResponse(
      await ocspResponse({
        signer,
        responses: [
          singleWith(critical('1.2.3.6'), nonCritical('1.2.3.7')),
          singleWith(critical('1.2.3.6'), critical('1.3.6.1.5.5.7.48.1.2')),
        ],
        extensions: [critical('1.3.6.1.5.5.7.48.1.2'), critical('1.2.3.4'), nonCritical('1.2.3.5')],
      }),
    )
    // The nonce is understood in the response only; nextUpdate is still read beside [1].
    expect(parsed.unrecognizedCriticalExtensions).toEqual([
      '1.2.3.4',
      '1.2.3.6',
      '1.3.6.1.5.5.7.48.1.2',
    ])
    expect(parsed.responses.map((single) => single.nextUpdate)).toEqual([nextUpdate, nextUpdate])
    expect(parseOcspResponse(await ocspResponse({ signer, responses: [good] }))).toMatchObject({
      unrecognizedCriticalExtensions: [],
    })
    expect(
      refusal(
        withTbs(
          responseData({
            responses: [singleWith(nonCritical('1.2.3.7'), nonCritical('1.2.3.7'))],
            producedAt,
          }),
        ),
      ),
    ).toEqual({ reason: 'invalid-crl', message: 'a SingleResponse has extension 1.2.3.7 twice' })
  })

  it('reads certificates sent in order, and an empty response list', async () => {
    const other = await createCertificate({ commonName: 'Other' })
    const parsed = parseOcspResponse(
      await ocspResponse({ signer, responses: [], certificates: [responder.der, other.der] }),
    )
    expect(parsed.responses).toEqual([])
    expect(parsed.certificates.map((certificate) => certificate.subject)).toEqual([
      'CN=Responder',
      'CN=Other',
    ])
  })

  it('keeps an unsupported signature algorithm as undefined, its signature as sent', () => {
    const parsed = parseOcspResponse(
      basicWith(
        responseData({ responses: [good], producedAt }),
        encodeDerSequence(encodeDerOid('1.2.3.4')),
        bitString(Uint8Array.of(9, 8, 7)),
      ),
    )
    expect(parsed.signatureAlgorithm).toBeUndefined()
    expect(parsed.signature).toEqual(Uint8Array.of(9, 8, 7))
  })

  it.each([
    ['tryLater', Uint8Array.of(3), 'the OCSP responder answered with status 3 (not successful)'],
    [
      'unauthorized',
      Uint8Array.of(6),
      'the OCSP responder answered with status 6 (not successful)',
    ],
    [
      'two octets',
      Uint8Array.of(0, 0),
      'the OCSP responder answered with status 0 (not successful)',
    ],
    ['no octet', new Uint8Array(), 'the OCSP responder answered with status ? (not successful)'],
  ])('refuses a response status other than successful (%s)', (_name, status, message) => {
    expect(refusal(encodeDerSequence(encodeDer(0x0a, status)))).toEqual({
      reason: 'invalid-crl',
      message,
    })
  })

  const basic = encodeDerSequence(
    encodeDerOid('1.3.6.1.5.5.7.48.1.1'),
    octetString(new Uint8Array()),
  )
  const successful = encodeDer(0x0a, Uint8Array.of(0))
  it.each([
    [
      'not a SEQUENCE',
      encodeDer(0x31, new Uint8Array()),
      'the OCSP response has tag 0x31, expected 0x30',
    ],
    ['empty', encodeDerSequence(), 'the OCSP response status is missing'],
    [
      'an INTEGER status',
      encodeDerSequence(integer(0)),
      'the OCSP response status has tag 0x02, expected 0x0a',
    ],
    ['no responseBytes', encodeDerSequence(successful), 'responseBytes is missing'],
    [
      'responseBytes not [0]',
      encodeDerSequence(successful, encodeDer(0xa1, basic)),
      'responseBytes has tag 0xa1, expected 0xa0',
    ],
    [
      'responseBytes not a SEQUENCE',
      encodeDerSequence(successful, encodeDer(0xa0, octetString(new Uint8Array()))),
      'responseBytes has tag 0x04, expected 0x30',
    ],
    [
      'a response type that is no OID',
      encodeDerSequence(successful, encodeDer(0xa0, encodeDerSequence(integer(1)))),
      'the response type has tag 0x02, expected 0x06',
    ],
    [
      'another response type',
      successfulResponse(new Uint8Array(), '1.3.6.1.5.5.7.48.1.2'),
      'the OCSP response type 1.3.6.1.5.5.7.48.1.2 is not basic',
    ],
    [
      'the response not in an OCTET STRING',
      encodeDerSequence(
        successful,
        encodeDer(
          0xa0,
          encodeDerSequence(encodeDerOid('1.3.6.1.5.5.7.48.1.1'), encodeDerSequence()),
        ),
      ),
      'the response has tag 0x30, expected 0x04',
    ],
    [
      'a BasicOCSPResponse that is not a SEQUENCE',
      successfulResponse(integer(1)),
      'BasicOCSPResponse has tag 0x02, expected 0x30',
    ],
    ['an empty BasicOCSPResponse', basicWith(), 'the OCSP signature algorithm is missing'],
    [
      'no signature',
      basicWith(encodeDerSequence(), ecdsaWithSha256Algorithm),
      'the OCSP signature is missing',
    ],
    [
      'a signature that is not a BIT STRING',
      basicWith(encodeDerSequence(), ecdsaWithSha256Algorithm, octetString(Uint8Array.of(1))),
      'the OCSP signature has tag 0x04, expected 0x03',
    ],
    [
      'an empty signature BIT STRING',
      basicWith(encodeDerSequence(), ecdsaWithSha256Algorithm, encodeDer(0x03, new Uint8Array())),
      'the OCSP signature is an empty BIT STRING',
    ],
    [
      'certs not [0]',
      basicWith(
        encodeDerSequence(),
        ecdsaWithSha256Algorithm,
        dummySignature,
        encodeDer(0xa1, encodeDerSequence()),
      ),
      'certs has tag 0xa1, expected 0xa0',
    ],
    [
      'an empty certs',
      basicWith(
        encodeDerSequence(),
        ecdsaWithSha256Algorithm,
        dummySignature,
        encodeDer(0xa0, new Uint8Array()),
      ),
      'certs is missing',
    ],
    [
      'certs that are not a SEQUENCE',
      basicWith(
        encodeDerSequence(),
        ecdsaWithSha256Algorithm,
        dummySignature,
        encodeDer(0xa0, encodeDer(0x31, new Uint8Array())),
      ),
      'certs has tag 0x31, expected 0x30',
    ],
    [
      'tbsResponseData that is not a SEQUENCE',
      basicWith(integer(1), ecdsaWithSha256Algorithm, dummySignature),
      'tbsResponseData has tag 0x02, expected 0x30',
    ],
    ['no responderID', withTbs(encodeDerSequence()), 'the OCSP responderID is missing'],
    [
      'a responderID of another tag',
      withTbs(encodeDerSequence(encodeDer(0xa3, new Uint8Array()), generalizedTime(producedAt))),
      'the OCSP responderID is missing',
    ],
    [
      'a version and no responderID',
      withTbs(encodeDerSequence(encodeDer(0xa0, integer(0)))),
      'the OCSP responderID is missing',
    ],
    [
      'no producedAt',
      withTbs(encodeDerSequence(encodeDer(0xa1, encodeDerSequence()))),
      'producedAt is missing',
    ],
    [
      'a UTCTime producedAt',
      withTbs(encodeDerSequence(encodeDer(0xa1, encodeDerSequence()), utcTime(producedAt))),
      'producedAt has tag 0x17, expected 0x18',
    ],
    [
      'an invalid producedAt',
      withTbs(
        encodeDerSequence(
          encodeDer(0xa1, encodeDerSequence()),
          encodeDer(0x18, new TextEncoder().encode('20270101')),
        ),
      ),
      'producedAt is not a valid UTC time: "20270101"',
    ],
    [
      'no responses',
      withTbs(
        encodeDerSequence(encodeDer(0xa2, octetString(keyHash)), generalizedTime(producedAt)),
      ),
      'the OCSP responses is missing',
    ],
    [
      'a SingleResponse that is not a SEQUENCE',
      withTbs(responseData({ responses: [integer(1)], producedAt })),
      'a SingleResponse has tag 0x02, expected 0x30',
    ],
    ['a SingleResponse without CertID', withSingle(), 'a CertID is missing'],
    [
      'a CertID that is not a SEQUENCE',
      withSingle(integer(1)),
      'a CertID has tag 0x02, expected 0x30',
    ],
    ['a CertID without hash algorithm', withCertId(), 'the CertID hash algorithm is missing'],
    [
      'a CertID with an INTEGER hash algorithm',
      withCertId(integer(1)),
      'the CertID hash algorithm has tag 0x02, expected 0x30',
    ],
    [
      'a SingleResponse without certStatus',
      withSingle(certId),
      'a SingleResponse has no certStatus',
    ],
    [
      'a certStatus of another tag',
      withSingle(certId, encodeDer(0x83, new Uint8Array()), generalizedTime(thisUpdate)),
      'a SingleResponse has no certStatus',
    ],
    [
      'a constructed good',
      withSingle(certId, encodeDer(0xa0, new Uint8Array()), generalizedTime(thisUpdate)),
      'a SingleResponse has no certStatus',
    ],
    ['a CertID without issuerNameHash', withCertId(hashAlgorithm), 'issuerNameHash is missing'],
    [
      'an issuerNameHash that is not an OCTET STRING',
      withCertId(hashAlgorithm, integer(1), octetString(keyHash), integer(serial)),
      'issuerNameHash has tag 0x02, expected 0x04',
    ],
    [
      'an issuerKeyHash that is not an OCTET STRING',
      withCertId(hashAlgorithm, octetString(nameHash), integer(1), integer(serial)),
      'issuerKeyHash has tag 0x02, expected 0x04',
    ],
    [
      'a serial number that is not an INTEGER',
      withCertId(hashAlgorithm, octetString(nameHash), octetString(keyHash), octetString(serial)),
      'the CertID serial number has tag 0x04, expected 0x02',
    ],
    ['no thisUpdate', withSingle(certId, certStatus('good')), 'thisUpdate is missing'],
    [
      'a UTCTime thisUpdate',
      withSingle(certId, certStatus('good'), utcTime(thisUpdate)),
      'thisUpdate has tag 0x17, expected 0x18',
    ],
    [
      'an invalid thisUpdate',
      withSingle(certId, certStatus('good'), encodeDer(0x18, new TextEncoder().encode('2027'))),
      'thisUpdate is not a valid UTC time: "2027"',
    ],
    [
      'a UTCTime nextUpdate',
      withSingle(
        certId,
        certStatus('good'),
        generalizedTime(thisUpdate),
        encodeDer(0xa0, utcTime(nextUpdate)),
      ),
      'nextUpdate has tag 0x17, expected 0x18',
    ],
    [
      'an invalid nextUpdate',
      withSingle(
        certId,
        certStatus('good'),
        generalizedTime(thisUpdate),
        encodeDer(0xa0, encodeDer(0x18, new TextEncoder().encode('x'))),
      ),
      'nextUpdate is not a valid UTC time: "x"',
    ],
  ])('refuses %s', (_name, der, message) => {
    expect(refusal(der)).toEqual({ reason: 'invalid-crl', message })
  })

  it('refuses a response carrying the nonce twice, naming the response', () => {
    const twice = withTbs(
      responseData({
        responses: [good],
        producedAt,
        extensions: [
          nonceExtension(Uint8Array.of(4, 1, 1)),
          nonceExtension(Uint8Array.of(4, 1, 2)),
        ],
      }),
    )
    expect(refusal(twice)).toEqual({
      reason: 'invalid-crl',
      message: 'the OCSP response has extension 1.3.6.1.5.5.7.48.1.2 twice',
    })
  })

  it('refuses truncated DER inside the response with the same reason', () => {
    const truncated = concatBytes(Uint8Array.of(0x30, 0x03), Uint8Array.of(0x0a, 0x05, 0x00))
    expect(refusal(truncated).reason).toBe('invalid-crl')
    const child = encodeDerSequence(
      encodeDer(0x0a, Uint8Array.of(0)),
      Uint8Array.of(0xa0, 0x05, 0x30),
    )
    expect(refusal(child).reason).toBe('invalid-crl')
    expect(refusal(withTbs(encodeDerSequence(Uint8Array.of(0x04, 0x09, 0x00)))).reason).toBe(
      'invalid-crl',
    )
    expect(
      refusal(
        withTbs(
          responseData({
            responses: [encodeDerSequence(Uint8Array.of(0x30, 0x09, 0x00))],
            producedAt,
          }),
        ),
      ).reason,
    ).toBe('invalid-crl')
  })

  it('refuses a certificate in certs that is not one, with the certificate reason', () => {
    const der = basicWith(
      responseData({ responses: [good], producedAt }),
      ecdsaWithSha256Algorithm,
      dummySignature,
      encodeDer(0xa0, encodeDerSequence(encodeDerSequence(integer(1)))),
    )
    expect(refusal(der).reason).toBe('invalid-certificate')
  })
})
