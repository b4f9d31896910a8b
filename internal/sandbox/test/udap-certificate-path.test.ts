import {
  type CertificateAuthority,
  createCertificateAuthority,
  type IssuedCertificate,
} from '@fhir-auth/test-pki/issuer'
import * as pkijs from 'pkijs'
import { beforeAll, describe, expect, it } from 'vitest'
import { startUdapSandbox } from '../src/index.js'
import { validateCertificatePath } from '../src/udap/certificate-path-validation.js'
import { clientUri, register, signWithCertificate, statementClaims } from './udap-test-client.js'

const dayMs = 86_400_000
const now = new Date()
const validity = {
  notBefore: new Date(now.getTime() - dayMs),
  notAfter: new Date(now.getTime() + 365 * dayMs),
}
const currentCrl = {
  thisUpdate: new Date(now.getTime() - 3_600_000),
  nextUpdate: new Date(now.getTime() + 7 * dayMs),
}

let root: CertificateAuthority
let intermediate: CertificateAuthority
let leaf: IssuedCertificate

const certificate = (der: Uint8Array) => pkijs.Certificate.fromBER(new Uint8Array(der))
const crl = (der: Uint8Array) => pkijs.CertificateRevocationList.fromBER(new Uint8Array(der))
const chainOf = (issued: IssuedCertificate) => issued.chainDer.map(certificate)

beforeAll(async () => {
  root = await createCertificateAuthority({ name: 'Path Root', ...validity })
  intermediate = await createCertificateAuthority({
    name: 'Path Intermediate',
    issuer: root,
    ...validity,
  })
  leaf = await intermediate.issue({ commonName: 'path leaf', sanUris: [clientUri] })
})

function trust(
  crlDers: Uint8Array[] = [root.crl(currentCrl).crlDer, intermediate.crl(currentCrl).crlDer],
) {
  return { anchors: [certificate(root.certificateDer)], crls: crlDers.map(crl) }
}

describe('validateCertificatePath (server-side trust of client certificates)', () => {
  it('accepts a leaf-first chain with current CRLs for every non-anchor certificate', async () => {
    expect(await validateCertificatePath(chainOf(leaf), trust(), now)).toEqual({ valid: true })
  })

  it('fails closed without CRLs (pkijs alone would report VALID)', async () => {
    const engine = new pkijs.CertificateChainValidationEngine({
      trustedCerts: [certificate(root.certificateDer)],
      certs: [certificate(intermediate.certificateDer), certificate(leaf.certificateDer)],
      checkDate: now,
    })
    expect((await engine.verify()).result).toBe(true)
    expect(await validateCertificatePath(chainOf(leaf), trust([]), now)).toMatchObject({
      valid: false,
      reason: 'crl-missing',
    })
    expect(
      await validateCertificatePath(chainOf(leaf), trust([root.crl(currentCrl).crlDer]), now),
    ).toMatchObject({
      reason: 'crl-missing',
      message: expect.stringContaining('path leaf'),
    })
  })

  it('refuses a stale CRL and a CRL whose signature does not verify', async () => {
    const stale = intermediate.crl({
      thisUpdate: new Date(now.getTime() - 8 * dayMs),
      nextUpdate: new Date(now.getTime() - dayMs),
    })
    expect(
      await validateCertificatePath(
        chainOf(leaf),
        trust([root.crl(currentCrl).crlDer, stale.crlDer]),
        now,
      ),
    ).toMatchObject({ reason: 'crl-stale' })
    const future = intermediate.crl({
      thisUpdate: new Date(now.getTime() + dayMs),
      nextUpdate: new Date(now.getTime() + 7 * dayMs),
    })
    expect(
      await validateCertificatePath(
        chainOf(leaf),
        trust([root.crl(currentCrl).crlDer, future.crlDer]),
        now,
      ),
    ).toMatchObject({ reason: 'crl-stale' })
    const corrupt = intermediate.crl({ ...currentCrl, corruptSignature: true })
    expect(
      await validateCertificatePath(
        chainOf(leaf),
        trust([root.crl(currentCrl).crlDer, corrupt.crlDer]),
        now,
      ),
    ).toMatchObject({ reason: 'crl-bad-signature' })
  })

  it('refuses a revoked leaf and a revoked intermediate', async () => {
    const leafRevoked = intermediate.crl({ ...currentCrl, revokedSerials: [leaf.serialNumber] })
    expect(
      await validateCertificatePath(
        chainOf(leaf),
        trust([root.crl(currentCrl).crlDer, leafRevoked.crlDer]),
        now,
      ),
    ).toMatchObject({ reason: 'revoked', message: expect.stringContaining('path leaf') })
    const intermediateRevoked = root.crl({
      ...currentCrl,
      revokedSerials: [intermediate.serialNumber],
    })
    expect(
      await validateCertificatePath(
        chainOf(leaf),
        trust([intermediateRevoked.crlDer, intermediate.crl(currentCrl).crlDer]),
        now,
      ),
    ).toMatchObject({ reason: 'revoked', message: expect.stringContaining('Path Intermediate') })
  })

  it('refuses expired and not-yet-valid certificates at the given time', async () => {
    expect(
      await validateCertificatePath(chainOf(leaf), trust(), new Date(now.getTime() + 400 * dayMs)),
    ).toMatchObject({
      reason: 'expired',
    })
    expect(
      await validateCertificatePath(chainOf(leaf), trust(), new Date(now.getTime() - 2 * dayMs)),
    ).toMatchObject({
      reason: 'not-yet-valid',
    })
  })

  it('refuses a chain to another root, a chain missing its intermediate, and a leaf-last x5c', async () => {
    const otherRoot = await createCertificateAuthority({ name: 'Other Root', ...validity })
    const stranger = await otherRoot.issue({ commonName: 'stranger', sanUris: [clientUri] })
    expect(await validateCertificatePath(chainOf(stranger), trust(), now)).toMatchObject({
      reason: 'untrusted',
    })
    expect(
      await validateCertificatePath([certificate(leaf.certificateDer)], trust(), now),
    ).toMatchObject({
      reason: 'untrusted',
    })
    // x5c[0] must be the end entity: an intermediate first is not a valid path for it.
    const reversed = [...chainOf(leaf)].reverse()
    expect(await validateCertificatePath(reversed, trust(), now)).toMatchObject({
      reason: 'not-end-entity',
    })
  })
})

describe('clientTrust option', () => {
  let otherRoot: CertificateAuthority
  let otherClient: IssuedCertificate

  beforeAll(async () => {
    otherRoot = await createCertificateAuthority({ name: 'Fixture Root', ...validity })
    otherClient = await otherRoot.issue({ commonName: 'fixture client', sanUris: [clientUri] })
  })

  it('trusts extra anchors only together with their CRLs', async () => {
    const withoutCrl = await startUdapSandbox({
      clientTrust: { anchors: [otherRoot.certificatePem], crls: [] },
    })
    const withCrl = await startUdapSandbox({
      clientTrust: {
        anchors: [otherRoot.certificateDer],
        crls: [otherRoot.crl(currentCrl).crlPem],
      },
    })
    try {
      const refused = await register(
        withoutCrl,
        await signWithCertificate(statementClaims(withoutCrl), otherClient),
      )
      expect(refused.json).toMatchObject({ error: 'unapproved_software_statement' })
      expect(refused.json.error_description).toMatch(/no CRL/)
      const accepted = await register(
        withCrl,
        await signWithCertificate(statementClaims(withCrl), otherClient),
      )
      expect(accepted.status).toBe(201)
    } finally {
      await Promise.all([withoutCrl.close(), withCrl.close()])
    }
  })
})
