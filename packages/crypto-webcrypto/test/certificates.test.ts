import { CertificateChainError, ConfigurationError, CryptoError } from '@fhir-auth/core'
import {
  orderCertificateChain as orderChain,
  parseCertificate as parseCertificateInternal,
} from '@fhir-auth/core/backend'
import { describe, expect, it } from 'vitest'
import { createWebCryptoBackend } from '../src/index.js'
import {
  caCertificate,
  caCrl,
  clientEc256Certificate,
  clientEc384Certificate,
  clientRsaCertificate,
} from './fixtures/webcrypto-fixtures.js'
import { pemBody, rejectionOf } from './helpers/keys.js'

const backend = createWebCryptoBackend()

describe('parseCertificate', () => {
  it('reads PEM, DER and a pkijs-style certificate object alike', async () => {
    const der = pemBody(clientRsaCertificate, 'CERTIFICATE')
    const nativeLike = { toSchema: () => ({ toBER: () => der.slice().buffer }) }
    const fromPem = await backend.parseCertificate(clientRsaCertificate)
    const fromDer = await backend.parseCertificate(der)
    const fromObject = await backend.parseCertificate(nativeLike)
    expect(fromPem.subjectAltNameUris).toEqual(['https://client.example.test/rsa'])
    expect(fromPem.subject).toBe('CN=client-rsa')
    expect(fromPem.issuer).toBe('CN=WebCrypto Test Root')
    expect(fromPem.publicKeyJwk.kty).toBe('RSA')
    expect(fromPem.isCertificateAuthority).toBe(false)
    expect(fromDer).toEqual(fromPem)
    expect(fromObject).toEqual(fromPem)
  })

  it('returns exactly the public CertificateInfo members', async () => {
    const info = await backend.parseCertificate(clientEc256Certificate)
    expect(Object.keys(info).sort()).toEqual([
      'der',
      'isCertificateAuthority',
      'issuer',
      'notAfter',
      'notBefore',
      'publicKeyJwk',
      'publicKeySpki',
      'serialNumber',
      'subject',
      'subjectAltNameUris',
    ])
    expect(info.publicKeyJwk.crv).toBe('P-256')
  })

  it.each([
    ['garbage text', 'not a certificate'],
    ['truncated DER', new Uint8Array([0x30, 0x82, 0x01])],
    ['an ArrayBuffer', new ArrayBuffer(4)],
    ['a number', 7],
    [
      'an object whose toSchema throws',
      {
        toSchema: () => {
          throw new Error('boom')
        },
      },
    ],
  ])('refuses %s with invalid-certificate', async (_, input) => {
    const error = await rejectionOf(backend.parseCertificate(input as never))
    expect(error).toBeInstanceOf(CryptoError)
    expect((error as CryptoError).reason).toBe('invalid-certificate')
  })
})

describe('verifyCertificateChain', () => {
  const leaf = parseCertificateInternal(pemBody(clientRsaCertificate, 'CERTIFICATE'))
  const at = new Date(leaf.notBefore.getTime() + 24 * 3600 * 1000)

  it('validates an RSA leaf under an EC P-384 root with a current CRL', async () => {
    const verified = await backend.verifyCertificateChain({
      chain: [clientRsaCertificate],
      trustAnchors: [caCertificate],
      crls: [caCrl],
      at,
    })
    expect(verified.leaf.subject).toBe('CN=client-rsa')
    expect(verified.path.map((certificate) => certificate.subject)).toEqual([
      'CN=client-rsa',
      'CN=WebCrypto Test Root',
    ])
  })

  it('validates EC leaves, the root included at the end of the chain', async () => {
    for (const certificate of [clientEc256Certificate, clientEc384Certificate]) {
      const verified = await backend.verifyCertificateChain({
        chain: [certificate, caCertificate],
        trustAnchors: [caCertificate],
        crls: [caCrl],
        at,
      })
      expect(verified.path).toHaveLength(2)
    }
  })

  it('fails closed without a CRL', async () => {
    const error = await rejectionOf(
      backend.verifyCertificateChain({
        chain: [clientRsaCertificate],
        trustAnchors: [caCertificate],
        crls: [],
        at,
      }),
    )
    expect(error).toBeInstanceOf(CertificateChainError)
    expect((error as CertificateChainError).reason).toBe('crl-missing')
  })

  it('reports an expired path after the certificates end', async () => {
    const error = await rejectionOf(
      backend.verifyCertificateChain({
        chain: [clientRsaCertificate],
        trustAnchors: [caCertificate],
        crls: [caCrl],
        at: new Date(leaf.notAfter.getTime() + 1000),
      }),
    )
    expect((error as CertificateChainError).reason).toBe('expired')
  })

  it('reports untrusted when the chain ends at a root that is not an anchor', async () => {
    const error = await rejectionOf(
      backend.verifyCertificateChain({
        chain: [clientRsaCertificate, caCertificate],
        trustAnchors: [],
        crls: [caCrl],
        at,
      }),
    )
    expect((error as CertificateChainError).reason).toBe('untrusted')
  })

  it.each([
    ['chain', { chain: 'x' }],
    ['trustAnchors', { trustAnchors: undefined }],
    ['crls', { crls: {} }],
    ['at', { at: new Date(Number.NaN) }],
  ])(
    'refuses a malformed %s parameter as a ConfigurationError naming it',
    async (name, override) => {
      const error = await rejectionOf(
        backend.verifyCertificateChain({
          chain: [clientRsaCertificate],
          trustAnchors: [caCertificate],
          crls: [caCrl],
          at,
          ...override,
        } as never),
      )
      // Both backends: a caller's wrong type is a ConfigurationError, not a verdict on a chain.
      expect(error).toBeInstanceOf(ConfigurationError)
      expect((error as ConfigurationError).invalidAttribute).toBe(name)
    },
  )

  it('refuses missing parameters as a ConfigurationError on params', async () => {
    const error = await rejectionOf(backend.verifyCertificateChain(undefined as never))
    expect(error).toBeInstanceOf(ConfigurationError)
    expect((error as ConfigurationError).invalidAttribute).toBe('params')
  })

  it('refuses a CRL that does not parse with invalid-crl', async () => {
    const error = await rejectionOf(
      backend.verifyCertificateChain({
        chain: [clientRsaCertificate],
        trustAnchors: [caCertificate],
        crls: ['not a CRL'],
        at,
      }),
    )
    expect((error as CryptoError).reason).toBe('invalid-crl')
  })
})

describe("core's orderCertificateChain, as this backend's loadPkcs12 uses it", () => {
  const parse = (pem: string) => parseCertificateInternal(pemBody(pem, 'CERTIFICATE'))

  it('orders by issuer linkage, leaving out certificates not on the path', () => {
    const leaf = parse(clientRsaCertificate)
    const root = parse(caCertificate)
    const unrelated = parse(clientEc256Certificate)
    const ordered = orderChain(leaf, [root, unrelated, leaf])
    expect(ordered.map((certificate) => certificate.subject)).toEqual([
      'CN=client-rsa',
      'CN=WebCrypto Test Root',
    ])
  })

  it('stops at a self-issued root', () => {
    const root = parse(caCertificate)
    expect(orderChain(root, [root, parse(clientRsaCertificate)])).toEqual([root])
  })
})
