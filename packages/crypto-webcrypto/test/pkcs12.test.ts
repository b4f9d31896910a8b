import { CryptoError } from '@fhir-auth/core'
import { parseCertificate } from '@fhir-auth/core/backend'
import { describe, expect, it } from 'vitest'
import { createWebCryptoBackend } from '../src/index.js'
import {
  caCertificate,
  certsOnlyPkcs12,
  clientEc256Certificate,
  clientEc384Certificate,
  clientRsaCertificate,
  ec256Aes128Pkcs12,
  ec384NomacPkcs12,
  fixturePassword,
  keyOnlyPkcs12,
  rsa3desPkcs12,
  rsaAesPkcs12,
  rsaUnencryptedCertsPkcs12,
} from './fixtures/webcrypto-fixtures.js'
import { fromBase64, pemBody, rejectionOf } from './helpers/keys.js'

const backend = createWebCryptoBackend()
const subjectsOf = (chain: readonly Uint8Array[]) =>
  chain.map((der) => parseCertificate(der).subject)

async function reasonOf(data: Uint8Array, password: string): Promise<string> {
  const error = await rejectionOf(backend.loadPkcs12(data, password))
  expect(error).toBeInstanceOf(CryptoError)
  // The password must never appear in what the caller sees.
  if (password.length > 0) expect(String((error as Error).message)).not.toContain(password)
  expect((error as Error).cause).toBeUndefined()
  return (error as CryptoError).reason
}

describe('loadPkcs12 with PBES2 (AES-CBC) files', () => {
  it.each([
    [
      'RSA, AES-256, SHA-256 MAC',
      rsaAesPkcs12,
      clientRsaCertificate,
      ['CN=client-rsa', 'CN=WebCrypto Test Root'],
      'RS256',
    ],
    [
      'EC P-256, AES-128, SHA-1 MAC',
      ec256Aes128Pkcs12,
      clientEc256Certificate,
      ['CN=client-ec256', 'CN=WebCrypto Test Root'],
      'ES256',
    ],
    [
      'EC P-384, no MAC',
      ec384NomacPkcs12,
      clientEc384Certificate,
      ['CN=client-ec384', 'CN=WebCrypto Test Root'],
      'ES384',
    ],
    [
      'RSA, unencrypted certificates',
      rsaUnencryptedCertsPkcs12,
      clientRsaCertificate,
      ['CN=client-rsa'],
      'RS256',
    ],
  ])('opens %s: key plus leaf-first chain', async (_, file, leafPem, subjects, alg) => {
    const contents = await backend.loadPkcs12(fromBase64(file), fixturePassword)
    expect(subjectsOf(contents.certificateChain)).toEqual(subjects)
    expect(contents.certificateChain[0]).toEqual(pemBody(leafPem, 'CERTIFICATE'))
    expect(await backend.keyMatchesCertificate(contents.privateKey, leafPem)).toBe(true)
    const signer = await backend.importSigner(contents.privateKey, {
      profile: 'udap',
      certificateChain: contents.certificateChain,
    })
    expect(signer.alg).toBe(alg)
    expect(signer.certificateChain).toHaveLength(subjects.length)
  })

  it('returns the key as PKCS#8 PEM, usable for any algorithm the key allows', async () => {
    const { privateKey } = await backend.loadPkcs12(fromBase64(rsaAesPkcs12), fixturePassword)
    expect(typeof privateKey).toBe('string')
    expect(privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----/)
    expect((await backend.importSigner(privateKey, { profile: 'smart' })).alg).toBe('RS384')
  })

  it('accepts a copy that is a view into a larger buffer', async () => {
    const bytes = fromBase64(ec256Aes128Pkcs12)
    const padded = new Uint8Array(bytes.length + 16)
    padded.set(bytes, 8)
    const contents = await backend.loadPkcs12(padded.subarray(8, 8 + bytes.length), fixturePassword)
    expect(contents.certificateChain).toHaveLength(2)
  })
})

describe('loadPkcs12 failures', () => {
  it('refuses legacy 3DES files with pkcs12-unsupported-encryption, whatever the password', async () => {
    const data = fromBase64(rsa3desPkcs12)
    expect(await reasonOf(data, fixturePassword)).toBe('pkcs12-unsupported-encryption')
    expect(await reasonOf(data, 'wrong password')).toBe('pkcs12-unsupported-encryption')
    const error = await rejectionOf(backend.loadPkcs12(data, fixturePassword))
    expect((error as Error).message).toContain('pbeWithSHAAnd3-KeyTripleDES-CBC')
    expect((error as Error).message).toContain('@fhir-auth/crypto-node')
    expect((error as Error).message).toContain('AES')
  })

  it('reports a wrong password through the MAC as pkcs12-password', async () => {
    expect(await reasonOf(fromBase64(rsaAesPkcs12), 'wrong password')).toBe('pkcs12-password')
    expect(await reasonOf(fromBase64(ec256Aes128Pkcs12), '')).toBe('pkcs12-password')
  })

  it('reports a wrong password on a file without MAC as pkcs12-password', async () => {
    expect(await reasonOf(fromBase64(ec384NomacPkcs12), 'wrong password')).toBe('pkcs12-password')
  })

  it('treats a password that differs only in Unicode as wrong', async () => {
    const asciiOnly = fixturePassword.normalize('NFD')
    expect(asciiOnly).not.toBe(fixturePassword)
    expect(await reasonOf(fromBase64(rsaAesPkcs12), asciiOnly)).toBe('pkcs12-password')
  })

  it('reports a corrupted file as pkcs12-password or pkcs12-invalid, never a raw error', async () => {
    const data = fromBase64(rsaAesPkcs12)
    data[data.length - 40] = (data[data.length - 40] ?? 0) ^ 0xff
    expect(['pkcs12-password', 'pkcs12-invalid']).toContain(await reasonOf(data, fixturePassword))
  })

  it.each([
    ['random bytes', new Uint8Array([1, 2, 3, 4, 5])],
    ['a certificate', pemBody(caCertificate, 'CERTIFICATE')],
    ['empty data', new Uint8Array()],
  ])('refuses %s with pkcs12-invalid', async (_, data) => {
    expect(await reasonOf(data, fixturePassword)).toBe('pkcs12-invalid')
  })

  it('refuses a file without a private key or without a certificate', async () => {
    expect(await reasonOf(fromBase64(certsOnlyPkcs12), fixturePassword)).toBe('pkcs12-invalid')
    expect(await reasonOf(fromBase64(keyOnlyPkcs12), fixturePassword)).toBe('pkcs12-invalid')
    const error = await rejectionOf(
      backend.loadPkcs12(fromBase64(certsOnlyPkcs12), fixturePassword),
    )
    expect((error as Error).message).toContain('no private key')
  })

  it('refuses data and passwords of the wrong type', async () => {
    expect(await reasonOf('text' as never, fixturePassword)).toBe('pkcs12-invalid')
    const error = await rejectionOf(backend.loadPkcs12(fromBase64(rsaAesPkcs12), 42 as never))
    expect((error as CryptoError).reason).toBe('pkcs12-password')
  })
})
