import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SmartSandbox, sandboxCapabilities, startSmartSandbox } from '../../src/index.js'
import { getJson } from './support/http.js'

let sandbox: SmartSandbox
beforeAll(async () => {
  sandbox = await startSmartSandbox()
})
afterAll(() => sandbox.close())

describe('GET /fhir/.well-known/smart-configuration', () => {
  it('describes the server with absolute endpoints from the provider routes', async () => {
    const reply = await getJson(sandbox.endpoints.discovery, { accept: 'text/html' })

    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toBe('application/json')
    expect(reply.body).toEqual({
      issuer: sandbox.origin,
      jwks_uri: `${sandbox.origin}/jwks`,
      authorization_endpoint: `${sandbox.origin}/auth`,
      token_endpoint: `${sandbox.origin}/token`,
      registration_endpoint: `${sandbox.origin}/reg`,
      introspection_endpoint: `${sandbox.origin}/token/introspection`,
      revocation_endpoint: `${sandbox.origin}/token/revocation`,
      grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: ['RS384', 'ES384'],
      code_challenge_methods_supported: ['S256'],
      scopes_supported: expect.arrayContaining([
        'openid',
        'fhirUser',
        'launch',
        'launch/patient',
        'system/*.rs',
      ]),
      response_types_supported: ['code'],
      id_token_signing_alg_values_supported: ['RS256'],
      authorization_response_iss_parameter_supported: true,
      capabilities: [...sandboxCapabilities],
    })
    expect(sandbox.fhirBaseUrl).toBe(`${sandbox.origin}/fhir`)
  })

  it('lists the capabilities SMART 2.2.0 defines for what the sandbox does', () => {
    expect(sandboxCapabilities).toEqual(
      expect.arrayContaining([
        'launch-ehr',
        'launch-standalone',
        'authorize-post',
        'client-public',
        'client-confidential-symmetric',
        'client-confidential-asymmetric',
        'sso-openid-connect',
        'context-ehr-patient',
        'context-ehr-encounter',
        'context-standalone-patient',
        'permission-offline',
        'permission-patient',
        'permission-user',
        'permission-v2',
        'context-banner',
        'context-style',
      ]),
    )
  })

  it('agrees with the provider on the issuer and the endpoints', async () => {
    const smart = await getJson(sandbox.endpoints.discovery)
    const openid = await getJson(`${sandbox.origin}/.well-known/openid-configuration`)

    for (const member of [
      'issuer',
      'jwks_uri',
      'authorization_endpoint',
      'token_endpoint',
      'registration_endpoint',
    ]) {
      expect(smart.body[member]).toBe(openid.body[member])
    }
  })

  it('allows cross-origin reads', async () => {
    const response = await fetch(sandbox.endpoints.discovery, {
      headers: { origin: 'https://app.example' },
    })
    await response.body?.cancel()

    expect(response.headers.get('access-control-allow-origin')).toBe('*')
  })
})

describe('discovery overrides for tests', () => {
  it('serves a rewritten document from the discovery option', async () => {
    const rewritten = await startSmartSandbox({
      discovery: ({ issuer: _issuer, ...document }) => ({ ...document, token_endpoint: '/token' }),
    })
    try {
      const reply = await getJson(rewritten.endpoints.discovery)
      expect(reply.body.token_endpoint).toBe('/token')
      expect(reply.body.issuer).toBeUndefined()
      expect(reply.body.authorization_endpoint).toBe(`${rewritten.origin}/auth`)
    } finally {
      await rewritten.close()
    }
  })

  it('serves a raw response from the discoveryResponse option', async () => {
    const raw = await startSmartSandbox({
      discoveryResponse: { status: 503, contentType: 'text/html', body: '<h1>down</h1>' },
    })
    try {
      const response = await fetch(raw.endpoints.discovery)
      expect(response.status).toBe(503)
      expect(response.headers.get('content-type')).toBe('text/html')
      expect(await response.text()).toBe('<h1>down</h1>')
    } finally {
      await raw.close()
    }
  })

  it('changes and restores discovery while running', async () => {
    sandbox.setDiscoveryOverride({ document: () => ['not', 'an', 'object'] })
    const replaced = await fetch(sandbox.endpoints.discovery)
    expect(await replaced.json()).toEqual(['not', 'an', 'object'])

    sandbox.setDiscoveryOverride(undefined)
    const restored = await getJson(sandbox.endpoints.discovery)
    expect(restored.body.token_endpoint).toBe(`${sandbox.origin}/token`)
  })

  it('does not let one override leak into the next request', async () => {
    sandbox.setDiscoveryOverride({
      document: (document) => {
        document.capabilities.length = 0
        return undefined
      },
    })
    await getJson(sandbox.endpoints.discovery)
    sandbox.setDiscoveryOverride(undefined)
    const after = await getJson(sandbox.endpoints.discovery)

    expect(after.body.capabilities).toEqual([...sandboxCapabilities])
  })
})
