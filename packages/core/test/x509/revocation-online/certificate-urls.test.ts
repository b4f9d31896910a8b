/**
 * The URLs a certificate names for revocation and for its issuer: CRL distribution points
 * (`crlDistributionPointUris`, `isHttpUrl`), authority information access
 * (`authorityInformationAccess`) and extendedKeyUsage (`hasExtendedKeyUsage`). Only `http:` and
 * `https:` URLs are ever fetched; the rest is reported or skipped.
 */
import { describe, expect, it } from 'vitest'
import { CryptoError } from '../../../src/errors/crypto-error.js'
import {
  type DerElement,
  encodeDer,
  encodeDerSequence,
  readDerChildren,
  readDerDocument,
} from '../../../src/x509/der.js'
import { encodeDerOid } from '../../../src/x509/object-identifier.js'
import {
  authorityInformationAccess,
  hasExtendedKeyUsage,
} from '../../../src/x509/revocation-online/certificate-access.js'
import {
  crlDistributionPointUris,
  isHttpUrl,
} from '../../../src/x509/revocation-online/distribution-point-uris.js'
import {
  caIssuersMethod,
  clientAuth,
  commonName,
  createCertificate,
  distributionPoints,
  integer,
  ocspMethod,
  ocspSigning,
  uriName,
} from '../fixtures/online-pki.js'

function refusal(run: () => unknown) {
  try {
    run()
  } catch (error) {
    if (!(error instanceof CryptoError)) throw error
    return { reason: error.reason, message: error.message }
  }
  throw new Error('no refusal')
}

describe('crlDistributionPointUris', () => {
  it('splits the URI names into fetched (http, https) and others, in certificate order', async () => {
    const certificate = await createCertificate({
      commonName: 'Points',
      crlDistributionPointsValue: distributionPoints([
        uriName('ldap://ldap.example.test/cn=CA?certificateRevocationList'),
        uriName('http://crl.example.test/a.crl'),
        encodeDer(0xa4, commonName('Directory name')),
        uriName('file:///var/crl/ca.crl'),
        uriName('HTTPS://crl.example.test/b.crl'),
      ]),
    })
    expect(crlDistributionPointUris(certificate.parsed)).toEqual({
      fetchable: ['http://crl.example.test/a.crl', 'HTTPS://crl.example.test/b.crl'],
      other: ['ldap://ldap.example.test/cn=CA?certificateRevocationList', 'file:///var/crl/ca.crl'],
    })
  })

  it('is empty for a certificate without distribution points', async () => {
    const certificate = await createCertificate({ commonName: 'None' })
    expect(crlDistributionPointUris(certificate.parsed)).toEqual({ fetchable: [], other: [] })
  })

  it('refuses a name that is not DER', async () => {
    const certificate = await createCertificate({ commonName: 'Broken' })
    const parsed = { ...certificate.parsed, crlDistributionPointNames: [Uint8Array.of(0x86, 5)] }
    expect(refusal(() => crlDistributionPointUris(parsed)).reason).toBe('invalid-certificate')
  })
})

describe('isHttpUrl', () => {
  it.each([
    ['http://crl.example.test/ca.crl', true],
    ['https://crl.example.test/ca.crl', true],
    ['HTTP://CRL.EXAMPLE.TEST/', true],
    ['ldap://ldap.example.test/cn=CA', false],
    ['file:///var/crl/ca.crl', false],
    ['ftp://crl.example.test/ca.crl', false],
    ['crl.example.test/ca.crl', false],
    ['', false],
  ])('%s: %s', (uri, expected) => {
    expect(isHttpUrl(uri)).toBe(expected)
  })
})

describe('authorityInformationAccess', () => {
  it('lists the http and https OCSP responders and caIssuers, in certificate order', async () => {
    const certificate = await createCertificate({
      commonName: 'Access',
      authorityInfoAccessValue: encodeDerSequence(
        encodeDerSequence(encodeDerOid(caIssuersMethod), uriName('http://ca.example.test/1.cer')),
        encodeDerSequence(encodeDerOid(ocspMethod), uriName('http://ocsp.example.test/1')),
        encodeDerSequence(encodeDerOid(ocspMethod), uriName('ldap://ocsp.example.test/')),
        encodeDerSequence(encodeDerOid(ocspMethod), encodeDer(0xa4, commonName('Responder'))),
        // A dNSName that reads like a URL is still not a URI.
        encodeDerSequence(
          encodeDerOid(ocspMethod),
          encodeDer(0x82, new TextEncoder().encode('http://dns.example.test/')),
        ),
        encodeDerSequence(encodeDerOid(ocspMethod)),
        encodeDerSequence(
          encodeDerOid(ocspMethod),
          uriName('http://ocsp.example.test/extra'),
          uriName('http://ocsp.example.test/field'),
        ),
        encodeDerSequence(encodeDerOid('1.3.6.1.5.5.7.48.5'), uriName('http://repo.example.test/')),
        encodeDerSequence(encodeDerOid(caIssuersMethod), uriName('https://ca.example.test/2.p7c')),
        encodeDerSequence(encodeDerOid(ocspMethod), uriName('https://ocsp.example.test/2')),
      ),
    })
    expect(authorityInformationAccess(certificate.parsed)).toEqual({
      ocsp: ['http://ocsp.example.test/1', 'https://ocsp.example.test/2'],
      caIssuers: ['http://ca.example.test/1.cer', 'https://ca.example.test/2.p7c'],
    })
  })

  it('is empty without the extension or without any extension', async () => {
    const plain = await createCertificate({ commonName: 'Plain', extendedKeyUsage: [clientAuth] })
    expect(authorityInformationAccess(plain.parsed)).toEqual({ ocsp: [], caIssuers: [] })
    const bare = await createCertificate({ commonName: 'Bare', withoutKeyIds: true })
    expect(bare.parsed.version).toBe(3)
    expect(authorityInformationAccess(bare.parsed)).toEqual({ ocsp: [], caIssuers: [] })
    expect(hasExtendedKeyUsage(bare.parsed, ocspSigning)).toBe(false)
  })

  it.each([
    [
      'an extension that is not a SEQUENCE',
      integer(1),
      'authorityInfoAccess has tag 0x02, expected 0x30',
    ],
    [
      'a description that is not a SEQUENCE',
      encodeDerSequence(integer(1)),
      'an access description has tag 0x02, expected 0x30',
    ],
    [
      'an access method that is not an OID',
      encodeDerSequence(encodeDerSequence(integer(1), uriName('http://ocsp.example.test/'))),
      'an access method has tag 0x02, expected 0x06',
    ],
  ])('refuses %s', async (_name, value, message) => {
    const certificate = await createCertificate({
      commonName: 'Bad',
      authorityInfoAccessValue: value,
    })
    expect(refusal(() => authorityInformationAccess(certificate.parsed))).toEqual({
      reason: 'invalid-certificate',
      message,
    })
  })
})

describe('hasExtendedKeyUsage', () => {
  it('refuses a certificate whose extension list names one extension twice', async () => {
    // Only reachable through a parsed certificate with another TBS: the parser refuses it too.
    const certificate = await createCertificate({
      commonName: 'Twice',
      extendedKeyUsage: [clientAuth],
    })
    const fields = readDerChildren(readDerDocument(certificate.parsed.tbs))
    const extensions = fields[7] as DerElement
    const [list] = readDerChildren(extensions)
    const entries = readDerChildren(list as DerElement).map((entry) => entry.bytes)
    const tbs = encodeDerSequence(
      ...fields.slice(0, 7).map((field) => field.bytes),
      encodeDer(0xa3, encodeDerSequence(...entries, entries[entries.length - 1] as Uint8Array)),
    )
    expect(refusal(() => hasExtendedKeyUsage({ ...certificate.parsed, tbs }, ocspSigning))).toEqual(
      {
        reason: 'invalid-certificate',
        message: 'the certificate has extension 2.5.29.37 twice',
      },
    )
  })

  it('is true only when the extendedKeyUsage lists the purpose', async () => {
    const both = await createCertificate({
      commonName: 'Both',
      extendedKeyUsage: [clientAuth, ocspSigning],
    })
    expect(hasExtendedKeyUsage(both.parsed, ocspSigning)).toBe(true)
    const client = await createCertificate({ commonName: 'Client', extendedKeyUsage: [clientAuth] })
    expect(hasExtendedKeyUsage(client.parsed, ocspSigning)).toBe(false)
    const none = await createCertificate({ commonName: 'None' })
    expect(hasExtendedKeyUsage(none.parsed, ocspSigning)).toBe(false)
  })

  it('refuses a key purpose that is not an OID', async () => {
    const certificate = await createCertificate({ commonName: 'Bad' })
    // The parser validates extendedKeyUsage; the OCSP check reads the extension again from the
    // TBS bytes, so a malformed one is reached through a parsed certificate with another TBS
    // (an OID overwritten in place by an INTEGER of the same length).
    const bad = await createCertificate({
      commonName: 'Bad usage',
      extendedKeyUsageValue: encodeDerSequence(encodeDerOid(clientAuth)),
    })
    const tbs = bad.parsed.tbs.slice()
    const purpose = encodeDerOid(clientAuth)
    const at = indexOf(tbs, purpose)
    tbs.set(integer(Uint8Array.of(...new Array(purpose.length - 2).fill(1))), at)
    expect(refusal(() => hasExtendedKeyUsage({ ...certificate.parsed, tbs }, clientAuth))).toEqual({
      reason: 'invalid-certificate',
      message: 'a key purpose has tag 0x02, expected 0x06',
    })
    const notList = indexOf(
      tbs,
      encodeDerSequence(integer(Uint8Array.of(...new Array(purpose.length - 2).fill(1)))),
    )
    tbs[notList] = 0x31
    expect(refusal(() => hasExtendedKeyUsage({ ...certificate.parsed, tbs }, clientAuth))).toEqual({
      reason: 'invalid-certificate',
      message: 'extendedKeyUsage has tag 0x31, expected 0x30',
    })
  })
})

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  for (let start = 0; start + needle.length <= haystack.length; start++) {
    if (needle.every((byte, offset) => haystack[start + offset] === byte)) return start
  }
  throw new Error('not found')
}
