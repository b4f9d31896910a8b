import { createPrivateKey, createPublicKey, sign, webcrypto, X509Certificate } from 'node:crypto'
import {
  CertificateChainError,
  ConfigurationError,
  type JwsSigner,
  type VerifyCertificateChainParams,
} from '@fhir-auth/core'
import {
  type CertificateAuthority,
  createCertificateAuthority,
  type IssuedCertificate,
  type IssuedCrl,
} from '@fhir-auth/test-pki/issuer'
import { importJWK } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { createNodeCryptoBackend } from '../src/index.js'
import {
  expectConfigurationError,
  expectCryptoError,
  joseJwk,
  rejectionOf,
  withFlippedByte,
} from './support/assertions.js'

const backend = createNodeCryptoBackend()
const notBefore = new Date('2025-01-01T00:00:00Z')
const notAfter = new Date('2045-01-01T00:00:00Z')
const at = new Date('2027-01-01T00:00:00Z')
const clientUri = 'https://client.example.test/app'

let root: CertificateAuthority
let otherRoot: CertificateAuthority
let intermediate: CertificateAuthority
let leaf: IssuedCertificate
let revokedLeaf: IssuedCertificate
let rootCrl: IssuedCrl
let intermediateCrl: IssuedCrl

beforeAll(async () => {
  root = await createCertificateAuthority({
    name: 'Node Root',
    keyType: 'p384',
    notBefore,
    notAfter,
  })
  otherRoot = await createCertificateAuthority({
    name: 'Node Root',
    keyType: 'p384',
    notBefore,
    notAfter,
  })
  // An RSA intermediate under an EC root: the chain exercises both signature schemes.
  intermediate = await createCertificateAuthority({
    name: 'Node Intermediate',
    keyType: 'rsa2048',
    issuer: root,
    notBefore,
    notAfter,
  })
  leaf = await intermediate.issue({
    commonName: 'client',
    sanUris: [clientUri],
    keyType: 'p256',
    notBefore,
    notAfter,
  })
  revokedLeaf = await intermediate.issue({
    commonName: 'revoked',
    sanUris: [clientUri],
    notBefore,
    notAfter,
  })
  rootCrl = root.crl({ thisUpdate: notBefore, nextUpdate: notAfter })
  intermediateCrl = intermediate.crl({
    revokedSerials: [revokedLeaf.serialNumber],
    thisUpdate: notBefore,
    nextUpdate: notAfter,
  })
})

function chainParams(
  overrides: Partial<VerifyCertificateChainParams> = {},
): VerifyCertificateChainParams {
  return {
    chain: [leaf.certificateDer, intermediate.certificateDer],
    trustAnchors: [root.certificateDer],
    crls: [rootCrl.crlDer, intermediateCrl.crlDer],
    at,
    ...overrides,
  }
}

describe('parseCertificate', () => {
  it('reads PEM, DER and X509Certificate alike', async () => {
    const forms = [
      leaf.certificatePem,
      leaf.certificateDer,
      new X509Certificate(leaf.certificateDer),
    ]
    for (const form of forms) {
      const info = await backend.parseCertificate(form)
      expect(info.der).toEqual(leaf.certificateDer)
      expect(info.subject).toContain('CN=client')
      expect(info.issuer).toContain('CN=Node Intermediate')
      expect(info.serialNumber).toBe(leaf.serialNumber)
      expect(info.subjectAltNameUris).toEqual([clientUri])
      expect(info.notBefore).toEqual(notBefore)
      expect(info.notAfter).toEqual(notAfter)
      expect(info.isCertificateAuthority).toBe(false)
      expect(info.publicKeySpki).toEqual(leaf.keyPair.spki)
    }
  })

  it('gives a public key JWK that jose imports and that matches the key', async () => {
    const info = await backend.parseCertificate(leaf.certificatePem)
    await importJWK(joseJwk(info.publicKeyJwk), 'ES256')
    const expected = createPublicKey(createPrivateKey(leaf.privateKeyPem)).export({ format: 'jwk' })
    expect(info.publicKeyJwk).toMatchObject({
      kty: 'EC',
      crv: 'P-256',
      x: expected.x,
      y: expected.y,
    })
  })

  it('returns the public CertificateInfo view, not the parser internals', async () => {
    const info = await backend.parseCertificate(leaf.certificateDer)
    expect(Object.keys(info).sort()).toEqual(
      [
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
      ].sort(),
    )
  })

  it('parses the same bytes once, and a caller changing a result cannot poison the cache', async () => {
    const first = await backend.parseCertificate(intermediate.certificateDer)
    const second = await backend.parseCertificate(intermediate.certificatePem)
    expect(second.der).toBe(first.der)
    // A caller scribbling over the bytes it was given.
    first.der.set(withFlippedByte(first.der, -1))
    const third = await backend.parseCertificate(intermediate.certificateDer)
    expect(third.der).toEqual(intermediate.certificateDer)
  })

  it('makes unreadable input an invalid-certificate error', async () => {
    const inputs: unknown[] = [
      'not a certificate',
      leaf.privateKeyPem,
      new Uint8Array([0x30, 0x03, 0x02, 0x01]),
      leaf.certificateDer.subarray(0, 100),
      42,
      null,
      {},
    ]
    for (const input of inputs) {
      await expectCryptoError(backend.parseCertificate(input as string), 'invalid-certificate')
    }
  })
})

describe('keyMatchesCertificate', () => {
  it('matches a key in any form with its certificate and not with another', async () => {
    const leafKey = createPrivateKey(leaf.privateKeyPem)
    expect(await backend.keyMatchesCertificate(leaf.privateKeyPem, leaf.certificatePem)).toBe(true)
    expect(
      await backend.keyMatchesCertificate(leafKey, new X509Certificate(leaf.certificateDer)),
    ).toBe(true)
    expect(
      await backend.keyMatchesCertificate(leafKey.export({ format: 'jwk' }), leaf.certificateDer),
    ).toBe(true)
    expect(
      await backend.keyMatchesCertificate(revokedLeaf.privateKeyPem, leaf.certificateDer),
    ).toBe(false)
    // Another key type altogether.
    expect(
      await backend.keyMatchesCertificate(intermediate.privateKeyPem, leaf.certificateDer),
    ).toBe(false)
  })

  it('matches a WebCrypto key whatever hash it was imported for', async () => {
    const pkcs8 = createPrivateKey(intermediate.privateKeyPem).export({
      format: 'der',
      type: 'pkcs8',
    })
    const cryptoKey = await webcrypto.subtle.importKey(
      'pkcs8',
      pkcs8,
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-512' },
      false,
      ['sign'],
    )
    expect(await backend.keyMatchesCertificate(cryptoKey, intermediate.certificateDer)).toBe(true)
  })

  it('leaves node:crypto usable after comparing keys of different types', async () => {
    // Regression: Node 20's KeyObject.equals(RSA, EC) leaves an OpenSSL error queued that made
    // the next createPrivateKey fail.
    expect(
      await backend.keyMatchesCertificate(intermediate.privateKeyPem, leaf.certificateDer),
    ).toBe(false)
    const signer = await backend.importSigner(leaf.privateKeyPem, { profile: 'udap' })
    expect(signer.alg).toBe('ES256')
  })

  it('probes a JwsSigner with a signature', async () => {
    const signer = await backend.importSigner(leaf.privateKeyPem, { profile: 'udap' })
    const other = await backend.importSigner(revokedLeaf.privateKeyPem, { profile: 'udap' })
    expect(await backend.keyMatchesCertificate(signer, leaf.certificateDer)).toBe(true)
    expect(await backend.keyMatchesCertificate(other, leaf.certificateDer)).toBe(false)
  })

  it('accepts a signer that returns DER ECDSA signatures (as HSMs do)', async () => {
    const key = createPrivateKey(leaf.privateKeyPem)
    const derSigner: JwsSigner = {
      alg: 'ES256',
      sign: async (input) => new Uint8Array(sign('sha256', input, { key, dsaEncoding: 'der' })),
    }
    expect(await backend.keyMatchesCertificate(derSigner, leaf.certificateDer)).toBe(true)
  })

  it('reports a failing signer without its error text', async () => {
    const failing: JwsSigner = {
      alg: 'ES256',
      sign: async () => {
        throw new Error('HSM slot 3 PIN 1234 rejected')
      },
    }
    const error = await expectCryptoError(
      backend.keyMatchesCertificate(failing, leaf.certificateDer),
      'invalid-signature',
    )
    expect(error.message).not.toContain('1234')
    const empty: JwsSigner = { alg: 'ES256', sign: async () => new Uint8Array(0) }
    await expectCryptoError(
      backend.keyMatchesCertificate(empty, leaf.certificateDer),
      'invalid-signature',
    )
  })

  it('makes unreadable keys and certificates typed errors', async () => {
    await expectCryptoError(
      backend.keyMatchesCertificate('garbage', leaf.certificateDer),
      'invalid-key',
    )
    await expectCryptoError(
      backend.keyMatchesCertificate(leaf.privateKeyPem, 'garbage'),
      'invalid-certificate',
    )
  })
})

describe('verifyCertificateChain', () => {
  it('validates a leaf-first chain to the trust anchor with current CRLs', async () => {
    const verified = await backend.verifyCertificateChain(chainParams())
    expect(verified.leaf.serialNumber).toBe(leaf.serialNumber)
    expect(verified.leaf.subjectAltNameUris).toEqual([clientUri])
    expect(verified.path.map((certificate) => certificate.der)).toEqual([
      leaf.certificateDer,
      intermediate.certificateDer,
      root.certificateDer,
    ])
  })

  it('accepts PEM, X509Certificate objects and PEM CRLs, and a chain that includes the anchor', async () => {
    const verified = await backend.verifyCertificateChain(
      chainParams({
        chain: [
          leaf.certificatePem,
          new X509Certificate(intermediate.certificateDer),
          root.certificatePem,
        ],
        trustAnchors: [new X509Certificate(root.certificateDer)],
        crls: [rootCrl.crlPem, intermediateCrl.crlPem],
      }),
    )
    expect(verified.path).toHaveLength(3)
  })

  it('gives the same verdict when validating the same chain again (cached parses)', async () => {
    for (let round = 0; round < 3; round++) {
      const verified = await backend.verifyCertificateChain(chainParams())
      expect(verified.leaf.serialNumber).toBe(leaf.serialNumber)
    }
    const error = await rejectionOf(
      backend.verifyCertificateChain(
        chainParams({ chain: [revokedLeaf.certificateDer, intermediate.certificateDer] }),
      ),
    )
    expect((error as CertificateChainError).reason).toBe('revoked')
  })

  it('refuses with the policy’s reasons', async () => {
    const cases: [Partial<VerifyCertificateChainParams>, string][] = [
      [{ chain: [revokedLeaf.certificateDer, intermediate.certificateDer] }, 'revoked'],
      [{ crls: [] }, 'crl-missing'],
      [{ trustAnchors: [otherRoot.certificateDer] }, 'untrusted'],
      [{ at: new Date('2046-01-01T00:00:00Z') }, 'expired'],
      [{ at: new Date('2024-01-01T00:00:00Z') }, 'not-yet-valid'],
      [{ chain: [] }, 'no-path'],
      [{ chain: [intermediate.certificateDer, leaf.certificateDer] }, 'order'],
    ]
    for (const [overrides, reason] of cases) {
      const error = await rejectionOf(backend.verifyCertificateChain(chainParams(overrides)))
      expect(error).toBeInstanceOf(CertificateChainError)
      expect({ reason: (error as CertificateChainError).reason }).toEqual({ reason })
    }
  })

  it('makes malformed arguments typed errors', async () => {
    await expectConfigurationError(
      backend.verifyCertificateChain(undefined as unknown as VerifyCertificateChainParams),
      'params',
    )
    await expectConfigurationError(
      backend.verifyCertificateChain(
        chainParams({ chain: leaf.certificatePem as unknown as string[] }),
      ),
      'chain',
    )
    await expectConfigurationError(
      backend.verifyCertificateChain(
        chainParams({ trustAnchors: undefined as unknown as string[] }),
      ),
      'trustAnchors',
    )
    await expectConfigurationError(
      backend.verifyCertificateChain(chainParams({ crls: null as unknown as string[] })),
      'crls',
    )
    await expectConfigurationError(
      backend.verifyCertificateChain(chainParams({ at: new Date('nonsense') })),
      'at',
    )
    await expectConfigurationError(
      backend.verifyCertificateChain(chainParams({ at: '2027-01-01' as unknown as Date })),
      'at',
    )
    await expectCryptoError(
      backend.verifyCertificateChain(chainParams({ crls: ['not a CRL'] })),
      'invalid-crl',
    )
    await expectCryptoError(
      backend.verifyCertificateChain(chainParams({ crls: [42 as unknown as string] })),
      'invalid-crl',
    )
    await expectCryptoError(
      backend.verifyCertificateChain(chainParams({ chain: ['garbage'] })),
      'invalid-certificate',
    )
    const error = await rejectionOf(backend.verifyCertificateChain(chainParams({ chain: [{}] })))
    expect(error).not.toBeInstanceOf(ConfigurationError)
  })
})
