import { X509Certificate } from 'node:crypto'
import { CertificateChainError } from '@fhir-auth/core'
import { parseCertificate, parseCrl, validateCertificateChain } from '@fhir-auth/core/backend'
import { beforeAll, describe, expect, it } from 'vitest'
import { type CertificateAuthority, createCertificateAuthority } from '../src/issuer/index.js'
import { nodeSignatureVerifier } from './node-verifier.js'

const notBefore = new Date('2025-01-01T00:00:00Z')
const notAfter = new Date('2045-01-01T00:00:00Z')
const at = new Date('2027-01-01T00:00:00Z')

let root: CertificateAuthority
let intermediate: CertificateAuthority

beforeAll(async () => {
  root = await createCertificateAuthority({
    name: 'Issuer Test Root',
    keyType: 'p384',
    notBefore,
    notAfter,
  })
  intermediate = await createCertificateAuthority({
    name: 'Issuer Test Intermediate',
    keyType: 'p256',
    notBefore,
    notAfter,
    issuer: root,
  })
})

async function verdict(chain: readonly Uint8Array[], crls: readonly Uint8Array[]): Promise<string> {
  try {
    await validateCertificateChain(
      {
        chain: chain.map(parseCertificate),
        trustAnchors: [parseCertificate(root.certificateDer)],
        crls: crls.map(parseCrl),
        at,
      },
      nodeSignatureVerifier,
    )
    return 'ok'
  } catch (error) {
    if (error instanceof CertificateChainError) return error.reason
    throw error
  }
}

describe('createCertificateAuthority', () => {
  it('makes a self-signed root CA that node:crypto accepts', () => {
    const certificate = new X509Certificate(root.certificateDer)
    expect(certificate.ca).toBe(true)
    expect(certificate.verify(certificate.publicKey)).toBe(true)
    expect(certificate.subject).toContain('CN=Issuer Test Root')
    expect(root.intermediatesDer).toEqual([])
  })

  it('makes an intermediate signed by its issuer, with matching key identifiers', () => {
    const certificate = new X509Certificate(intermediate.certificateDer)
    expect(certificate.checkIssued(new X509Certificate(root.certificateDer))).toBe(true)
    expect(certificate.verify(new X509Certificate(root.certificateDer).publicKey)).toBe(true)
    expect(parseCertificate(intermediate.certificateDer).authorityKeyIdentifier).toEqual(
      root.subjectKeyIdentifier,
    )
    expect(intermediate.intermediatesDer).toEqual([intermediate.certificateDer])
  })

  it('makes a hostile "CA" without basicConstraints cA on request', async () => {
    const notCa = await createCertificateAuthority({
      name: 'Not a CA',
      notBefore,
      notAfter,
      issuer: root,
      isCertificateAuthority: false,
    })
    expect(new X509Certificate(notCa.certificateDer).ca).toBe(false)
    const leaf = await notCa.issue({ commonName: 'leaf', notBefore, notAfter })
    expect(
      await verdict(leaf.chainDer, [
        root.crl({ thisUpdate: notBefore, nextUpdate: notAfter }).crlDer,
        notCa.crl({ thisUpdate: notBefore, nextUpdate: notAfter }).crlDer,
      ]),
    ).toBe('not-a-ca')
  })
})

describe('CertificateAuthority.issue', () => {
  it('issues a server certificate whose SAN URI is exactly a loopback base URL', async () => {
    const baseUrl = 'http://127.0.0.1:49152/fhir/r4'
    const server = await intermediate.issue({ commonName: baseUrl, sanUris: [baseUrl] })
    const certificate = new X509Certificate(server.certificateDer)
    expect(certificate.subjectAltName).toBe(`URI:${baseUrl}`)
    expect(certificate.verify(new X509Certificate(intermediate.certificateDer).publicKey)).toBe(
      true,
    )
    expect(parseCertificate(server.certificateDer).subjectAltNameUris).toEqual([baseUrl])
    expect(server.privateKeyPem).toContain('BEGIN PRIVATE KEY')
    expect(server.chainDer).toEqual([server.certificateDer, intermediate.certificateDer])
  })

  it('writes hostile SAN values byte for byte (trailing slash, upper case, commas)', async () => {
    const sanUris = ['HTTP://127.0.0.1:1/fhir/', 'https://a.example/x,y', 'urn:example:client']
    const leaf = await intermediate.issue({
      commonName: 'hostile',
      sanUris,
      sanDnsNames: ['localhost'],
    })
    expect(parseCertificate(leaf.certificateDer).subjectAltNameUris).toEqual(sanUris)
    expect(new X509Certificate(leaf.certificateDer).subjectAltName).toContain('DNS:localhost')
  })

  it('uses the given serial, dates, key type and CA flag', async () => {
    const leaf = await intermediate.issue({
      commonName: 'fixed',
      serial: '00ff01',
      keyType: 'rsa2048',
      notBefore: new Date('2020-01-01T00:00:00Z'),
      notAfter: new Date('2060-01-01T00:00:00Z'),
      isCa: true,
    })
    const parsed = parseCertificate(leaf.certificateDer)
    expect(leaf.serialNumber).toBe('ff01')
    expect(parsed.serialNumber).toBe('ff01')
    expect(parsed.notAfter.toISOString()).toBe('2060-01-01T00:00:00.000Z')
    expect(parsed.isCertificateAuthority).toBe(true)
    expect(parsed.publicKey.type).toBe('RSA')
  })

  it('defaults to a P-256 key valid from an hour ago for a year', async () => {
    const leaf = await intermediate.issue({ commonName: 'defaults' })
    const parsed = parseCertificate(leaf.certificateDer)
    expect(parsed.publicKey.namedCurve).toBe('P-256')
    expect(parsed.notBefore.getTime()).toBeLessThan(Date.now())
    expect(parsed.notAfter.getTime()).toBeGreaterThan(Date.now() + 300 * 86_400_000)
  })

  it('can reuse a key pair and corrupt a signature on request', async () => {
    const first = await intermediate.issue({ commonName: 'first' })
    const second = await intermediate.issue({
      commonName: 'second',
      keyPair: first.keyPair,
      corruptSignature: true,
    })
    expect(parseCertificate(second.certificateDer).publicKeySpki).toEqual(
      parseCertificate(first.certificateDer).publicKeySpki,
    )
    expect(
      new X509Certificate(second.certificateDer).verify(
        new X509Certificate(intermediate.certificateDer).publicKey,
      ),
    ).toBe(false)
  })

  it('mints certificates one after another with distinct serial numbers', async () => {
    // How fast is a benchmark's question (internal/bench), not a test's: a wall-clock bound
    // fails on a loaded machine. The time is printed for the curious.
    const started = performance.now()
    const serials = new Set<string>()
    for (let index = 0; index < 10; index++) {
      const issued = await intermediate.issue({ commonName: `quick ${index}` })
      serials.add(new X509Certificate(issued.certificateDer).serialNumber)
    }
    console.info(`EC certificate: ${((performance.now() - started) / 10).toFixed(1)} ms each`)
    expect(serials.size).toBe(10)
  })
})

describe('CertificateAuthority.crl', () => {
  it('issues CRLs that validate chains and revoke listed serials', async () => {
    // Dated like the CAs: a leaf dated from the real clock would be not yet valid `at` (2027-01-01)
    // once the real date passes it, and every verdict below would change.
    const leaf = await intermediate.issue({
      commonName: 'client',
      sanUris: ['https://client.example.test/app'],
      notBefore,
      notAfter,
    })
    const rootCrl = root.crl({ thisUpdate: notBefore, nextUpdate: notAfter }).crlDer
    expect(
      await verdict(leaf.chainDer, [
        rootCrl,
        intermediate.crl({ thisUpdate: notBefore, nextUpdate: notAfter }).crlDer,
      ]),
    ).toBe('ok')
    const revoking = intermediate.crl({
      revokedSerials: [leaf.serialNumber],
      thisUpdate: notBefore,
      nextUpdate: notAfter,
    })
    expect(await verdict(leaf.chainDer, [rootCrl, revoking.crlDer])).toBe('revoked')
    const stale = intermediate.crl({
      thisUpdate: notBefore,
      nextUpdate: new Date('2025-06-01T00:00:00Z'),
    })
    expect(await verdict(leaf.chainDer, [rootCrl, stale.crlDer])).toBe('crl-stale')
    const corrupt = intermediate.crl({
      thisUpdate: notBefore,
      nextUpdate: notAfter,
      corruptSignature: true,
    })
    expect(await verdict(leaf.chainDer, [rootCrl, corrupt.crlDer])).toBe('crl-bad-signature')
  })

  it('writes the fields it was given', () => {
    const crl = parseCrl(root.crl({ revokedSerials: ['0A0b', 255n], thisUpdate: notBefore }).crlDer)
    expect([...crl.revokedSerialNumbers].sort()).toEqual(['0a0b', 'ff'])
    expect(crl.nextUpdate).toBeUndefined()
    expect(crl.issuer).toBe(parseCertificate(root.certificateDer).subject)
    expect(root.crl({ thisUpdate: notBefore }).crlPem).toContain('-----BEGIN X509 CRL-----')
  })
})
