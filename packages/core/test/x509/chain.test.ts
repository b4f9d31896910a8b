import { describe, expect, it } from 'vitest'
import type { SignatureCheck } from '../../src/crypto/backend.js'
import { bytesEqual } from '../../src/crypto/bytes.js'
import { ConfigurationError } from '../../src/errors/configuration-error.js'
import { CertificateChainError } from '../../src/errors/crypto-error.js'
import { type ParsedCertificate, parseCertificate } from '../../src/x509/certificate.js'
import { certificateDer, crlDer } from '../../src/x509/certificate-der.js'
import {
  type ChainValidationInput,
  type SignatureVerifier,
  validateCertificateChain,
} from '../../src/x509/chain.js'
import { type ParsedCrl, parseCrl } from '../../src/x509/crl.js'
import {
  encodeDer,
  encodeDerSequence,
  readDerChildren,
  readDerDocument,
} from '../../src/x509/der.js'
import { encodeDerOid } from '../../src/x509/object-identifier.js'
import { decodePemBlocks } from '../../src/x509/pem.js'
import { type ManifestCase, openTestPkiFiles } from './fixtures/test-pki-files.js'
import {
  ecdsaJoseToDer,
  signWithPem,
  type TestSignatureAlgorithm,
  verifyWithWebCrypto,
} from './fixtures/webcrypto-keys.js'

const testPki = openTestPkiFiles()
const { manifest, manifestCase } = testPki
const fixtureText = testPki.text
const fixtureBytes = testPki.bytes

/** Verifies RS*, PS* (salt = hash length) and ES* (JOSE r‖s) signatures with WebCrypto. */
const webCryptoSignatureVerifier: SignatureVerifier = verifyWithWebCrypto

/** Records every check it is asked for, answering with `webCryptoSignatureVerifier`. */
function recordingVerifier(): { verifier: SignatureVerifier; calls: SignatureCheck[] } {
  const calls: SignatureCheck[] = []
  return {
    calls,
    verifier: async (check) => {
      calls.push(check)
      return webCryptoSignatureVerifier(check)
    },
  }
}

const at = new Date(manifest.referenceTime)

function authority(name: string): ParsedCertificate {
  return parseCertificate(certificateDer(fixtureText(`authorities/${name}.pem`)))
}

function crl(name: string): ParsedCrl {
  return parseCrl(crlDer(fixtureText(`crls/${name}.crl.pem`)))
}

function caseInput(entry: ManifestCase): ChainValidationInput {
  return {
    chain: decodePemBlocks(fixtureText(entry.files.chain), 'CERTIFICATE').map(parseCertificate),
    trustAnchors: entry.trustAnchors.map(authority),
    crls: entry.crls.map(crl),
    at,
  }
}

async function reasonOf(
  input: ChainValidationInput,
  verifier = webCryptoSignatureVerifier,
): Promise<string> {
  try {
    await validateCertificateChain(input, verifier)
    return 'ok'
  } catch (error) {
    if (error instanceof CertificateChainError) return error.reason
    throw error
  }
}

/** Re-signs a certificate's TBS with another algorithm identifier and key (for mixed-hash cases). */
async function resign(
  certificate: Uint8Array,
  algorithmIdentifier: Uint8Array,
  signature: (tbs: Uint8Array) => Promise<Uint8Array>,
  replaceTbs?: (tbs: Uint8Array) => Uint8Array,
): Promise<Uint8Array> {
  const [tbsElement] = readDerChildren(readDerDocument(certificate))
  let tbs = (tbsElement as { bytes: Uint8Array }).bytes
  const fields = readDerChildren(readDerDocument(tbs))
  // Replace the inner signature AlgorithmIdentifier (field 2 after [0] version and serial).
  fields[2] = readDerDocument(algorithmIdentifier)
  tbs = encodeDerSequence(...fields.map((field) => field.bytes))
  if (replaceTbs) tbs = replaceTbs(tbs)
  return encodeDerSequence(
    tbs,
    algorithmIdentifier,
    encodeDer(0x03, new Uint8Array([0, ...(await signature(tbs))])),
  )
}

describe('validateCertificateChain with the committed test PKI', () => {
  for (const entry of manifest.cases) {
    it(`${entry.name}: ${entry.expected} (${entry.description})`, async () => {
      expect(await reasonOf(caseInput(entry))).toBe(entry.expected)
    })
  }

  it('names the failing certificate in subject and message', async () => {
    const error = await validateCertificateChain(
      caseInput(manifestCase('expired')),
      webCryptoSignatureVerifier,
    ).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(CertificateChainError)
    expect((error as CertificateChainError).subject).toBe(manifestCase('expired').subject)
    expect((error as CertificateChainError).message).toContain(
      'expired on 2024-01-01T00:00:00.000Z',
    )
  })

  it('reports the revoked intermediate, not the leaf, for a leaf under a revoked intermediate', async () => {
    const error = (await validateCertificateChain(
      caseInput(manifestCase('under-revoked-intermediate')),
      webCryptoSignatureVerifier,
    ).catch((caught: unknown) => caught)) as CertificateChainError
    expect(error.subject).toBe(manifest.authorities['rsa-intermediate-revoked']?.subject)
  })

  it('returns the leaf and the path up to the anchor as plain CertificateInfo', async () => {
    const entry = manifestCase('rsa-client')
    const result = await validateCertificateChain(caseInput(entry), webCryptoSignatureVerifier)
    expect(result.leaf.subject).toBe(entry.subject)
    expect(result.leaf.subjectAltNameUris).toEqual(['https://client.example.test/app'])
    expect(result.path.map((certificate) => certificate.subject)).toEqual([
      entry.subject,
      manifest.authorities['rsa-intermediate']?.subject,
      manifest.authorities['rsa-root']?.subject,
    ])
    expect(Object.keys(result.leaf)).not.toContain('tbs')
  })

  it('accepts a chain that ends with the trust anchor itself', async () => {
    const input = caseInput(manifestCase('ec-p256-client'))
    const result = await validateCertificateChain(
      { ...input, chain: [...input.chain, authority('ec-root')] },
      webCryptoSignatureVerifier,
    )
    expect(result.path).toHaveLength(3)
  })

  it('accepts a leaf that is itself a trust anchor', async () => {
    const root = authority('rsa-root')
    const result = await validateCertificateChain(
      { chain: [root], trustAnchors: [root], crls: [], at },
      webCryptoSignatureVerifier,
    )
    expect(result.path).toHaveLength(1)
  })

  it('still validates the valid chains at the current time', async () => {
    for (const name of ['rsa-client', 'ec-p256-client', 'ec-p384-client']) {
      expect(await reasonOf({ ...caseInput(manifestCase(name)), at: new Date() })).toBe('ok')
    }
  })
})

describe('validateCertificateChain rules', () => {
  const valid = () => caseInput(manifestCase('rsa-client'))

  it('refuses an invalid validation time with ConfigurationError at', async () => {
    for (const time of [new Date('not a date'), '2027-01-01' as unknown as Date]) {
      const error = await validateCertificateChain(
        { ...valid(), at: time },
        webCryptoSignatureVerifier,
      ).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(ConfigurationError)
      expect((error as ConfigurationError).invalidAttribute).toBe('at')
    }
  })

  it('refuses an empty chain with no-path', async () => {
    expect(await reasonOf({ ...valid(), chain: [] })).toBe('no-path')
  })

  it('requires a CRL for every certificate below the anchor (crl-missing)', async () => {
    expect(await reasonOf({ ...valid(), crls: [] })).toBe('crl-missing')
    // The leaf's CRL alone is not enough: the intermediate needs the root's CRL.
    expect(await reasonOf({ ...valid(), crls: [crl('rsa-intermediate')] })).toBe('crl-missing')
  })

  it('does not require a CRL for the anchor itself', async () => {
    expect(await reasonOf({ ...valid(), crls: [crl('rsa-intermediate'), crl('rsa-root')] })).toBe(
      'ok',
    )
  })

  it('uses any verifying current CRL when a bad or stale one is also supplied', async () => {
    const crls = [
      crl('rsa-intermediate-bad-signature'),
      crl('rsa-intermediate-stale'),
      crl('rsa-intermediate'),
      crl('rsa-root'),
    ]
    expect(await reasonOf({ ...valid(), crls })).toBe('ok')
  })

  it('treats a CRL whose thisUpdate is after the validation time as not current (crl-stale)', async () => {
    const future = { ...crl('rsa-intermediate'), thisUpdate: new Date('2030-01-01T00:00:00Z') }
    expect(await reasonOf({ ...valid(), crls: [future, crl('rsa-root')] })).toBe('crl-stale')
  })

  it('treats a CRL without nextUpdate as current', async () => {
    const open = { ...crl('rsa-intermediate'), nextUpdate: undefined }
    expect(await reasonOf({ ...valid(), crls: [open, crl('rsa-root')] })).toBe('ok')
  })

  it('does not count a revocation listed only in a stale CRL when a current one does not list it', async () => {
    const input = caseInput(manifestCase('revoked'))
    const currentWithoutEntry = {
      ...crl('rsa-intermediate'),
      revokedSerialNumbers: new Set<string>(),
    }
    expect(
      await reasonOf({
        ...input,
        crls: [crl('rsa-intermediate-stale'), currentWithoutEntry, crl('rsa-root')],
      }),
    ).toBe('ok')
  })

  it('checks the anchor validity too', async () => {
    expect(await reasonOf({ ...valid(), at: new Date('2046-01-01T00:00:00Z') })).toBe('expired')
  })

  it('reports untrusted when no trust anchor is given for a self-issued top certificate', async () => {
    expect(await reasonOf({ ...caseInput(manifestCase('untrusted')), trustAnchors: [] })).toBe(
      'untrusted',
    )
  })

  it('reports no-path when the issuer of a non-self-issued top certificate is unknown', async () => {
    expect(await reasonOf({ ...valid(), trustAnchors: [authority('ec-root')] })).toBe('no-path')
  })

  it('reports untrusted when an anchor has the right name but another key', async () => {
    // The RSA intermediate re-signed by some other RSA key: its issuer name is still the root's.
    const otherKey = fixtureText('leaves/rsa-client/key.pkcs8.pem')
    const algorithm = encodeDerSequence(
      encodeDerOid('1.2.840.113549.1.1.11'),
      encodeDer(0x05, new Uint8Array()),
    )
    const forged = await resign(authority('rsa-intermediate').der, algorithm, (tbs) =>
      signWithPem(otherKey, 'RS256', tbs),
    )
    const input = valid()
    expect(
      await reasonOf({
        ...input,
        chain: [input.chain[0] as ParsedCertificate, parseCertificate(forged)],
      }),
    ).toBe('untrusted')
  })

  it('prefers an anchor whose key identifier matches, and confirms by signature', async () => {
    const { verifier, calls } = recordingVerifier()
    const input = valid()
    const anchors = [authority('untrusted-root'), authority('ec-root'), authority('rsa-root')]
    await validateCertificateChain({ ...input, trustAnchors: anchors }, verifier)
    // Only the RSA root has the intermediate's issuer name, so no other anchor key was tried.
    const rootSpki = authority('rsa-root').publicKeySpki
    expect(
      calls
        .filter((check) => check.data === input.chain[1]?.tbs)
        .map((check) => check.publicKeySpki),
    ).toEqual([rootSpki])
  })

  it('reports bad-signature for an unsupported signature algorithm', async () => {
    const input = valid()
    const leaf = input.chain[0] as ParsedCertificate
    const unsupported: ParsedCertificate = { ...leaf, signatureAlgorithm: undefined }
    expect(
      await reasonOf({ ...input, chain: [unsupported, input.chain[1] as ParsedCertificate] }),
    ).toBe('bad-signature')
  })

  it('fails closed when the verifier throws', async () => {
    expect(await reasonOf(valid(), async () => Promise.reject(new Error('backend broke')))).toBe(
      'untrusted',
    )
    const intermediateSpki = authority('rsa-intermediate').publicKeySpki
    const throwsForIntermediate = async (
      check: Parameters<typeof webCryptoSignatureVerifier>[0],
    ) => {
      if (bytesEqual(check.publicKeySpki, intermediateSpki)) throw new Error('boom')
      return webCryptoSignatureVerifier(check)
    }
    expect(await reasonOf(valid(), throwsForIntermediate)).toBe('bad-signature')
  })

  it('reports not-a-ca before revocation problems', async () => {
    expect(await reasonOf({ ...caseInput(manifestCase('not-a-ca')), crls: [] })).toBe('not-a-ca')
  })

  it('reports order before anything else', async () => {
    expect(
      await reasonOf({ ...caseInput(manifestCase('wrong-order')), trustAnchors: [], crls: [] }),
    ).toBe('order')
  })

  /**
   * A copy of the RSA client leaf whose issuer is `issuer`, signed by `issuerKeyPem` with the
   * ECDSA `algorithmOid` (hash `algorithm`, whatever the curve of the key).
   */
  async function issuedBy(
    issuer: ParsedCertificate,
    issuerKeyPem: string,
    algorithmOid: string,
    algorithm: TestSignatureAlgorithm,
  ): Promise<ParsedCertificate> {
    return parseCertificate(
      await resign(
        fixtureBytes('leaves/rsa-client/certificate.der'),
        encodeDerSequence(encodeDerOid(algorithmOid)),
        async (tbs) => ecdsaJoseToDer(await signWithPem(issuerKeyPem, algorithm, tbs)),
        (tbs) => {
          const fields = readDerChildren(readDerDocument(tbs))
          fields[3] = readDerDocument(issuer.subjectDer)
          return encodeDerSequence(...fields.map((field) => field.bytes))
        },
      ),
    )
  }

  it('verifies ECDSA signatures whose hash does not match the issuer curve', async () => {
    // The EC leaves stand in for issuers. They are not CAs, which the policy checks after the
    // signatures: `not-a-ca` proves the signatures verified (`bad-signature` would come first).
    // The re-signed certificate keeps the authorityKeyIdentifier of its real issuer, so the
    // stand-ins go without a subjectKeyIdentifier (a key identifier link is then not checked).
    const standIn = (path: string) => ({
      ...parseCertificate(fixtureBytes(path)),
      subjectKeyIdentifier: undefined,
    })
    const p384 = standIn('leaves/ec-p384-client/certificate.der')
    const p256 = standIn('leaves/ec-p256-client/certificate.der')
    const bySha256OnP384 = await issuedBy(
      p384,
      fixtureText('leaves/ec-p384-client/key.pkcs8.pem'),
      '1.2.840.10045.4.3.2',
      'ES256',
    )
    const bySha384OnP256 = await issuedBy(
      p256,
      fixtureText('leaves/ec-p256-client/key.pkcs8.pem'),
      '1.2.840.10045.4.3.3',
      'ES384',
    )
    expect(bySha256OnP384.signatureAlgorithm).toBe('ES256')
    expect(bySha384OnP256.signatureAlgorithm).toBe('ES384')
    expect(bySha384OnP256.signature).toHaveLength(96)
    expect(await reasonOf({ chain: [bySha256OnP384], trustAnchors: [p384], crls: [], at })).toBe(
      'not-a-ca',
    )
    expect(await reasonOf({ chain: [bySha384OnP256], trustAnchors: [p256], crls: [], at })).toBe(
      'not-a-ca',
    )
    expect(
      await reasonOf({
        chain: [bySha384OnP256],
        trustAnchors: [{ ...p256, publicKeySpki: p384.publicKeySpki, publicKey: p384.publicKey }],
        crls: [],
        at,
      }),
    ).toBe('untrusted')
  })
})
