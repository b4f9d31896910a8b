/**
 * The revocation step of `validateCertificateChain` beyond the committed fixtures: the CRL
 * issuer's keyUsage, CRLs with critical extensions the policy does not understand, and the scope
 * an issuingDistributionPoint gives a CRL. CRLs are the committed ones with parsed fields
 * replaced (the policy reads the parsed form; their signatures still verify).
 */
import { describe, expect, it } from 'vitest'
import { CertificateChainError } from '../../src/errors/crypto-error.js'
import { type ParsedCertificate, parseCertificate } from '../../src/x509/certificate.js'
import { certificateDer, crlDer } from '../../src/x509/certificate-der.js'
import { type ChainValidationInput, validateCertificateChain } from '../../src/x509/chain.js'
import { type ParsedCrl, parseCrl } from '../../src/x509/crl.js'
import { encodeDer } from '../../src/x509/der.js'
import type { CrlScope } from '../../src/x509/distribution-points.js'
import { readKeyUsage } from '../../src/x509/key-usage.js'
import { decodePemBlocks } from '../../src/x509/pem.js'
import { openTestPkiFiles } from './fixtures/test-pki-files.js'
import { verifyWithWebCrypto } from './fixtures/webcrypto-keys.js'

const testPki = openTestPkiFiles()
const at = new Date(testPki.manifest.referenceTime)
const authority = (name: string) =>
  parseCertificate(certificateDer(testPki.text(`authorities/${name}.pem`)))
const crl = (name: string) => parseCrl(crlDer(testPki.text(`crls/${name}.crl.pem`)))

function input(overrides: Partial<ChainValidationInput> = {}): ChainValidationInput {
  return {
    chain: decodePemBlocks(testPki.text('leaves/rsa-client/chain.pem'), 'CERTIFICATE').map(
      parseCertificate,
    ),
    trustAnchors: [authority('rsa-root')],
    crls: [crl('rsa-intermediate'), crl('rsa-root')],
    at,
    ...overrides,
  }
}

async function refusal(value: ChainValidationInput) {
  try {
    await validateCertificateChain(value, verifyWithWebCrypto)
    return { reason: 'ok' }
  } catch (error) {
    if (!(error instanceof CertificateChainError)) throw error
    return { reason: error.reason, subject: error.subject, message: error.message }
  }
}

const scope = (overrides: Partial<CrlScope>): CrlScope => ({
  distributionPointNames: undefined,
  onlyUserCertificates: false,
  onlyCaCertificates: false,
  onlyAttributeCertificates: false,
  onlySomeReasons: false,
  indirect: false,
  ...overrides,
})

describe('revocation', () => {
  it('requires cRLSign of an issuer whose keyUsage is present, once it has CRLs', async () => {
    const base = input()
    const [leaf, intermediate] = base.chain as ParsedCertificate[]
    const withoutCrlSign: ParsedCertificate = {
      ...(intermediate as ParsedCertificate),
      keyUsage: readKeyUsage(encodeDer(0x03, Uint8Array.of(1, 0x84))),
    }
    const chain = [leaf as ParsedCertificate, withoutCrlSign]
    const outcome = await refusal({ ...base, chain })
    expect(outcome.reason).toBe('key-usage')
    expect(outcome.subject).toBe(intermediate?.subject)
    expect(outcome.message).toContain('lacks cRLSign')
    // No CRL from that issuer at all is still crl-missing.
    expect((await refusal({ ...base, chain, crls: [crl('rsa-root')] })).reason).toBe('crl-missing')
  })

  it('requires cRLSign of the anchor for the CRL it issued', async () => {
    const root = authority('rsa-root')
    const anchor: ParsedCertificate = {
      ...root,
      keyUsage: readKeyUsage(encodeDer(0x03, Uint8Array.of(2, 0x04))),
    }
    const outcome = await refusal(input({ trustAnchors: [anchor] }))
    expect(outcome).toMatchObject({ reason: 'key-usage', subject: root.subject })
  })

  it('does not use a CRL with a critical extension it does not understand', async () => {
    const unusable: ParsedCrl = {
      ...crl('rsa-intermediate'),
      unrecognizedCriticalExtensions: ['2.5.29.27'],
    }
    const outcome = await refusal(input({ crls: [unusable, crl('rsa-root')] }))
    expect(outcome.reason).toBe('unknown-critical-extension')
    expect(outcome.message).toContain('critical extension 2.5.29.27')
    // Another usable CRL from the same issuer decides instead.
    expect(
      (await refusal(input({ crls: [unusable, crl('rsa-intermediate'), crl('rsa-root')] }))).reason,
    ).toBe('ok')
  })

  it('does not use a CRL whose authorityKeyIdentifier names another key (RFC 5280 §5.2.1)', async () => {
    const issued = crl('rsa-intermediate')
    expect(issued.authorityKeyIdentifier).toEqual(
      authority('rsa-intermediate').subjectKeyIdentifier,
    )
    const otherKey: ParsedCrl = { ...issued, authorityKeyIdentifier: Uint8Array.of(1, 2, 3) }
    const outcome = await refusal(input({ crls: [otherKey, crl('rsa-root')] }))
    expect(outcome.reason).toBe('crl-missing')
    expect(outcome.message).toContain('names the key that issued certificate')
    // Without a key identifier (OpenSSL does not require one on a CRL) it is used.
    const unnamed: ParsedCrl = { ...issued, authorityKeyIdentifier: undefined }
    expect((await refusal(input({ crls: [unnamed, crl('rsa-root')] }))).reason).toBe('ok')
    expect((await refusal(input({ crls: [otherKey, issued, crl('rsa-root')] }))).reason).toBe('ok')
  })

  it('judges signatures before critical extensions', async () => {
    const broken: ParsedCrl = {
      ...crl('rsa-intermediate-bad-signature'),
      unrecognizedCriticalExtensions: ['1.2.3'],
    }
    expect((await refusal(input({ crls: [broken, crl('rsa-root')] }))).reason).toBe(
      'crl-bad-signature',
    )
  })

  it.each([
    ['covers only CA certificates', scope({ onlyCaCertificates: true }), 'crl-missing'],
    ['covers only end-entity certificates', scope({ onlyUserCertificates: true }), 'ok'],
    ['covers only some reasons', scope({ onlySomeReasons: true }), 'crl-missing'],
    ['is indirect', scope({ indirect: true }), 'crl-missing'],
    ['covers attribute certificates', scope({ onlyAttributeCertificates: true }), 'crl-missing'],
    [
      'names a distribution point the leaf does not',
      scope({ distributionPointNames: [Uint8Array.of(0x86, 0)] }),
      'crl-missing',
    ],
    ['names no distribution point', scope({}), 'ok'],
  ])('for the leaf, a CRL that %s: %s', async (_title, crlScope, expected) => {
    const scoped: ParsedCrl = { ...crl('rsa-intermediate'), scope: crlScope }
    const outcome = await refusal(input({ crls: [scoped, crl('rsa-root')] }))
    expect(outcome.reason).toBe(expected)
    if (expected !== 'ok') expect(outcome.message).toContain('issuingDistributionPoint')
  })

  it('for the intermediate, a root CRL that covers only end-entity certificates is missing', async () => {
    const scoped: ParsedCrl = { ...crl('rsa-root'), scope: scope({ onlyUserCertificates: true }) }
    const outcome = await refusal(input({ crls: [crl('rsa-intermediate'), scoped] }))
    expect(outcome).toMatchObject({
      reason: 'crl-missing',
      subject: authority('rsa-intermediate').subject,
    })
  })

  it('uses a stale CRL only to say so, after scope', async () => {
    const staleAndScoped: ParsedCrl = {
      ...crl('rsa-intermediate-stale'),
      scope: scope({ onlyCaCertificates: true }),
    }
    expect((await refusal(input({ crls: [staleAndScoped, crl('rsa-root')] }))).reason).toBe(
      'crl-missing',
    )
  })
})
