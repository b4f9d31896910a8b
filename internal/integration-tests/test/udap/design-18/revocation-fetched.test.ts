/**
 * UDAP trust online (issue 30): through `Client` against the UDAP sandbox whose intermediate and
 * server certificates name CRL distribution points on the sandbox itself. Discovery,
 * registration and client credentials work without `crls`: the CRLs are fetched once the chain's
 * signatures reach the anchor, once per URL, kept in the client (or a shared store) until their
 * nextUpdate; a revoked server certificate is refused; an untrusted chain fetches nothing.
 */
import { CertificateChainError, DiscoveryError, memoryStore } from '@fhir-auth/client'
import { parseCertificate } from '@fhir-auth/core/backend'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import { createCertificateAuthority, type IssuedCertificate } from '@fhir-auth/test-pki/issuer'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  b2bContext,
  clientCredentialsRegistration,
  createUdapClient,
  defaultClientUri,
  identityOf,
} from '../support/udap-test-context.js'

let sandbox: UdapSandbox
let certificate: IssuedCertificate
let anchors: { readonly trustedAnchors: readonly string[] }

beforeAll(async () => {
  sandbox = await startUdapSandbox({ crlDistributionPoints: true })
  anchors = { trustedAnchors: sandbox.trust.anchors.map((anchor) => anchor.pem) }
  certificate = await sandbox.certificateAuthority.issue({
    commonName: 'Revocation client',
    sanUris: [defaultClientUri],
    keyType: 'p256',
  })
})
afterAll(() => sandbox.close())

/** The CRL paths the sandbox was asked for since the last `clearRequests`. */
function crlRequests(): string[] {
  return sandbox.requests.map((request) => request.path).filter((path) => path.startsWith('/crl/'))
}

describe('trust without crls', () => {
  it('discovers, registers and gets a B2B token, each CRL fetched once and then kept in the client', async () => {
    sandbox.clearRequests()
    const client = createUdapClient(sandbox, identityOf(certificate))
    const metadata = await client.serverMetadata(anchors)
    expect(metadata.tokenEndpoint).toBe(sandbox.endpoints.token)
    expect(crlRequests().sort()).toEqual(['/crl/0/intermediate.crl', '/crl/0/root.crl'])
    await client.registerClient(clientCredentialsRegistration, {
      clientUri: defaultClientUri,
      ...anchors,
    })
    const tokens = await client.requestBackendToken({ b2b: b2bContext, ...anchors })
    expect(tokens.access_token).toEqual(expect.any(String))
    expect(crlRequests()).toHaveLength(2)
  })

  it('shares the CRLs of a fleet through revocation.cache, and one fetch per URL among concurrent clients', async () => {
    sandbox.clearRequests()
    const cache = memoryStore()
    const clients = Array.from({ length: 8 }, () =>
      createUdapClient(sandbox, identityOf(certificate)),
    )
    await Promise.all(
      clients.map((client) => client.serverMetadata({ ...anchors, revocation: { cache } })),
    )
    expect(crlRequests().sort()).toEqual(['/crl/0/intermediate.crl', '/crl/0/root.crl'])
    await createUdapClient(sandbox, identityOf(certificate)).serverMetadata({
      ...anchors,
      revocation: { cache },
    })
    expect(crlRequests()).toHaveLength(2)
  })

  it('is crl-missing with revocation.fetch false, and fetches nothing', async () => {
    sandbox.clearRequests()
    const error = await failureOf(
      createUdapClient(sandbox, identityOf(certificate)).serverMetadata({
        ...anchors,
        revocation: { fetch: false },
      }),
      DiscoveryError,
    )
    expect((error.cause as CertificateChainError).reason).toBe('crl-missing')
    expect(crlRequests()).toEqual([])
  })

  it('fetches no CRL for a chain that does not reach the anchor it was given', async () => {
    sandbox.clearRequests()
    const now = new Date()
    const stranger = await createCertificateAuthority({
      name: 'Stranger Root',
      notBefore: new Date(now.getTime() - 3_600_000),
      notAfter: new Date(now.getTime() + 3_600_000),
    })
    const error = await failureOf(
      createUdapClient(sandbox, identityOf(certificate)).serverMetadata({
        trustedAnchors: [stranger.certificatePem],
      }),
      DiscoveryError,
    )
    expect(error.cause).toBeInstanceOf(CertificateChainError)
    expect(crlRequests()).toEqual([])
  })

  it('refuses a server certificate its CA revoked, from the CRL at the distribution point', async () => {
    sandbox.revokeCertificate(parseCertificate(sandbox.serverCertificate.der).serialNumber)
    sandbox.clearRequests()
    const error = await failureOf(
      createUdapClient(sandbox, identityOf(certificate)).serverMetadata(anchors),
      DiscoveryError,
    )
    expect(error.cause).toBeInstanceOf(CertificateChainError)
    expect((error.cause as CertificateChainError).reason).toBe('revoked')
    expect(crlRequests()).toContain('/crl/0/intermediate.crl')
  })
})
