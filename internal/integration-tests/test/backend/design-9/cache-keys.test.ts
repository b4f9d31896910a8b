/**
 * DESIGN §9: "One cache entry per token endpoint, client id, scopes" (SMART part; UDAP b2b
 * contexts are in udap-b2b-contexts.test.ts).
 */
import { memoryStore } from '@fhir-auth/client'
import { describe, expect, it } from 'vitest'
import { smartClient, smartServer } from './support/smart-token-server.js'

describe('DESIGN §9 cache entries (SMART)', () => {
  it('different scopes are different entries', async () => {
    const server = smartServer()
    const client = smartClient(server)
    const patients = client.backendTokens({ scopes: ['system/Patient.rs'] })
    const observations = client.backendTokens({ scopes: ['system/Observation.rs'] })
    expect(await patients.accessToken()).toBe('token-1')
    expect(await observations.accessToken()).toBe('token-2')
    expect(await patients.accessToken()).toBe('token-1')
    expect(server.tokenForms.map((form) => form.get('scope'))).toEqual([
      'system/Patient.rs',
      'system/Observation.rs',
    ])
  })

  it('a subset of scopes is a different entry', async () => {
    const server = smartServer()
    const client = smartClient(server)
    await client
      .backendTokens({ scopes: ['system/Patient.rs', 'system/Observation.rs'] })
      .accessToken()
    await client.backendTokens({ scopes: ['system/Patient.rs'] }).accessToken()
    expect(server.tokenRequests()).toBe(2)
  })

  it('the same scopes in another order share one entry (scopes are a set)', async () => {
    const server = smartServer()
    const client = smartClient(server)
    const ab = client.backendTokens({ scopes: ['system/Patient.rs', 'system/Observation.rs'] })
    const ba = client.backendTokens({ scopes: ['system/Observation.rs', 'system/Patient.rs'] })
    expect(await ab.accessToken()).toBe('token-1')
    expect(await ba.accessToken()).toBe('token-1')
    expect(server.tokenRequests()).toBe(1)
  })

  it('the default scopes (config) and the same scopes given explicitly share one entry', async () => {
    const server = smartServer()
    const client = smartClient(server)
    expect(await client.backendTokens().accessToken()).toBe('token-1')
    expect(await client.backendTokens({ scopes: ['system/Patient.rs'] }).accessToken()).toBe(
      'token-1',
    )
  })

  it('two client ids on one shared store never share a token', async () => {
    const server = smartServer()
    const store = memoryStore()
    const one = smartClient(server, {}, { clientId: 'app-one' }).backendTokens({ store })
    const two = smartClient(server, {}, { clientId: 'app-two' }).backendTokens({ store })
    expect(await one.accessToken()).toBe('token-1')
    expect(await two.accessToken()).toBe('token-2')
    expect(server.tokenForms.map((form) => form.get('client_assertion') !== null)).toEqual([
      true,
      true,
    ])
  })

  it('two token endpoints on one shared store never share a token', async () => {
    const store = memoryStore()
    const first = smartServer({ expiresIn: 300 }, { tokenPrefix: 'first-' })
    const second = smartServer(
      { expiresIn: 300 },
      { tokenEndpoint: 'https://auth.example.test/other-token', tokenPrefix: 'second-' },
    )
    const one = smartClient(first).backendTokens({ store })
    const two = smartClient(second).backendTokens({ store })
    expect(await one.accessToken()).toBe('first-1')
    expect(await two.accessToken()).toBe('second-1')
    expect([first.tokenRequests(), second.tokenRequests()]).toEqual([1, 1])
  })

  it('same client id, endpoint and scopes on a shared store share one token across clients', async () => {
    const server = smartServer()
    const store = memoryStore()
    const tokens = Array.from({ length: 4 }, () => smartClient(server).backendTokens({ store }))
    for (const handle of tokens) expect(await handle.accessToken()).toBe('token-1')
    expect(server.tokenRequests()).toBe(1)
  })
})
