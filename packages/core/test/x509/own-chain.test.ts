import { describe, expect, it } from 'vitest'
import { ConfigurationError } from '../../src/errors/configuration-error.js'
import { CertificateChainError } from '../../src/errors/crypto-error.js'
import { type ParsedCertificate, parseCertificate } from '../../src/x509/certificate.js'
import { certificateDer } from '../../src/x509/certificate-der.js'
import type { SignatureVerifier } from '../../src/x509/chain.js'
import { validateOwnCertificateChain } from '../../src/x509/chain.js'
import { decodePemBlocks } from '../../src/x509/pem.js'
import { openTestPkiFiles } from './fixtures/test-pki-files.js'
import { verifyWithWebCrypto } from './fixtures/webcrypto-keys.js'

const testPki = openTestPkiFiles()
const at = new Date(testPki.manifest.referenceTime)
const chainOf = (name: string) =>
  decodePemBlocks(testPki.text(`leaves/${name}/chain.pem`), 'CERTIFICATE').map(parseCertificate)
const authority = (name: string) =>
  parseCertificate(certificateDer(testPki.text(`authorities/${name}.pem`)))

async function reasonOf(
  chain: readonly ParsedCertificate[],
  when = at,
  verify: SignatureVerifier = verifyWithWebCrypto,
): Promise<string> {
  try {
    await validateOwnCertificateChain({ chain, at: when }, verify)
    return 'ok'
  } catch (error) {
    if (error instanceof CertificateChainError) return error.reason
    throw error
  }
}

describe('validateOwnCertificateChain', () => {
  it('accepts a valid client chain, with or without the root, and returns the leaf', async () => {
    const chain = chainOf('rsa-client')
    const leaf = await validateOwnCertificateChain({ chain, at }, verifyWithWebCrypto)
    expect(leaf).toBe(chain[0])
    expect(await reasonOf([...chain, authority('rsa-root')])).toBe('ok')
  })

  it('needs neither trust nor revocation: a revoked or untrusted chain passes', async () => {
    expect(await reasonOf(chainOf('revoked'))).toBe('ok')
    expect(await reasonOf(chainOf('untrusted'))).toBe('ok')
    expect(await reasonOf(chainOf('missing-issuer'))).toBe('ok')
  })

  it('checks order, signatures within the chain, CA flags and validity', async () => {
    expect(await reasonOf([])).toBe('no-path')
    expect(await reasonOf(chainOf('wrong-order'))).toBe('order')
    expect(await reasonOf(chainOf('bad-signature'))).toBe('bad-signature')
    expect(await reasonOf(chainOf('not-a-ca'))).toBe('not-a-ca')
    expect(await reasonOf(chainOf('expired'))).toBe('expired')
    expect(await reasonOf(chainOf('not-yet-valid'))).toBe('not-yet-valid')
    expect(await reasonOf(chainOf('rsa-client'), new Date('2046-01-01T00:00:00Z'))).toBe('expired')
  })

  it('verifies every certificate with the next one, but not the top one', async () => {
    const checked: Uint8Array[] = []
    const recording: SignatureVerifier = async (check) => {
      checked.push(check.data)
      return verifyWithWebCrypto(check)
    }
    const chain = [...chainOf('ec-p256-client'), authority('ec-root')]
    await validateOwnCertificateChain({ chain, at }, recording)
    expect(checked).toEqual([chain[0]?.tbs, chain[1]?.tbs])
  })

  it('fails closed when the verifier throws', async () => {
    expect(await reasonOf(chainOf('rsa-client'), at, () => Promise.reject(new Error('boom')))).toBe(
      'bad-signature',
    )
  })

  it('refuses an invalid time with ConfigurationError at', async () => {
    await expect(
      validateOwnCertificateChain(
        { chain: chainOf('rsa-client'), at: new Date('x') },
        verifyWithWebCrypto,
      ),
    ).rejects.toBeInstanceOf(ConfigurationError)
  })
})
