import { describe, expect, it } from 'vitest'
import { CertificateChainError } from '../../src/errors/crypto-error.js'
import { type ParsedCertificate, parseCertificate } from '../../src/x509/certificate.js'
import { concatBytes, encodeDer, encodeDerSequence } from '../../src/x509/der.js'
import type { GeneralName } from '../../src/x509/general-names.js'
import { readKeyUsage } from '../../src/x509/key-usage.js'
import { type NameConstraints, readNameConstraints } from '../../src/x509/name-constraints.js'
import { encodeDerOid } from '../../src/x509/object-identifier.js'
import { checkPathRules } from '../../src/x509/path-rules.js'
import { openTestPkiFiles } from './fixtures/test-pki-files.js'

const template = parseCertificate(openTestPkiFiles().bytes('leaves/ec-p256-client/certificate.der'))

const ascii = (text: string) => new TextEncoder().encode(text)
/** A Name with one CN. */
const nameOf = (commonName: string) =>
  encodeDerSequence(
    encodeDer(0x31, encodeDerSequence(encodeDerOid('2.5.4.3'), encodeDer(0x0c, ascii(commonName)))),
  )
const keyUsage = (...bits: number[]) => {
  let octet = 0
  for (const bit of bits) octet |= 0x80 >> bit
  return readKeyUsage(encodeDer(0x03, Uint8Array.of(0, octet)))
}
const permittedUris = (...bases: string[]): NameConstraints =>
  readNameConstraints(
    encodeDerSequence(
      encodeDer(
        0xa0,
        concatBytes(...bases.map((base) => encodeDerSequence(encodeDer(0x86, ascii(base))))),
      ),
    ),
  )

interface Shape {
  readonly subject: string
  readonly issuer: string
  readonly ca?: boolean
  readonly keyUsage?: ParsedCertificate['keyUsage']
  readonly pathLength?: number
  readonly nameConstraints?: NameConstraints
  readonly sans?: readonly GeneralName[]
  readonly critical?: readonly string[]
}

/** A parsed certificate with the fields the path rules read replaced. */
function certificate(shape: Shape): ParsedCertificate {
  return {
    ...template,
    subject: `CN=${shape.subject}`,
    issuer: `CN=${shape.issuer}`,
    subjectDer: nameOf(shape.subject),
    issuerDer: nameOf(shape.issuer),
    // Key identifiers that link each certificate to its issuer, as RFC 5280 §4.2.1.1 wants.
    subjectKeyIdentifier: ascii(shape.subject),
    authorityKeyIdentifier: ascii(shape.issuer),
    isCertificateAuthority: shape.ca ?? false,
    keyUsage: shape.keyUsage,
    pathLengthConstraint: shape.pathLength,
    nameConstraints: shape.nameConstraints,
    subjectAltNames: shape.sans ?? [],
    unrecognizedCriticalExtensions: shape.critical ?? [],
  }
}

const root = (extra: Partial<Shape> = {}) =>
  certificate({ subject: 'Root', issuer: 'Root', ca: true, ...extra })
const intermediate = (extra: Partial<Shape> = {}) =>
  certificate({ subject: 'Intermediate', issuer: 'Root', ca: true, ...extra })
const leaf = (extra: Partial<Shape> = {}) =>
  certificate({
    subject: 'Leaf',
    issuer: 'Intermediate',
    sans: [{ form: 'uri', value: 'https://client.example.test/app' }],
    ...extra,
  })

function refusal(path: readonly ParsedCertificate[]): { reason: string; subject?: string } {
  try {
    checkPathRules(path)
    return { reason: 'ok' }
  } catch (error) {
    if (!(error instanceof CertificateChainError)) throw error
    return { reason: error.reason, subject: error.subject ?? '' }
  }
}

describe('checkPathRules', () => {
  it('accepts a plain path', () => {
    expect(refusal([leaf(), intermediate(), root()])).toEqual({ reason: 'ok' })
  })

  describe('unknown critical extensions', () => {
    it('refuses one on any certificate, the anchor included, leaf first', () => {
      expect(refusal([leaf(), intermediate(), root({ critical: ['1.2.3'] })])).toEqual({
        reason: 'unknown-critical-extension',
        subject: 'CN=Root',
      })
      expect(
        refusal([leaf({ critical: ['1.2.4'] }), intermediate({ critical: ['1.2.5'] }), root()]),
      ).toEqual({ reason: 'unknown-critical-extension', subject: 'CN=Leaf' })
    })

    it('comes before every other rule', () => {
      expect(
        refusal([leaf({ critical: ['1.2.3'] }), intermediate({ ca: false }), root()]).reason,
      ).toBe('unknown-critical-extension')
    })

    it('names the extension', () => {
      expect(() => checkPathRules([leaf({ critical: ['2.25.7'] }), root()])).toThrow(
        'critical extension 2.25.7',
      )
    })
  })

  describe('CA flags', () => {
    it('requires cA on every issuer, the anchor included, but not on the leaf', () => {
      expect(refusal([leaf(), intermediate({ ca: false }), root()])).toEqual({
        reason: 'not-a-ca',
        subject: 'CN=Intermediate',
      })
      expect(refusal([leaf(), intermediate(), root({ ca: false })])).toEqual({
        reason: 'not-a-ca',
        subject: 'CN=Root',
      })
      expect(refusal([leaf({ ca: false })])).toEqual({ reason: 'ok' })
    })

    it('comes before key usage', () => {
      expect(
        refusal([leaf(), intermediate({ ca: false, keyUsage: keyUsage(0) }), root()]).reason,
      ).toBe('not-a-ca')
    })
  })

  describe('key usage', () => {
    it('requires keyCertSign on an issuer that has keyUsage', () => {
      expect(refusal([leaf(), intermediate({ keyUsage: keyUsage(0, 6) }), root()])).toEqual({
        reason: 'key-usage',
        subject: 'CN=Intermediate',
      })
      expect(refusal([leaf(), intermediate(), root({ keyUsage: keyUsage(6) })])).toEqual({
        reason: 'key-usage',
        subject: 'CN=Root',
      })
      expect(refusal([leaf(), intermediate({ keyUsage: keyUsage(5) }), root()])).toEqual({
        reason: 'ok',
      })
    })

    it('requires digitalSignature on a leaf that has keyUsage', () => {
      expect(refusal([leaf({ keyUsage: keyUsage(2) }), intermediate(), root()])).toEqual({
        reason: 'key-usage',
        subject: 'CN=Leaf',
      })
      expect(refusal([leaf({ keyUsage: keyUsage(0, 2) }), intermediate(), root()]).reason).toBe(
        'ok',
      )
      expect(() =>
        checkPathRules([leaf({ keyUsage: keyUsage(4), issuer: 'Root' }), root()]),
      ).toThrow('its keyUsage (keyAgreement) lacks digitalSignature')
    })

    it('checks issuers before the leaf', () => {
      expect(
        refusal([leaf({ keyUsage: keyUsage(2) }), intermediate({ keyUsage: keyUsage(0) }), root()])
          .subject,
      ).toBe('CN=Intermediate')
    })
  })

  describe('the RFC 5280 profile that openssl verify -x509_strict checks', () => {
    const plain = () => [leaf(), intermediate(), root()]
    const withCritical = (certificate: ParsedCertificate, ...oids: string[]) => ({
      ...certificate,
      criticalExtensions: oids,
    })
    const emptySubject = (extra: Partial<ParsedCertificate>) => ({
      ...leaf(),
      subjectDer: encodeDerSequence(),
      subject: '',
      ...extra,
    })

    it('needs an authorityKeyIdentifier on every v3 certificate below the top, naming its issuer', () => {
      expect(
        refusal([{ ...leaf(), authorityKeyIdentifier: undefined }, intermediate(), root()]),
      ).toEqual({
        reason: 'malformed',
        subject: 'CN=Leaf',
      })
      expect(
        refusal([leaf(), { ...intermediate(), authorityKeyIdentifier: undefined }, root()]),
      ).toEqual({
        reason: 'malformed',
        subject: 'CN=Intermediate',
      })
      expect(
        refusal([
          { ...leaf(), authorityKeyIdentifier: undefined, version: 1 },
          intermediate(),
          root(),
        ]).reason,
      ).toBe('ok')
      // The top of the path (the anchor) needs none.
      expect(
        refusal([leaf(), intermediate(), { ...root(), authorityKeyIdentifier: undefined }]).reason,
      ).toBe('ok')
      expect(
        refusal([{ ...leaf(), authorityKeyIdentifier: ascii('Other') }, intermediate(), root()]),
      ).toEqual({
        reason: 'no-path',
        subject: 'CN=Leaf',
      })
      expect(
        refusal([leaf(), { ...intermediate(), authorityKeyIdentifier: ascii('Other') }, root()]),
      ).toEqual({
        reason: 'no-path',
        subject: 'CN=Intermediate',
      })
      // An issuer without a subjectKeyIdentifier cannot contradict one (it is refused if a CA).
      expect(
        refusal([leaf(), { ...intermediate(), subjectKeyIdentifier: undefined }, root()]),
      ).toEqual({
        reason: 'malformed',
        subject: 'CN=Intermediate',
      })
      expect(() =>
        checkPathRules([leaf(), { ...intermediate(), authorityKeyIdentifier: undefined }, root()]),
      ).toThrow(
        'certificate "CN=Intermediate" has no authorityKeyIdentifier keyIdentifier (RFC 5280 §4.2.1.1)',
      )
    })

    it('needs a subjectKeyIdentifier and a critical basicConstraints on every CA, the anchor included', () => {
      expect(
        refusal([leaf(), intermediate(), { ...root(), subjectKeyIdentifier: undefined }]),
      ).toEqual({
        reason: 'malformed',
        subject: 'CN=Root',
      })
      expect(
        refusal([{ ...leaf(), subjectKeyIdentifier: undefined }, intermediate(), root()]).reason,
      ).toBe('ok')
      expect(refusal([leaf(), withCritical(intermediate()), root()])).toEqual({
        reason: 'not-a-ca',
        subject: 'CN=Intermediate',
      })
      expect(refusal([leaf(), intermediate(), withCritical(root(), '2.5.29.15')])).toEqual({
        reason: 'not-a-ca',
        subject: 'CN=Root',
      })
      expect(refusal([withCritical(leaf()), intermediate(), root()]).reason).toBe('ok')
    })

    it('refuses a path length or keyCertSign without cA', () => {
      expect(refusal([leaf({ pathLength: 0 }), intermediate(), root()])).toEqual({
        reason: 'path-length',
        subject: 'CN=Leaf',
      })
      expect(refusal([leaf({ keyUsage: keyUsage(0, 5) }), intermediate(), root()])).toEqual({
        reason: 'key-usage',
        subject: 'CN=Leaf',
      })
      expect(() =>
        checkPathRules([leaf({ keyUsage: keyUsage(0, 5) }), intermediate(), root()]),
      ).toThrow(
        'certificate "CN=Leaf" is no CA but its keyUsage has keyCertSign (RFC 5280 §4.2.1.3)',
      )
    })

    it('allows an empty subject only on an end entity with a critical subjectAltName', () => {
      const san = '2.5.29.17'
      expect(
        refusal([emptySubject({ criticalExtensions: [san] }), intermediate(), root()]).reason,
      ).toBe('ok')
      for (const certificate of [
        emptySubject({}),
        emptySubject({ criticalExtensions: [san], subjectAltNames: [] }),
        emptySubject({ criticalExtensions: [san], keyUsage: keyUsage(0, 6) }),
      ]) {
        expect(refusal([certificate, intermediate(), root()])).toEqual({
          reason: 'malformed',
          subject: '',
        })
      }
      const emptyCa = {
        ...intermediate(),
        subjectDer: encodeDerSequence(),
        subject: '',
        criticalExtensions: ['2.5.29.19', san],
      }
      expect(refusal([{ ...leaf(), issuerDer: encodeDerSequence() }, emptyCa, root()])).toEqual({
        reason: 'malformed',
        subject: 'CN=Leaf',
      })
      expect(refusal([leaf(), emptyCa, root()])).toEqual({ reason: 'malformed', subject: '' })
    })

    it('names each rule in its message, in paths of two certificates too', () => {
      const messageOf = (path: ParsedCertificate[]) => {
        try {
          checkPathRules(path)
        } catch (error) {
          return (error as Error).message
        }
        return 'ok'
      }
      const rootLeaf = (extra: Partial<ParsedCertificate>) => ({
        ...leaf({ issuer: 'Root' }),
        ...extra,
      })
      expect(messageOf([rootLeaf({ pathLengthConstraint: 0 }), root()])).toBe(
        'certificate "CN=Leaf" is no CA but has a basicConstraints pathLenConstraint (RFC 5280 §4.2.1.9)',
      )
      expect(messageOf([rootLeaf({ issuerDer: encodeDerSequence() }), root()])).toBe(
        'certificate "CN=Leaf" has an empty issuer name (RFC 5280 §4.1.2.4)',
      )
      expect(messageOf([rootLeaf({}), withCritical(root())])).toBe(
        'CA certificate "CN=Root" does not mark basicConstraints critical (RFC 5280 §4.2.1.9)',
      )
      expect(messageOf([rootLeaf({}), { ...root(), subjectKeyIdentifier: undefined }])).toBe(
        'CA certificate "CN=Root" has no subjectKeyIdentifier (RFC 5280 §4.2.1.2)',
      )
      expect(messageOf([rootLeaf({ subjectDer: encodeDerSequence(), subject: '' }), root()])).toBe(
        'a certificate issued by "CN=Root" has an empty subject, which only an end-entity certificate with a critical subjectAltName may have (RFC 5280 §4.1.2.6)',
      )
      expect(messageOf([rootLeaf({ authorityKeyIdentifier: ascii('Other') }), root()])).toBe(
        'the authorityKeyIdentifier of certificate "CN=Leaf" names another key than the subjectKeyIdentifier of "CN=Root", so no issuer of it is in the path',
      )
      expect(messageOf([rootLeaf({}), root()])).toBe('ok')
    })

    it('judges a lone certificate by trust alone, as OpenSSL does', () => {
      expect(
        refusal([{ ...root(), subjectKeyIdentifier: undefined, criticalExtensions: [] }]).reason,
      ).toBe('ok')
      expect(refusal(plain()).reason).toBe('ok')
    })
  })

  describe('path length', () => {
    const sub = (extra: Partial<Shape> = {}) =>
      certificate({ subject: 'Sub', issuer: 'Intermediate', ca: true, ...extra })
    const leafUnderSub = leaf({ issuer: 'Sub' })

    it('allows as many CAs below a CA as its pathLenConstraint, the leaf not counted', () => {
      expect(refusal([leaf(), intermediate({ pathLength: 0 }), root()]).reason).toBe('ok')
      expect(refusal([leafUnderSub, sub(), intermediate({ pathLength: 1 }), root()]).reason).toBe(
        'ok',
      )
      expect(refusal([leafUnderSub, sub(), intermediate(), root({ pathLength: 2 })]).reason).toBe(
        'ok',
      )
    })

    it('refuses one more, naming the CA whose constraint is exceeded', () => {
      expect(refusal([leafUnderSub, sub(), intermediate({ pathLength: 0 }), root()])).toEqual({
        reason: 'path-length',
        subject: 'CN=Intermediate',
      })
      expect(refusal([leafUnderSub, sub(), intermediate(), root({ pathLength: 1 })])).toEqual({
        reason: 'path-length',
        subject: 'CN=Root',
      })
      expect(() =>
        checkPathRules([leafUnderSub, sub(), intermediate({ pathLength: 0 }), root()]),
      ).toThrow('allows 0 CA certificates below it (pathLenConstraint), but the path has 1')
    })

    it('does not count self-issued CAs (key rollover)', () => {
      const rolled = certificate({ subject: 'Intermediate', issuer: 'Intermediate', ca: true })
      expect(refusal([leaf(), rolled, intermediate({ pathLength: 0 }), root()]).reason).toBe('ok')
      expect(refusal([leaf(), rolled, intermediate(), root({ pathLength: 0 })]).reason).toBe(
        'path-length',
      )
    })
  })

  describe('name constraints', () => {
    const constrained = permittedUris('.example.test')

    it("checks the leaf's names against every CA above it, the anchor included", () => {
      expect(refusal([leaf(), intermediate({ nameConstraints: constrained }), root()]).reason).toBe(
        'ok',
      )
      const outside = leaf({ sans: [{ form: 'uri', value: 'https://client.other.test/app' }] })
      expect(refusal([outside, intermediate({ nameConstraints: constrained }), root()])).toEqual({
        reason: 'name-constraints',
        subject: 'CN=Leaf',
      })
      expect(refusal([outside, intermediate(), root({ nameConstraints: constrained })])).toEqual({
        reason: 'name-constraints',
        subject: 'CN=Leaf',
      })
      expect(() =>
        checkPathRules([outside, intermediate({ nameConstraints: constrained }), root()]),
      ).toThrow('breaks the name constraints of "CN=Intermediate"')
    })

    it("does not apply a CA's constraints to the CA itself", () => {
      const self = intermediate({
        nameConstraints: constrained,
        sans: [{ form: 'uri', value: 'https://ca.other.test/' }],
      })
      expect(refusal([leaf(), self, root()]).reason).toBe('ok')
    })

    it('checks intermediate CAs against constraints above them, except self-issued ones', () => {
      const outsideCa = intermediate({ sans: [{ form: 'uri', value: 'https://ca.other.test/' }] })
      expect(refusal([leaf(), outsideCa, root({ nameConstraints: constrained })])).toEqual({
        reason: 'name-constraints',
        subject: 'CN=Intermediate',
      })
      const rolled = certificate({
        subject: 'Intermediate',
        issuer: 'Intermediate',
        ca: true,
        sans: [{ form: 'uri', value: 'https://ca.other.test/' }],
      })
      expect(
        refusal([leaf(), rolled, intermediate(), root({ nameConstraints: constrained })]).reason,
      ).toBe('ok')
    })

    it('checks a self-issued leaf', () => {
      const selfIssuedLeaf = leaf({
        issuer: 'Leaf',
        sans: [{ form: 'uri', value: 'https://client.other.test/' }],
      })
      const issuer = certificate({
        subject: 'Leaf',
        issuer: 'Root',
        ca: true,
        nameConstraints: constrained,
      })
      expect(refusal([selfIssuedLeaf, issuer, root()]).reason).toBe('name-constraints')
    })

    it('checks the subject as a directoryName', () => {
      const onlyOtherNames = readNameConstraints(
        encodeDerSequence(
          encodeDer(0xa0, encodeDerSequence(encodeDer(0xa4, nameOf('Somebody else')))),
        ),
      )
      expect(
        refusal([leaf(), intermediate({ nameConstraints: onlyOtherNames }), root()]).reason,
      ).toBe('name-constraints')
      const mine = readNameConstraints(
        encodeDerSequence(encodeDer(0xa0, encodeDerSequence(encodeDer(0xa4, nameOf('Leaf'))))),
      )
      expect(refusal([leaf(), intermediate({ nameConstraints: mine }), root()]).reason).toBe('ok')
    })
  })

  it('checks a path of one certificate as a leaf', () => {
    expect(refusal([leaf({ issuer: 'Leaf', keyUsage: keyUsage(5) })]).reason).toBe('key-usage')
  })
})
