/**
 * The OCSP request side: the SHA-1 `CertID` of a certificate (RFC 6960 §4.1.1), checked against
 * hashes computed here with WebCrypto, the DER request around it, and CertID comparison.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { CryptoError } from '../../../src/errors/crypto-error.js'
import { parseCertificate } from '../../../src/x509/certificate.js'
import { encodeDer, encodeDerSequence } from '../../../src/x509/der.js'
import { encodeDerOid } from '../../../src/x509/object-identifier.js'
import {
  encodeOcspRequest,
  ocspCertificateId,
  ocspNonceOctets,
  ocspNonceOid,
  ocspRequestNonce,
  sameCertificateId,
  sha1Oid,
} from '../../../src/x509/revocation-online/ocsp-request.js'
import { withTbsFields } from '../fixtures/certificate-surgery.js'
import { certIdDer, certIdParts } from '../fixtures/ocsp-responses.js'
import {
  createCertificate,
  integer,
  octetString,
  type TestCertificate,
} from '../fixtures/online-pki.js'

let issuer: TestCertificate
let leaf: TestCertificate

beforeAll(async () => {
  issuer = await createCertificate({ commonName: 'OCSP Issuer', ca: true })
  // A serial whose first octet has its high bit set: DER writes a leading zero octet.
  leaf = await createCertificate({
    commonName: 'Leaf',
    issuer,
    serial: Uint8Array.of(0x00, 0x80, 0x01),
  })
})

function refusal(run: () => Promise<unknown>) {
  return run().then(
    () => {
      throw new Error('no refusal')
    },
    (error: unknown) => {
      if (!(error instanceof CryptoError)) throw error
      return { reason: error.reason, message: error.message }
    },
  )
}

describe('ocspCertificateId', () => {
  it('hashes the issuer name and key with SHA-1 and keeps the serial as encoded', async () => {
    const expected = await certIdParts(
      issuer.name,
      issuer.key.spki,
      Uint8Array.of(0x00, 0x80, 0x01),
    )
    const id = await ocspCertificateId(leaf.parsed, issuer.parsed)
    expect(id.issuerNameHash).toEqual(expected.issuerNameHash)
    expect(id.issuerKeyHash).toEqual(expected.issuerKeyHash)
    expect(id.serialNumber).toEqual(Uint8Array.of(0x00, 0x80, 0x01))
    expect(id.der).toEqual(certIdDer(expected))
    expect(sha1Oid).toBe('1.3.14.3.2.26')
  })

  it('finds the serial of a version 1 certificate, which has no [0] version', async () => {
    const v1 = await createCertificate({ commonName: 'V1', issuer, withoutKeyIds: true })
    const der = withTbsFields(v1.der, (fields) => [
      integer(Uint8Array.of(0x42)),
      ...fields.slice(2),
    ])
    const parsed = parseCertificate(der)
    expect(parsed.version).toBe(1)
    expect((await ocspCertificateId(parsed, issuer.parsed)).serialNumber).toEqual(
      Uint8Array.of(0x42),
    )
  })

  it('refuses an issuer key without its BIT STRING and a certificate without serial', async () => {
    const spki = encodeDerSequence(
      encodeDerSequence(encodeDerOid('1.2.840.10045.2.1')),
      octetString(Uint8Array.of(1)),
    )
    expect(
      await refusal(() =>
        ocspCertificateId(leaf.parsed, { ...issuer.parsed, publicKeySpki: spki }),
      ),
    ).toEqual({
      reason: 'invalid-certificate',
      message: 'subjectPublicKey has tag 0x04, expected 0x03',
    })
    const tbs = encodeDerSequence(octetString(Uint8Array.of(1)))
    expect(await refusal(() => ocspCertificateId({ ...leaf.parsed, tbs }, issuer.parsed))).toEqual({
      reason: 'invalid-certificate',
      message: 'the serial number has tag 0x04, expected 0x02',
    })
    expect(
      await refusal(() =>
        ocspCertificateId({ ...leaf.parsed, tbs: encodeDerSequence() }, issuer.parsed),
      ),
    ).toEqual({ reason: 'invalid-certificate', message: 'the serial number is missing' })
    const versionOnly = encodeDerSequence(
      new Uint8Array([0xa0, 0x03, 0x02, 0x01, 0x02]),
      octetString(Uint8Array.of(1)),
    )
    expect(
      await refusal(() => ocspCertificateId({ ...leaf.parsed, tbs: versionOnly }, issuer.parsed)),
    ).toEqual({
      reason: 'invalid-certificate',
      message: 'the serial number has tag 0x04, expected 0x02',
    })
  })
})

describe('encodeOcspRequest', () => {
  it('wraps the CertID as OCSPRequest { tbsRequest { requestList { Request { reqCert } } } }', async () => {
    const id = await ocspCertificateId(leaf.parsed, issuer.parsed)
    expect(encodeOcspRequest(id)).toEqual(
      encodeDerSequence(encodeDerSequence(encodeDerSequence(encodeDerSequence(id.der)))),
    )
  })

  it('carries a nonce as requestExtensions [2] { Extension { id-pkix-ocsp-nonce, extnValue } }', async () => {
    const id = await ocspCertificateId(leaf.parsed, issuer.parsed)
    const nonce = ocspRequestNonce()
    expect(ocspNonceOid).toBe('1.3.6.1.5.5.7.48.1.2')
    expect(encodeOcspRequest(id, nonce)).toEqual(
      encodeDerSequence(
        encodeDerSequence(
          encodeDerSequence(encodeDerSequence(id.der)),
          encodeDer(
            0xa2,
            encodeDerSequence(encodeDerSequence(encodeDerOid(ocspNonceOid), octetString(nonce))),
          ),
        ),
      ),
    )
  })
})

describe('ocspRequestNonce', () => {
  it('is a DER OCTET STRING of 32 fresh random octets', () => {
    expect(ocspNonceOctets).toBe(32)
    const first = ocspRequestNonce()
    const second = ocspRequestNonce()
    expect(Array.from(first.subarray(0, 2))).toEqual([0x04, 32])
    expect(first).toHaveLength(34)
    expect(second).toHaveLength(34)
    expect(first).not.toEqual(second)
  })
})

describe('sameCertificateId', () => {
  const id = {
    issuerNameHash: Uint8Array.of(1),
    issuerKeyHash: Uint8Array.of(2),
    serialNumber: Uint8Array.of(3),
  }
  it('is true only when both hashes and the serial are equal', () => {
    expect(sameCertificateId(id, { ...id })).toBe(true)
    expect(sameCertificateId(id, { ...id, issuerNameHash: Uint8Array.of(9) })).toBe(false)
    expect(sameCertificateId(id, { ...id, issuerKeyHash: Uint8Array.of(9) })).toBe(false)
    expect(sameCertificateId(id, { ...id, serialNumber: Uint8Array.of(9) })).toBe(false)
  })
})
