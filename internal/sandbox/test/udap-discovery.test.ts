import { X509Certificate } from 'node:crypto'
import { generateTestKeyPair } from '@fhir-auth/test-pki/issuer'
import { compactVerify, importX509 } from 'jose'
import * as pkijs from 'pkijs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultCommunityUri, startUdapSandbox, type UdapSandbox } from '../src/index.js'
import { decodeJws, discover, sanUrisOf } from './udap-test-client.js'

const otherCommunity = 'udap://other.community.example.test/'

let sandbox: UdapSandbox

beforeAll(async () => {
  sandbox = await startUdapSandbox({ communities: [otherCommunity] })
})

afterAll(async () => {
  await sandbox.close()
})

async function metadata(community?: string): Promise<Record<string, unknown>> {
  const response = await discover(sandbox, community)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  return (await response.json()) as Record<string, unknown>
}

function pemOf(certificate: X509Certificate): string {
  return certificate.toString()
}

/** The CRLs in `crls` whose issuer is `issuer`, parsed. */
function crlsFrom(issuer: X509Certificate, crls: readonly { der: Uint8Array }[]) {
  return crls
    .map((crl) => pkijs.CertificateRevocationList.fromBER(new Uint8Array(crl.der)))
    .filter((crl) => Buffer.from(crl.issuer.toSchema().toBER()).equals(issuerNameDer(issuer)))
}

function issuerNameDer(certificate: X509Certificate): Buffer {
  return Buffer.from(
    pkijs.Certificate.fromBER(new Uint8Array(certificate.raw)).subject.toSchema().toBER(),
  )
}

describe('UDAP sandbox discovery', () => {
  it('serves the STU2 metadata fields with the configured defaults', async () => {
    const document = await metadata()
    expect(document).toMatchObject({
      udap_versions_supported: ['1'],
      udap_profiles_supported: ['udap_dcr', 'udap_authn', 'udap_authz'],
      udap_authorization_extensions_supported: ['hl7-b2b'],
      udap_authorization_extensions_required: ['hl7-b2b'],
      udap_certifications_supported: [],
      grant_types_supported: ['client_credentials'],
      token_endpoint: `${sandbox.origin}/token`,
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: ['RS256', 'RS384', 'ES256', 'ES384'],
      registration_endpoint: `${sandbox.origin}/register`,
      registration_endpoint_jwt_signing_alg_values_supported: ['RS256', 'RS384', 'ES256', 'ES384'],
    })
    expect(document.scopes_supported).toEqual(expect.arrayContaining(['system/*.rs']))
    expect(document).not.toHaveProperty('authorization_endpoint')
    expect(typeof document.signed_metadata).toBe('string')
    expect(sandbox.fhirBaseUrl).toBe(`${sandbox.origin}/fhir`)
  })

  it('signs the metadata with RS256 by x5c[0], whose SAN is the base URL, under the exposed anchor', async () => {
    const document = await metadata()
    const jws = document.signed_metadata as string
    const { header, x5c } = decodeJws(jws)
    expect(header.alg).toBe('RS256')
    expect(x5c).toHaveLength(2)
    const [leaf, intermediate] = x5c as [X509Certificate, X509Certificate]

    const { payload } = await compactVerify(jws, await importX509(pemOf(leaf), 'RS256'), {
      algorithms: ['RS256'],
    })
    const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, number | string>
    expect(claims.iss).toBe(sandbox.fhirBaseUrl)
    expect(claims.sub).toBe(sandbox.fhirBaseUrl)
    expect(sanUrisOf(leaf)).toEqual([sandbox.fhirBaseUrl])
    expect(claims.token_endpoint).toBe(document.token_endpoint)
    expect(claims.registration_endpoint).toBe(document.registration_endpoint)
    expect(typeof claims.jti).toBe('string')
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600)
    expect(Math.abs(Number(claims.iat) - Date.now() / 1000)).toBeLessThan(30)

    const anchor = new X509Certificate(sandbox.trust.anchors[0]?.pem ?? '')
    expect(leaf.checkIssued(intermediate)).toBe(true)
    expect(leaf.verify(intermediate.publicKey)).toBe(true)
    expect(intermediate.checkIssued(anchor)).toBe(true)
    expect(intermediate.verify(anchor.publicKey)).toBe(true)
    expect(leaf.publicKey.asymmetricKeyType).toBe('rsa')
    expect(sandbox.serverCertificate.der).toEqual(new Uint8Array(leaf.raw))

    // Every non-anchor certificate has a current, correctly signed CRL that does not list it.
    const now = new Date()
    for (const [certificate, issuer] of [
      [leaf, intermediate],
      [intermediate, anchor],
    ] as const) {
      const crls = crlsFrom(issuer, sandbox.trust.crls)
      expect(crls).toHaveLength(1)
      const crl = crls[0] as pkijs.CertificateRevocationList
      expect(
        await crl.verify({
          issuerCertificate: pkijs.Certificate.fromBER(new Uint8Array(issuer.raw)),
        }),
      ).toBe(true)
      expect(crl.thisUpdate.value.getTime()).toBeLessThan(now.getTime())
      expect(crl.nextUpdate?.value.getTime()).toBeGreaterThan(now.getTime())
      expect(
        crl.isCertificateRevoked(pkijs.Certificate.fromBER(new Uint8Array(certificate.raw))),
      ).toBe(false)
    }
  })

  it('offers the trust inputs as PEM and DER of the same objects', () => {
    const [anchor] = sandbox.trust.anchors
    expect(anchor?.pem).toMatch(/^-----BEGIN CERTIFICATE-----\n/)
    expect(new Uint8Array(new X509Certificate(anchor?.pem ?? '').raw)).toEqual(anchor?.der)
    for (const crl of sandbox.trust.crls) {
      expect(crl.pem).toMatch(/^-----BEGIN X509 CRL-----\n/)
      const body = crl.pem.replace(/-----[A-Z0-9 ]+-----|\s/g, '')
      expect(new Uint8Array(Buffer.from(body, 'base64'))).toEqual(crl.der)
    }
    expect(sandbox.trust.community).toBe(defaultCommunityUri)
  })

  it('signs with the certificate of a recognised community and answers 204 to an unknown one', async () => {
    const forOther = decodeJws((await metadata(otherCommunity)).signed_metadata as string)
    const forDefault = decodeJws((await metadata(defaultCommunityUri)).signed_metadata as string)
    const otherAnchor = new X509Certificate(
      sandbox.communityTrust(otherCommunity).anchors[0]?.pem ?? '',
    )
    const defaultAnchor = new X509Certificate(sandbox.trust.anchors[0]?.pem ?? '')
    expect(forOther.x5c[1]?.verify(otherAnchor.publicKey)).toBe(true)
    expect(forOther.x5c[1]?.verify(defaultAnchor.publicKey)).toBe(false)
    expect(forDefault.x5c[1]?.verify(defaultAnchor.publicKey)).toBe(true)
    expect(sanUrisOf(forOther.x5c[0] as X509Certificate)).toEqual([sandbox.fhirBaseUrl])

    const unknown = await discover(sandbox, 'udap://unknown.example.test/')
    expect(unknown.status).toBe(204)
    expect(await unknown.text()).toBe('')
    expect(() => sandbox.communityTrust('udap://unknown.example.test/')).toThrow(/community/)
  })

  it('answers 405 to other methods and 404 to other paths', async () => {
    const post = await fetch(`${sandbox.origin}/fhir/.well-known/udap`, { method: 'POST' })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET')
    expect((await fetch(`${sandbox.origin}/fhir/.well-known/smart-configuration`)).status).toBe(404)
  })

  it('counts and records requests per endpoint until cleared', async () => {
    sandbox.clearRequests()
    await discover(sandbox)
    await fetch(`${sandbox.origin}/elsewhere`)
    expect(sandbox.requestCounts).toEqual({
      discovery: 1,
      registration: 0,
      token: 0,
      authorization: 0,
      resource: 0,
      other: 1,
    })
    expect(sandbox.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /fhir/.well-known/udap',
      'GET /elsewhere',
    ])
    sandbox.clearRequests()
    expect(sandbox.requestCounts).toEqual({
      discovery: 0,
      registration: 0,
      token: 0,
      authorization: 0,
      resource: 0,
      other: 0,
    })
    expect(sandbox.requests).toEqual([])
  })
})

describe('UDAP sandbox discovery options', () => {
  it('advertises authorization_code with an authorization endpoint and custom lists', async () => {
    const custom = await startUdapSandbox({
      grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
      requiredAuthorizationExtensions: [],
      tokenSigningAlgorithms: ['ES384'],
      registrationSigningAlgorithms: ['RS256'],
      scopesSupported: ['system/*.rs', 'user/*.rs'],
      publicOrigin: 'https://fhir.example.test',
    })
    try {
      const response = await discover(custom)
      const document = (await response.json()) as Record<string, unknown>
      expect(document).toMatchObject({
        grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
        authorization_endpoint: 'https://fhir.example.test/authorize',
        token_endpoint: 'https://fhir.example.test/token',
        registration_endpoint: 'https://fhir.example.test/register',
        udap_authorization_extensions_supported: ['hl7-b2b'],
        udap_authorization_extensions_required: [],
        token_endpoint_auth_signing_alg_values_supported: ['ES384'],
        registration_endpoint_jwt_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['system/*.rs', 'user/*.rs'],
      })
      const { claims, x5c } = decodeJws(document.signed_metadata as string)
      expect(claims.iss).toBe('https://fhir.example.test/fhir')
      expect(claims.authorization_endpoint).toBe('https://fhir.example.test/authorize')
      expect(sanUrisOf(x5c[0] as X509Certificate)).toEqual(['https://fhir.example.test/fhir'])
    } finally {
      await custom.close()
    }
  })

  it('refuses inconsistent options with a ConfigurationError naming the option', async () => {
    await expect(startUdapSandbox({ grantTypes: ['refresh_token'] })).rejects.toMatchObject({
      name: 'ConfigurationError',
      invalidAttribute: 'grantTypes',
    })
    await expect(
      startUdapSandbox({ publicOrigin: 'https://fhir.example.test/r4' }),
    ).rejects.toMatchObject({
      invalidAttribute: 'publicOrigin',
    })
    await expect(
      startUdapSandbox({ tokenSigningAlgorithms: ['HS256' as 'RS256'] }),
    ).rejects.toMatchObject({ invalidAttribute: 'tokenSigningAlgorithms' })
    await expect(startUdapSandbox({ hostile: 'nonsense' as 'alg-none' })).rejects.toMatchObject({
      invalidAttribute: 'hostile',
    })
    await expect(
      startUdapSandbox({ clientTrust: { anchors: ['not a pem'], crls: [] } }),
    ).rejects.toMatchObject({ invalidAttribute: 'clientTrust.anchors' })
  })

  it('starts generating its RSA key, or reusing a given one', async () => {
    const coldStart = performance.now()
    const cold = await startUdapSandbox()
    const coldMs = performance.now() - coldStart
    const serverKeyPair = await generateTestKeyPair('rsa2048')
    const sharedStart = performance.now()
    const shared = await startUdapSandbox({ serverKeyPair })
    const sharedMs = performance.now() - sharedStart
    await Promise.all([cold.close(), shared.close()])
    console.info(
      `UDAP sandbox start-up: ${coldMs.toFixed(0)} ms cold, ${sharedMs.toFixed(0)} ms with a given key`,
    )
    const sharedLeafKey = new X509Certificate(shared.serverCertificate.pem).publicKey
    expect(new Uint8Array(sharedLeafKey.export({ format: 'der', type: 'spki' }))).toEqual(
      serverKeyPair.spki,
    )
  })
})
