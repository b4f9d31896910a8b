import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  X509Certificate,
} from 'node:crypto'
import { readFileSync } from 'node:fs'
import { CryptoError } from '@fhir-auth/core'
import { certificateDer } from '@fhir-auth/core/backend'
import forge from 'node-forge'
import { describe, expect, it } from 'vitest'
import { createNodeCryptoBackend } from '../src/index.js'
import {
  expectCryptoError,
  rejectionOf,
  signAndVerifyWithJose,
  withFlippedByte,
} from './support/assertions.js'

const backend = createNodeCryptoBackend()
const fixtures = new URL('./fixtures/pkcs12/', import.meta.url)
const password = 'udap-test'
const unicodePassword = 'pässwörd-✓'

function fixtureBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(name, fixtures)))
}
function fixtureText(name: string): string {
  return readFileSync(new URL(name, fixtures), 'utf8')
}

const ecChain = () => [
  certificateDer(fixtureText('ec-leaf.pem')),
  certificateDer(fixtureText('ec-intermediate.pem')),
  certificateDer(fixtureText('ec-root.pem')),
]

describe('loadPkcs12: EC files in every encoding', () => {
  const files: [string, string, string][] = [
    ['ec-modern.p12', password, 'PBES2 AES-256-CBC, HMAC-SHA-256'],
    ['ec-3des.p12', password, 'legacy 3DES, HMAC-SHA-1'],
    ['ec-no-mac.p12', password, 'no MAC'],
    ['ec-unencrypted.p12', password, 'unencrypted bags'],
    ['ec-empty-password.p12', '', 'an empty password'],
    ['ec-unicode-password.p12', unicodePassword, 'a non-ASCII password (PBES2 takes UTF-8)'],
    [
      'ec-unicode-password-3des.p12',
      unicodePassword,
      'a non-ASCII password (PKCS#12 PBE takes BMP)',
    ],
  ]
  for (const [file, filePassword, description] of files) {
    it(`opens ${file} (${description}) with the leaf first and the chain in issuer order`, async () => {
      const contents = await backend.loadPkcs12(fixtureBytes(file), filePassword)
      // Bag order in the file is leaf, root, intermediate.
      expect(contents.certificateChain).toEqual(ecChain())
      const expectedKey = createPrivateKey(fixtureText('ec-leaf.key'))
      expect(createPublicKey(contents.privateKey).equals(createPublicKey(expectedKey))).toBe(true)
    })
  }

  it('gives a key that signs ES256 with the certificate chain as x5c', async () => {
    const contents = await backend.loadPkcs12(fixtureBytes('ec-modern.p12'), password)
    const signer = await backend.importSigner(contents.privateKey, {
      profile: 'udap',
      certificateChain: contents.certificateChain,
    })
    expect(signer.alg).toBe('ES256')
    expect(signer.certificateChain).toEqual(ecChain())
    const leaf = new X509Certificate(contents.certificateChain[0] ?? new Uint8Array())
    await signAndVerifyWithJose(signer, leaf.publicKey.export({ format: 'jwk' }))
    expect(await backend.keyMatchesCertificate(contents.privateKey, leaf)).toBe(true)
  })
})

describe('loadPkcs12: RSA files', () => {
  for (const file of ['rsa-modern.p12', 'rsa-legacy-rc2.p12']) {
    it(`opens ${file}, keeping the certificate byte for byte`, async () => {
      const contents = await backend.loadPkcs12(fixtureBytes(file), password)
      expect(contents.certificateChain).toEqual([certificateDer(fixtureText('rsa-leaf.pem'))])
      expect(contents.privateKey.asymmetricKeyType).toBe('rsa')
      const signer = await backend.importSigner(contents.privateKey, { profile: 'smart' })
      expect(signer.alg).toBe('RS384')
    })
  }

  it('opens a file written by node-forge itself (3DES)', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const forgeKey = forge.pki.privateKeyFromPem(
      privateKey.export({ format: 'pem', type: 'pkcs1' }).toString(),
    )
    const forgeCertificate = selfSignedForgeCertificate(forgeKey)
    const der = pkcs12Der(forgeKey, [forgeCertificate], 'forge-pass')
    const contents = await backend.loadPkcs12(der, 'forge-pass')
    expect(createPublicKey(contents.privateKey).equals(createPublicKey(privateKey))).toBe(true)
    expect(contents.certificateChain).toHaveLength(1)
  })
})

describe('loadPkcs12: failures', () => {
  it('reports a wrong password without revealing it (MAC files)', async () => {
    for (const file of ['ec-modern.p12', 'ec-3des.p12', 'rsa-legacy-rc2.p12']) {
      const error = await expectCryptoError(
        backend.loadPkcs12(fixtureBytes(file), 'not-the-password'),
        'pkcs12-password',
      )
      expect(error.message).not.toContain('not-the-password')
    }
  })

  it('reports a wrong password for a file without a MAC (decryption fails)', async () => {
    await expectCryptoError(
      backend.loadPkcs12(fixtureBytes('ec-no-mac.p12'), 'wrong'),
      'pkcs12-password',
    )
  })

  it('reports a wrong password for a non-empty password on an empty-password file', async () => {
    await expectCryptoError(
      backend.loadPkcs12(fixtureBytes('ec-empty-password.p12'), 'x'),
      'pkcs12-password',
    )
  })

  it('reports encryption it cannot decrypt (128-bit RC2) as unsupported', async () => {
    const error = await expectCryptoError(
      backend.loadPkcs12(fixtureBytes('rsa-rc2-128.p12'), password),
      'pkcs12-unsupported-encryption',
    )
    expect(error.message).toContain('RC2')
  })

  it('refuses files without a key, without a certificate, or without a certificate for the key', async () => {
    await expectCryptoError(
      backend.loadPkcs12(fixtureBytes('rsa-certificate-only.p12'), password),
      'pkcs12-invalid',
    )
    await expectCryptoError(
      backend.loadPkcs12(fixtureBytes('rsa-key-only.p12'), password),
      'pkcs12-invalid',
    )
    const strangerKey = forge.pki.privateKeyFromPem(
      generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ format: 'pem', type: 'pkcs1' })
        .toString(),
    )
    const certificate = forge.pki.certificateFromPem(fixtureText('rsa-leaf.pem'))
    const mismatched = pkcs12Der(strangerKey, [certificate], password)
    const error = await expectCryptoError(
      backend.loadPkcs12(mismatched, password),
      'pkcs12-invalid',
    )
    expect(error.message).toContain('matches')
  })

  it('refuses input that is not a PKCS#12 file', async () => {
    const inputs = [
      new Uint8Array(0),
      new Uint8Array([1, 2, 3, 4]),
      new TextEncoder().encode(fixtureText('ec-leaf.pem')),
      certificateDer(fixtureText('ec-leaf.pem')),
      fixtureBytes('ec-modern.p12').subarray(0, 600),
    ]
    for (const input of inputs) {
      await expectCryptoError(backend.loadPkcs12(input, password), 'pkcs12-invalid')
    }
  })

  it('reports a corrupted MAC-protected file as a password or integrity failure', async () => {
    const corrupted = withFlippedByte(fixtureBytes('ec-modern.p12'), 200)
    const error = await rejectionOf(backend.loadPkcs12(corrupted, password))
    expect(['pkcs12-password', 'pkcs12-invalid']).toContain((error as { reason?: unknown }).reason)
  })

  it('checks argument types', async () => {
    await expectCryptoError(
      backend.loadPkcs12('MIIB' as unknown as Uint8Array, password),
      'pkcs12-invalid',
    )
    const error = await rejectionOf(
      backend.loadPkcs12(fixtureBytes('ec-modern.p12'), 12345 as unknown as string),
    )
    expect(error).toBeInstanceOf(CryptoError)
    expect((error as CryptoError).reason).toBe('pkcs12-password')
    expect((error as CryptoError).message).not.toContain('12345')
  })
})

function selfSignedForgeCertificate(key: forge.pki.rsa.PrivateKey): forge.pki.Certificate {
  const certificate = forge.pki.createCertificate()
  certificate.publicKey = forge.pki.setRsaPublicKey(key.n, key.e)
  certificate.serialNumber = '01'
  certificate.validity.notBefore = new Date('2025-01-01T00:00:00Z')
  certificate.validity.notAfter = new Date('2045-01-01T00:00:00Z')
  const name = [{ name: 'commonName', value: 'forge-made' }]
  certificate.setSubject(name)
  certificate.setIssuer(name)
  certificate.sign(key, forge.md.sha256.create())
  return certificate
}

function pkcs12Der(
  key: forge.pki.rsa.PrivateKey,
  certificates: forge.pki.Certificate[],
  filePassword: string,
): Uint8Array {
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, certificates, filePassword, { algorithm: '3des' })
  return new Uint8Array(Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'latin1'))
}
