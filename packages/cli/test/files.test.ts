import { generateKeyPairSync } from 'node:crypto'
import { ConfigurationError } from '@fhir-auth/core'
import { testPki } from '@fhir-auth/test-pki'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  readCertificateFile,
  readCrlFile,
  readJsonObject,
  readPrivateKeyFile,
  readSecretFile,
} from '../src/files.js'
import { type TemporaryDirectory, temporaryDirectory } from './support/temporary-files.js'

let files: TemporaryDirectory
const leaf = testPki.leaves['ec-p256-client']

beforeAll(async () => {
  files = await temporaryDirectory()
})
afterAll(() => files.remove())

describe('readCertificateFile / readCrlFile', () => {
  it('returns every PEM block of a file in order, ignoring other text', async () => {
    const file = await files.write('chain.pem', `leaf:\n${leaf.chainPem}\n# trailing comment\n`)
    const certificates = await readCertificateFile(file, '--cert')
    expect(certificates).toHaveLength(leaf.chainDer.length)
    expect(certificates[0]).toBe(leaf.certificatePem.trim())
  })

  it('returns a DER file as its bytes', async () => {
    const file = await files.write('leaf.der', leaf.certificateDer)
    expect(await readCertificateFile(file, '--cert')).toEqual([leaf.certificateDer])
  })

  it('reads CRL blocks and refuses PEM text without the expected block', async () => {
    const crl = testPki.currentCrls[0]
    const crlFile = await files.write('one.crl.pem', crl?.pem ?? '')
    expect(await readCrlFile(crlFile, '--crl')).toHaveLength(1)
    const certificateFile = await files.write('not-a-crl.pem', leaf.certificatePem)
    await expect(readCrlFile(certificateFile, '--crl')).rejects.toThrow(
      `--crl file "${certificateFile}" has no PEM X509 CRL block`,
    )
  })

  it('names the flag and the file for a missing or empty file', async () => {
    await expect(readCertificateFile('/nonexistent/anchor.pem', '--trust-anchor')).rejects.toThrow(
      'cannot read --trust-anchor file "/nonexistent/anchor.pem": no such file',
    )
    const empty = await files.write('empty.pem', '')
    await expect(readCertificateFile(empty, '--cert')).rejects.toThrow(ConfigurationError)
    await expect(readCertificateFile(files.path, '--cert')).rejects.toThrow('it is a directory')
  })
})

describe('readPrivateKeyFile', () => {
  it('picks the key block out of a file that also holds certificates', async () => {
    const file = await files.write(
      'bundle.pem',
      `${leaf.certificatePem}\n${leaf.privateKeyTraditionalPem}`,
    )
    expect(await readPrivateKeyFile(file, '--key')).toBe(leaf.privateKeyTraditionalPem.trim())
  })

  it('turns a DER PKCS#8 key into PEM', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    const der = privateKey.export({ format: 'der', type: 'pkcs8' })
    const file = await files.write('key.der', der)
    const pem = await readPrivateKeyFile(file, '--key')
    expect(pem).toBe(privateKey.export({ format: 'pem', type: 'pkcs8' }))
  })

  it('refuses an encrypted key and a file without a key, never showing the contents', async () => {
    const encrypted = await files.write('encrypted.pem', testPki.encryptedPrivateKey.pem)
    await expect(readPrivateKeyFile(encrypted, '--key')).rejects.toThrow(
      'holds an encrypted private key: decrypt it, or use --pkcs12 with a password',
    )
    const certificate = await files.write('certificate.pem', leaf.certificatePem)
    await expect(readPrivateKeyFile(certificate, '--key')).rejects.toThrow(
      'has no PEM private key block',
    )
  })
})

describe('readJsonObject and readSecretFile', () => {
  it('takes inline JSON or a file, and refuses arrays and invalid JSON', async () => {
    expect(await readJsonObject(' {"a":1}', '--metadata')).toEqual({ a: 1 })
    const file = await files.write('metadata.json', '{"b":[2]}')
    expect(await readJsonObject(file, '--metadata')).toEqual({ b: [2] })
    const array = await files.write('array.json', '[1]')
    await expect(readJsonObject(array, '--metadata')).rejects.toThrow('must be a JSON object')
    await expect(readJsonObject('{oops', '--metadata')).rejects.toThrow(
      '--metadata is not valid JSON',
    )
  })

  it('drops one trailing line break from a secret file, and only one', async () => {
    const file = await files.write('password.txt', 'pass word\r\n')
    expect(await readSecretFile(file, '--password-file')).toBe('pass word')
    const twice = await files.write('password2.txt', 'secret\n\n')
    expect(await readSecretFile(twice, '--password-file')).toBe('secret\n')
  })
})
