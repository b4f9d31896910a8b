/**
 * An OCSP response arrives over plain HTTP, so anyone on the path can stuff its `certs` with
 * thousands of decoy "responder" certificates (10 MiB holds ~25,000), each of which would cost a
 * parse and a signature check. Only the first four are considered, and a certificate costs a
 * signature check only once it names the issuer, is valid and carries id-kp-OCSPSigning.
 * Signature checks are counted through the verifier the backend hands in.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { SignatureCheck } from '../../../src/crypto/signature-check.js'
import {
  type OcspCertificateId,
  ocspCertificateId,
} from '../../../src/x509/revocation-online/ocsp-request.js'
import {
  maxResponderCertificates,
  parseOcspResponse,
} from '../../../src/x509/revocation-online/ocsp-response.js'
import { ocspStatus } from '../../../src/x509/revocation-online/ocsp-status.js'
import { ocspResponse, singleResponse } from '../fixtures/ocsp-responses.js'
import {
  createCertificate,
  generateKey,
  ocspSigning,
  type TestCertificate,
} from '../fixtures/online-pki.js'
import { verifyWithWebCrypto } from '../fixtures/webcrypto-keys.js'

const at = new Date('2027-01-01T12:00:00Z')
const hour = 3_600_000
const validity = {
  notBefore: new Date('2026-01-01T00:00:00Z'),
  notAfter: new Date('2028-01-01T00:00:00Z'),
}

let issuer: TestCertificate
let id: OcspCertificateId
let responder: TestCertificate
/** Passes every cheap check (issuer name, validity, id-kp-OCSPSigning); the issuer never signed it. */
let decoy: TestCertificate
/** Names another issuer: no signature check at all. */
let stranger: TestCertificate

beforeAll(async () => {
  issuer = await createCertificate({ commonName: 'OCSP Issuer', ca: true, ...validity })
  const leaf = await createCertificate({ commonName: 'Leaf', issuer, ...validity })
  id = await ocspCertificateId(leaf.parsed, issuer.parsed)
  const delegated = { issuer, extendedKeyUsage: [ocspSigning], ...validity }
  responder = await createCertificate({ commonName: 'Responder', ...delegated })
  decoy = await createCertificate({
    commonName: 'Decoy',
    ...delegated,
    signingKey: await generateKey(),
  })
  const otherCa = await createCertificate({ commonName: 'Other CA', ca: true, ...validity })
  stranger = await createCertificate({
    commonName: 'Stranger',
    ...delegated,
    issuer: otherCa,
  })
})

/** A `good` answer signed by the delegated responder, with `certificates` as its `certs`. */
async function judgeCounting(certificates: readonly Uint8Array[]) {
  const der = await ocspResponse({
    signer: responder.key,
    responses: [
      singleResponse({
        certId: id.der,
        status: 'good',
        thisUpdate: new Date(at.getTime() - hour),
        nextUpdate: new Date(at.getTime() + hour),
      }),
    ],
    certificates,
  })
  let verifications = 0
  const verifies = (check: SignatureCheck) => {
    verifications += 1
    return verifyWithWebCrypto(check)
  }
  const status = await ocspStatus(parseOcspResponse(der), id, issuer.parsed, at, verifies)
  return { status, verifications, bytes: der.byteLength }
}

describe('OCSP responses carrying many certificates', () => {
  it('considers four: 5000 decoys then the real responder is no answer, for at most 1 + 4 checks', async () => {
    expect(maxResponderCertificates).toBe(4)
    const { status, verifications, bytes } = await judgeCounting([
      ...Array.from({ length: 5000 }, () => decoy.der),
      responder.der,
    ])
    expect(bytes).toBeGreaterThan(5000 * decoy.der.byteLength)
    expect(status.status).toBe('no-answer')
    // One check against the issuer's own key, then one per decoy among the first four.
    expect(verifications).toBe(1 + maxResponderCertificates)
  })

  it('takes the real responder when it is first, whatever follows', async () => {
    const { status, verifications } = await judgeCounting([
      responder.der,
      ...Array.from({ length: 5000 }, () => decoy.der),
    ])
    expect(status).toEqual({ status: 'good' })
    // The issuer's key, the responder certificate, the response under the responder's key.
    expect(verifications).toBe(3)
  })

  it('takes the real responder fourth, not fifth', async () => {
    const fourth = await judgeCounting([decoy.der, decoy.der, decoy.der, responder.der])
    expect(fourth.status).toEqual({ status: 'good' })
    const fifth = await judgeCounting([decoy.der, decoy.der, decoy.der, decoy.der, responder.der])
    expect(fifth.status.status).toBe('no-answer')
  })

  it('checks no signature of a certificate that names another issuer', async () => {
    const { status, verifications } = await judgeCounting([
      stranger.der,
      stranger.der,
      stranger.der,
      responder.der,
    ])
    expect(status).toEqual({ status: 'good' })
    expect(verifications).toBe(3)
  })
})
