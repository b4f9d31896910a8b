/**
 * The path policy at its boundaries: validity and CRL currency at the exact instant, two current
 * CRLs that disagree, the guard against unsupported algorithms and empty signatures (held even
 * against a verifier that answers yes to anything), the choice between anchors of one name by
 * key identifier, and what each failure says. Each case fails if its rule is dropped (see
 * docs/testing.md, mutation testing); chain.test.ts has the verdicts of the test PKI.
 */
import { describe, expect, it } from 'vitest'
import type { SignatureCheck } from '../../src/crypto/backend.js'
import { CertificateChainError } from '../../src/errors/crypto-error.js'
import { type ParsedCertificate, parseCertificate } from '../../src/x509/certificate.js'
import { certificateDer, crlDer } from '../../src/x509/certificate-der.js'
import {
  type ChainValidationInput,
  type SignatureVerifier,
  validateCertificateChain,
} from '../../src/x509/chain.js'
import { type ParsedCrl, parseCrl } from '../../src/x509/crl.js'
import { decodePemBlocks } from '../../src/x509/pem.js'
import { openTestPkiFiles } from './fixtures/test-pki-files.js'
import { verifyWithWebCrypto } from './fixtures/webcrypto-keys.js'

const testPki = openTestPkiFiles()
const at = new Date(testPki.manifest.referenceTime)
const millisecond = 1

const authority = (name: string): ParsedCertificate =>
  parseCertificate(certificateDer(testPki.text(`authorities/${name}.pem`)))
const crl = (name: string): ParsedCrl => parseCrl(crlDer(testPki.text(`crls/${name}.crl.pem`)))

/** The input of a test PKI case, at the reference time. */
function caseInput(name: string): ChainValidationInput {
  const entry = testPki.manifestCase(name)
  return {
    chain: decodePemBlocks(testPki.text(entry.files.chain), 'CERTIFICATE').map(parseCertificate),
    trustAnchors: entry.trustAnchors.map(authority),
    crls: entry.crls.map(crl),
    at,
  }
}

/** The RSA client: leaf, intermediate; anchored at the RSA root; both CRLs current. */
const valid = () => caseInput('rsa-client')
const leafOf = (input: ChainValidationInput) => input.chain[0] as ParsedCertificate
const intermediateOf = (input: ChainValidationInput) => input.chain[1] as ParsedCertificate

/** The failure of a validation, or `'ok'`. */
async function failureOf(
  input: ChainValidationInput,
  verifier: SignatureVerifier = verifyWithWebCrypto,
): Promise<CertificateChainError | 'ok'> {
  const outcome = await validateCertificateChain(input, verifier).then(
    () => 'ok' as const,
    (error: unknown) => error,
  )
  if (outcome !== 'ok') expect(outcome).toBeInstanceOf(CertificateChainError)
  return outcome as CertificateChainError | 'ok'
}

async function reasonOf(input: ChainValidationInput, verifier?: SignatureVerifier) {
  const outcome = await failureOf(input, verifier)
  return outcome === 'ok' ? 'ok' : outcome.reason
}

/** A verifier that accepts any signature: what the policy's own guards must not rely on. */
const acceptsAnything: SignatureVerifier = async () => true

const shifted = (time: Date, milliseconds: number) => new Date(time.getTime() + milliseconds)

describe('validity at the exact instant', () => {
  it('accepts a certificate at its notBefore and refuses it a millisecond earlier', async () => {
    const input = valid()
    const withNotBefore = (notBefore: Date) => ({
      ...input,
      chain: [{ ...leafOf(input), notBefore }, intermediateOf(input)],
    })
    expect(await reasonOf(withNotBefore(at))).toBe('ok')
    const early = await failureOf(withNotBefore(shifted(at, millisecond)))
    expect(early).toMatchObject({ reason: 'not-yet-valid', subject: leafOf(input).subject })
    expect((early as CertificateChainError).message).toContain(
      `is not valid before ${shifted(at, millisecond).toISOString()} (checked at ${at.toISOString()})`,
    )
  })

  it('accepts a certificate at its notAfter and refuses it a millisecond later', async () => {
    const input = valid()
    const withNotAfter = (notAfter: Date) => ({
      ...input,
      chain: [leafOf(input), { ...intermediateOf(input), notAfter }],
    })
    expect(await reasonOf(withNotAfter(at))).toBe('ok')
    const late = await failureOf(withNotAfter(shifted(at, -millisecond)))
    expect(late).toMatchObject({ reason: 'expired', subject: intermediateOf(input).subject })
  })
})

describe('CRL currency at the exact instant', () => {
  const withIntermediateCrl = (changes: Partial<ParsedCrl>) => {
    const input = valid()
    return { ...input, crls: [{ ...crl('rsa-intermediate'), ...changes }, crl('rsa-root')] }
  }

  it('counts a CRL from its thisUpdate on, and not a millisecond before', async () => {
    expect(await reasonOf(withIntermediateCrl({ thisUpdate: at }))).toBe('ok')
    expect(await reasonOf(withIntermediateCrl({ thisUpdate: shifted(at, millisecond) }))).toBe(
      'crl-stale',
    )
  })

  it('counts a CRL up to its nextUpdate, and not a millisecond after', async () => {
    expect(await reasonOf(withIntermediateCrl({ nextUpdate: at }))).toBe('ok')
    expect(await reasonOf(withIntermediateCrl({ nextUpdate: shifted(at, -millisecond) }))).toBe(
      'crl-stale',
    )
  })

  it('names the newest of the stale CRLs, and a missing nextUpdate as none', async () => {
    const older = shifted(at, -2 * 86_400_000)
    const newer = shifted(at, -86_400_000)
    const input = valid()
    const stale = (thisUpdate: Date) => ({
      ...crl('rsa-intermediate'),
      thisUpdate,
      nextUpdate: shifted(thisUpdate, 3_600_000),
    })
    for (const crls of [
      [stale(older), stale(newer)],
      [stale(newer), stale(older)],
    ]) {
      const failure = await failureOf({ ...input, crls: [...crls, crl('rsa-root')] })
      expect((failure as CertificateChainError).message).toContain(
        `is not current at ${at.toISOString()} (thisUpdate ${newer.toISOString()}, nextUpdate ${shifted(newer, 3_600_000).toISOString()})`,
      )
    }
    const future = { ...crl('rsa-intermediate'), thisUpdate: shifted(at, 1), nextUpdate: undefined }
    const failure = await failureOf({ ...input, crls: [future, crl('rsa-root')] })
    expect((failure as CertificateChainError).message).toContain('nextUpdate none)')
  })
})

describe('revocation with two current CRLs from one issuer', () => {
  it('holds the certificate revoked when either CRL lists it', async () => {
    const input = caseInput('revoked')
    const listing = crl('rsa-intermediate')
    const leaf = leafOf(input)
    expect(listing.revokedSerialNumbers.has(leaf.serialNumber)).toBe(true)
    const notListing = { ...listing, revokedSerialNumbers: new Set<string>() }
    for (const crls of [
      [listing, notListing],
      [notListing, listing],
    ]) {
      const failure = await failureOf({ ...input, crls: [...crls, crl('rsa-root')] })
      expect(failure).toMatchObject({ reason: 'revoked', subject: leaf.subject })
      expect((failure as CertificateChainError).message).toContain(
        `(serial ${leaf.serialNumber}) is revoked by "${leaf.issuer}"`,
      )
    }
  })
})

describe('signatures the policy refuses without asking the verifier', () => {
  it('refuses an empty certificate signature, even from a verifier that accepts anything', async () => {
    const input = valid()
    const unsigned = { ...leafOf(input), signature: new Uint8Array() }
    const failure = await failureOf(
      { ...input, chain: [unsigned, intermediateOf(input)] },
      acceptsAnything,
    )
    expect(failure).toMatchObject({ reason: 'bad-signature', subject: unsigned.subject })
    expect((failure as CertificateChainError).message).toContain(
      `does not verify with the key of "${intermediateOf(input).subject}"`,
    )
  })

  it('refuses an unsupported signature algorithm below the top, and says so', async () => {
    const input = valid()
    const unsupported = { ...leafOf(input), signatureAlgorithm: undefined }
    const failure = await failureOf(
      { ...input, chain: [unsupported, intermediateOf(input)] },
      acceptsAnything,
    )
    expect(failure).toMatchObject({ reason: 'bad-signature', subject: unsupported.subject })
    expect((failure as CertificateChainError).message).toContain(
      'uses a signature algorithm that is not supported',
    )
  })

  it('refuses an unsupported signature algorithm on the certificate under the anchor', async () => {
    const input = valid()
    const unsupported = { ...intermediateOf(input), signatureAlgorithm: undefined }
    const failure = await failureOf(
      { ...input, chain: [leafOf(input), unsupported] },
      acceptsAnything,
    )
    expect(failure).toMatchObject({ reason: 'bad-signature', subject: unsupported.subject })
    expect((failure as CertificateChainError).message).toContain(
      'uses a signature algorithm that is not supported',
    )
  })

  it('finds no anchor for a certificate under it whose signature is empty', async () => {
    const input = valid()
    const unsigned = { ...intermediateOf(input), signature: new Uint8Array() }
    const failure = await failureOf({ ...input, chain: [leafOf(input), unsigned] }, acceptsAnything)
    expect(failure).toMatchObject({ reason: 'untrusted', subject: unsigned.subject })
    expect((failure as CertificateChainError).message).toContain(
      `the trust anchor "${unsigned.issuer}" did not sign "${unsigned.subject}"`,
    )
  })

  it('refuses CRLs with an empty signature or an unsupported algorithm', async () => {
    const input = valid()
    for (const changes of [{ signature: new Uint8Array() }, { signatureAlgorithm: undefined }]) {
      const broken = { ...crl('rsa-intermediate'), ...changes }
      const failure = await failureOf(
        { ...input, crls: [broken, crl('rsa-root')] },
        acceptsAnything,
      )
      expect(failure).toMatchObject({ reason: 'crl-bad-signature', subject: leafOf(input).subject })
      expect((failure as CertificateChainError).message).toContain(
        `no CRL from "${leafOf(input).issuer}" has a signature that verifies`,
      )
    }
  })
})

describe('choosing among trust anchors of one name', () => {
  const root = authority('rsa-root')
  const otherRoot = authority('ec-root')
  /** The RSA root's name with another key (and that key's identifier): a renewed or rogue CA. */
  const impostor: ParsedCertificate = {
    ...root,
    der: otherRoot.der,
    publicKeySpki: otherRoot.publicKeySpki,
    publicKey: otherRoot.publicKey,
    subjectKeyIdentifier: otherRoot.subjectKeyIdentifier,
  }

  /** The keys the verifier was asked to check the intermediate's signature with, in order. */
  async function keysTriedForTop(
    input: ChainValidationInput,
    outcome = 'ok',
  ): Promise<Uint8Array[]> {
    const calls: SignatureCheck[] = []
    const verifier: SignatureVerifier = async (check) => {
      calls.push(check)
      return verifyWithWebCrypto(check)
    }
    expect(await reasonOf(input, verifier)).toBe(outcome)
    const top = input.chain.at(-1) as ParsedCertificate
    return calls.filter((check) => check.data === top.tbs).map((check) => check.publicKeySpki)
  }

  it('tries the anchor whose key identifier matches first, in any order given', async () => {
    expect(intermediateOf(valid()).authorityKeyIdentifier).toEqual(root.subjectKeyIdentifier)
    for (const trustAnchors of [
      [impostor, root],
      [root, impostor],
      [impostor, impostor, root],
    ]) {
      expect(await keysTriedForTop({ ...valid(), trustAnchors })).toEqual([root.publicKeySpki])
    }
  })

  it('tries anchors in the order given when key identifiers say nothing, until one verifies', async () => {
    // Such chains break the RFC 5280 profile (an intermediate without an authorityKeyIdentifier,
    // a CA without a subjectKeyIdentifier) and end `malformed`, after the anchor is chosen.
    const input = valid()
    const withoutAki = { ...intermediateOf(input), authorityKeyIdentifier: undefined }
    expect(
      await keysTriedForTop(
        {
          ...input,
          chain: [leafOf(input), withoutAki],
          trustAnchors: [impostor, root],
        },
        'malformed',
      ),
    ).toEqual([impostor.publicKeySpki, root.publicKeySpki])
    const withoutSki = { ...root, subjectKeyIdentifier: undefined }
    expect(
      await keysTriedForTop({ ...input, trustAnchors: [impostor, withoutSki] }, 'malformed'),
    ).toEqual([impostor.publicKeySpki, root.publicKeySpki])
  })

  it('confirms a matching key identifier by the signature', async () => {
    const claimsRootKey = { ...impostor, subjectKeyIdentifier: root.subjectKeyIdentifier }
    expect(await keysTriedForTop({ ...valid(), trustAnchors: [claimsRootKey, root] })).toEqual([
      impostor.publicKeySpki,
      root.publicKeySpki,
    ])
    expect(await reasonOf({ ...valid(), trustAnchors: [claimsRootKey] })).toBe('untrusted')
  })
})

describe('what each failure says', () => {
  it('names the invalid validation time', async () => {
    const outcome = await validateCertificateChain(
      { ...valid(), at: new Date(Number.NaN) },
      verifyWithWebCrypto,
    ).catch((error: unknown) => error)
    expect(outcome).toMatchObject({
      name: 'ConfigurationError',
      invalidAttribute: 'at',
      invalidValue: 'Invalid Date',
      message: expect.stringContaining('must be a valid Date'),
    })
  })

  it.each([
    ['an empty chain', () => ({ ...valid(), chain: [] }), 'the certificate chain is empty'],
    [
      'a chain out of order',
      () => caseInput('wrong-order'),
      'chains must be leaf first, each followed by its issuer',
    ],
    [
      'an issuer that is not a CA',
      () => caseInput('not-a-ca'),
      'issues certificates but is not a CA (basicConstraints cA is not set)',
    ],
    [
      'a self-issued top certificate that is not an anchor',
      () => caseInput('untrusted'),
      'a self-issued certificate that is not a trust anchor',
    ],
    [
      'a top certificate whose issuer is unknown',
      () => caseInput('missing-issuer'),
      'no trust anchor or chain certificate is the issuer',
    ],
    [
      'a certificate without a CRL from its issuer',
      () => ({ ...valid(), crls: [] }),
      'was supplied to check certificate',
    ],
    [
      'a signature that does not verify',
      () => caseInput('bad-signature'),
      'does not verify with the key of',
    ],
  ])('%s', async (_label, input, text) => {
    const failure = await failureOf(input())
    expect((failure as CertificateChainError).message).toContain(text)
  })
})
