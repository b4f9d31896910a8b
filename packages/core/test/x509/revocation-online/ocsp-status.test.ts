/**
 * `ocspStatus`: who may sign an OCSP answer (the issuer, or a responder the issuer delegated to
 * with id-kp-OCSPSigning, valid at the time), which SingleResponse counts, how fresh it must be
 * (RFC 6960 §4.2.2.1, five minutes' skew) and what `unknown` means. Real signatures throughout.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { encodeDer, encodeDerSequence } from '../../../src/x509/der.js'
import { encodeDerOid } from '../../../src/x509/object-identifier.js'
import {
  type OcspCertificateId,
  ocspCertificateId,
} from '../../../src/x509/revocation-online/ocsp-request.js'
import { parseOcspResponse } from '../../../src/x509/revocation-online/ocsp-response.js'
import {
  ocspClockSkewMs,
  ocspSigningPurpose,
  ocspStatus,
} from '../../../src/x509/revocation-online/ocsp-status.js'
import {
  certIdDer,
  nonceExtension,
  ocspResponse,
  singleResponse,
} from '../fixtures/ocsp-responses.js'
import {
  type CertificateOptions,
  clientAuth,
  createCertificate,
  generateKey,
  ocspSigning,
  type TestCertificate,
  type TestKey,
} from '../fixtures/online-pki.js'
import { verifyWithWebCrypto } from '../fixtures/webcrypto-keys.js'

const at = new Date('2027-01-01T12:00:00Z')
const minute = 60_000
const validity = {
  notBefore: new Date('2026-01-01T00:00:00Z'),
  notAfter: new Date('2028-01-01T00:00:00Z'),
}

let issuer: TestCertificate
let leaf: TestCertificate
let id: OcspCertificateId
let stranger: TestKey

beforeAll(async () => {
  issuer = await createCertificate({ commonName: 'OCSP Issuer', ca: true, ...validity })
  leaf = await createCertificate({ commonName: 'Leaf', issuer, ...validity })
  id = await ocspCertificateId(leaf.parsed, issuer.parsed)
  stranger = await generateKey()
})

const responder = (options: Partial<CertificateOptions> = {}) =>
  createCertificate({
    commonName: 'Responder',
    issuer,
    extendedKeyUsage: [ocspSigning],
    ...validity,
    ...options,
  })

interface AnswerOptions {
  readonly signer?: TestKey
  readonly certificates?: readonly Uint8Array[]
  readonly status?: 'good' | 'revoked' | 'unknown'
  readonly thisUpdate?: Date
  readonly nextUpdate?: Date | null
  readonly responses?: readonly Uint8Array[]
  readonly at?: Date
  /** The nonce extension's value in the answer. */
  readonly echoed?: Uint8Array
  /** The nonce the request carried. */
  readonly nonce?: Uint8Array
  /** Response extensions besides the nonce. */
  readonly extensions?: readonly Uint8Array[]
}

/** Judges an answer about `leaf`, signed by the issuer unless said otherwise. */
async function judge(options: AnswerOptions = {}) {
  const single = singleResponse({
    certId: id.der,
    status: options.status ?? 'good',
    thisUpdate: options.thisUpdate ?? new Date(at.getTime() - 60 * minute),
    nextUpdate:
      options.nextUpdate === null
        ? undefined
        : (options.nextUpdate ?? new Date(at.getTime() + 24 * 60 * minute)),
  })
  const extensions = [
    ...(options.echoed === undefined ? [] : [nonceExtension(options.echoed)]),
    ...(options.extensions ?? []),
  ]
  const der = await ocspResponse({
    signer: options.signer ?? issuer.key,
    responses: options.responses ?? [single],
    certificates: options.certificates,
    extensions: extensions.length === 0 ? undefined : extensions,
  })
  return ocspStatus(
    parseOcspResponse(der),
    id,
    issuer.parsed,
    options.at ?? at,
    verifyWithWebCrypto,
    options.nonce,
  )
}

const unsigned = {
  status: 'no-answer',
  problem:
    'is signed neither by the issuer nor by a responder the issuer delegated to (id-kp-OCSPSigning)',
}

describe('ocspStatus', () => {
  it('names id-kp-OCSPSigning and a five-minute skew', () => {
    expect(ocspSigningPurpose).toBe('1.3.6.1.5.5.7.3.9')
    expect(ocspClockSkewMs).toBe(300_000)
  })

  it('answers good or revoked for an answer the issuer signed', async () => {
    expect(await judge()).toEqual({ status: 'good' })
    expect(await judge({ status: 'revoked' })).toEqual({ status: 'revoked' })
  })

  it('gives no answer for unknown', async () => {
    expect(await judge({ status: 'unknown' })).toEqual({
      status: 'no-answer',
      problem: 'answers unknown',
    })
  })

  describe('nonce (RFC 8954)', () => {
    const nonce = Uint8Array.of(0x04, 0x02, 0xaa, 0xbb)
    const replayed = {
      status: 'no-answer',
      problem: 'carries another nonce than the request (a replayed or misdirected answer)',
    }

    it('takes an answer echoing the request nonce', async () => {
      expect(await judge({ status: 'revoked', nonce, echoed: nonce.slice() })).toEqual({
        status: 'revoked',
      })
    })

    it('refuses an answer echoing another nonce, even revoked', async () => {
      expect(await judge({ nonce, echoed: Uint8Array.of(0x04, 0x02, 0xaa, 0xbc) })).toEqual(
        replayed,
      )
      expect(await judge({ status: 'revoked', nonce, echoed: nonce.subarray(0, 3) })).toEqual(
        replayed,
      )
    })

    it('takes an answer without a nonce, and any answer when the request had none (a kept one)', async () => {
      expect(await judge({ nonce })).toEqual({ status: 'good' })
      expect(await judge({ echoed: nonce })).toEqual({ status: 'good' })
    })

    it('judges the signature before the nonce', async () => {
      expect(await judge({ signer: stranger, nonce, echoed: Uint8Array.of(1) })).toEqual(unsigned)
    })
  })

  it('gives no answer when the response has a critical extension it does not understand', async () => {
    const critical = encodeDerSequence(
      encodeDerOid('1.2.3.4'),
      encodeDer(0x01, Uint8Array.of(0xff)),
      encodeDer(0x04, new Uint8Array()),
    )
    expect(await judge({ status: 'revoked', extensions: [critical] })).toEqual({
      status: 'no-answer',
      problem: 'has the critical extension 1.2.3.4, which is not understood (RFC 6960 §4.4)',
    })
  })

  describe('signer', () => {
    it('accepts a delegated responder the issuer signed, with id-kp-OCSPSigning, valid now', async () => {
      const delegated = await responder()
      expect(
        await judge({ signer: delegated.key, certificates: [delegated.der], status: 'revoked' }),
      ).toEqual({ status: 'revoked' })
    })

    it('looks past certificates that do not qualify to the one that does', async () => {
      const delegated = await responder()
      const other = await responder({ key: delegated.key, extendedKeyUsage: [clientAuth] })
      expect(
        await judge({
          signer: delegated.key,
          certificates: [issuer.der, other.der, delegated.der],
        }),
      ).toEqual({ status: 'good' })
    })

    it('refuses a key nobody delegated to: not the issuer, no certificate sent', async () => {
      expect(await judge({ signer: stranger })).toEqual(unsigned)
      const delegated = await responder()
      expect(await judge({ signer: delegated.key })).toEqual(unsigned)
    })

    it('refuses a responder without id-kp-OCSPSigning', async () => {
      const noUsage = await responder({ extendedKeyUsage: undefined })
      expect(await judge({ signer: noUsage.key, certificates: [noUsage.der] })).toEqual(unsigned)
      const otherUsage = await responder({ extendedKeyUsage: [clientAuth] })
      expect(await judge({ signer: otherUsage.key, certificates: [otherUsage.der] })).toEqual(
        unsigned,
      )
    })

    it('refuses a responder certificate the issuer did not sign', async () => {
      const forged = await responder({ signingKey: stranger })
      expect(await judge({ signer: forged.key, certificates: [forged.der] })).toEqual(unsigned)
    })

    it('refuses a responder issued under another name, even when the issuer key signed it', async () => {
      const otherCa = await createCertificate({ commonName: 'Other CA', ca: true, ...validity })
      const misnamed = await responder({ issuer: otherCa, signingKey: issuer.key })
      expect(await judge({ signer: misnamed.key, certificates: [misnamed.der] })).toEqual(unsigned)
    })

    it('refuses an answer the responder it sends did not sign', async () => {
      const delegated = await responder()
      expect(await judge({ signer: stranger, certificates: [delegated.der] })).toEqual(unsigned)
    })

    it('takes the responder from its notBefore to its notAfter, not outside', async () => {
      const from = await responder({ notBefore: at })
      expect(await judge({ signer: from.key, certificates: [from.der] })).toEqual({
        status: 'good',
      })
      const until = await responder({ notAfter: at })
      expect(await judge({ signer: until.key, certificates: [until.der] })).toEqual({
        status: 'good',
      })
      const notYet = await responder({ notBefore: new Date(at.getTime() + 1000) })
      expect(await judge({ signer: notYet.key, certificates: [notYet.der] })).toEqual(unsigned)
      const expired = await responder({ notAfter: new Date(at.getTime() - 1000) })
      expect(await judge({ signer: expired.key, certificates: [expired.der] })).toEqual(unsigned)
    })
  })

  describe('CertID', () => {
    const other = (serialNumber: Uint8Array, hashAlgorithm?: string) =>
      singleResponse({
        certId: certIdDer({
          hashAlgorithm,
          issuerNameHash: id.issuerNameHash,
          issuerKeyHash: id.issuerKeyHash,
          serialNumber,
        }),
        status: 'revoked',
        thisUpdate: at,
      })

    it('gives no answer when no SingleResponse names the certificate', async () => {
      expect(await judge({ responses: [other(Uint8Array.of(0x7f))] })).toEqual({
        status: 'no-answer',
        problem: 'does not answer for this certificate',
      })
    })

    it('refuses the same values under another hash algorithm (SHA-256)', async () => {
      expect(
        await judge({ responses: [other(id.serialNumber, '2.16.840.1.101.3.4.2.1')] }),
      ).toEqual({ status: 'no-answer', problem: 'does not answer for this certificate' })
    })

    it('finds its SingleResponse among others', async () => {
      const mine = singleResponse({ certId: id.der, status: 'good', thisUpdate: at })
      expect(await judge({ responses: [other(Uint8Array.of(0x7f)), mine] })).toEqual({
        status: 'good',
      })
    })
  })

  describe('freshness', () => {
    const skew = 5 * minute
    it('takes a thisUpdate up to the skew ahead, not a second more', async () => {
      expect(await judge({ thisUpdate: new Date(at.getTime() + skew) })).toEqual({ status: 'good' })
      const ahead = new Date(at.getTime() + skew + 1000)
      expect(await judge({ thisUpdate: ahead })).toEqual({
        status: 'no-answer',
        problem: 'is not yet valid (thisUpdate 2027-01-01T12:05:01.000Z)',
      })
    })

    it('takes an answer up to the skew past its nextUpdate, not a second more', async () => {
      const nextUpdate = new Date(at.getTime() - skew)
      const thisUpdate = new Date(at.getTime() - 60 * minute)
      expect(await judge({ thisUpdate, nextUpdate })).toEqual({ status: 'good' })
      expect(
        await judge({ thisUpdate, nextUpdate: new Date(nextUpdate.getTime() - 1000) }),
      ).toEqual({
        status: 'no-answer',
        problem:
          'is stale (thisUpdate 2027-01-01T11:00:00.000Z, nextUpdate 2027-01-01T11:54:59.000Z)',
      })
    })

    it('without nextUpdate, takes an answer only within the skew of its thisUpdate', async () => {
      expect(await judge({ thisUpdate: new Date(at.getTime() - skew), nextUpdate: null })).toEqual({
        status: 'good',
      })
      expect(
        await judge({ thisUpdate: new Date(at.getTime() - skew - 1000), nextUpdate: null }),
      ).toEqual({
        status: 'no-answer',
        problem: 'is stale (thisUpdate 2027-01-01T11:54:59.000Z, nextUpdate none)',
      })
    })

    it('judges a stale unknown as stale', async () => {
      const thisUpdate = new Date(at.getTime() - 2 * skew)
      expect(await judge({ status: 'unknown', thisUpdate, nextUpdate: null })).toMatchObject({
        problem: expect.stringMatching(/^is stale/),
      })
    })
  })
})
