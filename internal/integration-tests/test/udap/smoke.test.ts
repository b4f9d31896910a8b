import { Client } from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

let sandbox: UdapSandbox
beforeAll(async () => {
  sandbox = await startUdapSandbox()
})
afterAll(() => sandbox.close())

describe('UDAP smoke', () => {
  it('discovers, registers, gets a token, cancels', async () => {
    const clientUri = 'https://client.example.test/app'
    const certificate = await sandbox.certificateAuthority.issue({
      commonName: 'App',
      sanUris: [clientUri],
      keyType: 'p256',
    })
    const trust = {
      trustedAnchors: sandbox.trust.anchors.map((a) => a.pem),
      crls: sandbox.trust.crls.map((c) => c.pem),
    }
    const client = new Client(
      {
        baseUrl: sandbox.fhirBaseUrl,
        allowInsecureLocalhost: true,
        privateKey: certificate.privateKeyPem,
        certificateChain: certificate.chainDer,
        scopes: ['system/*.rs'],
      },
      { protocol: 'udap' },
    )
    const metadata = await client.serverMetadata(trust)
    expect(metadata.tokenEndpoint).toBe(sandbox.endpoints.token)
    const registration = await client.registerClient(
      {
        client_name: 'App',
        contacts: ['mailto:ops@example.test'],
        grant_types: ['client_credentials'],
        scope: 'system/*.rs',
      },
      { clientUri, ...trust },
    )
    expect(typeof registration.client_id).toBe('string')
    const token = await client.requestBackendToken({
      b2b: {
        organizationId: 'https://org.example.test',
        purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
      },
    })
    expect(token.token_type).toBe('Bearer')
    const cancelled = await client.cancelRegistration(
      { client_name: 'App', contacts: ['mailto:ops@example.test'], scope: 'system/*.rs' },
      { clientUri, ...trust },
    )
    expect(cancelled.grant_types).toEqual([])
  })
})
