/**
 * DESIGN §9 `tokens.fetch(input, init?)`: as `session.fetch` (§8) — Bearer added, relative input
 * against baseUrl, only URLs under baseUrl, a 401 invalidates and retries once when replayable.
 */
import { ConfigurationError } from '@fhir-auth/client'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { describe, expect, it } from 'vitest'
import { fhirBase, smartClient, smartServer } from './support/smart-token-server.js'

describe('DESIGN §9 tokens.fetch', () => {
  it('adds Authorization: Bearer and resolves a relative path against baseUrl', async () => {
    const server = smartServer()
    const tokens = smartClient(server).backendTokens()
    const response = await tokens.fetch('Patient', { headers: { accept: 'application/fhir+json' } })
    expect(response.status).toBe(200)
    expect(server.apiRequests).toHaveLength(1)
    const [request] = server.apiRequests
    expect(request?.url).toBe(`${fhirBase}/Patient`)
    expect(request?.headers.get('authorization')).toBe('Bearer token-1')
    expect(request?.headers.get('accept')).toBe('application/fhir+json')
  })

  it('accepts an absolute URL and a URL object under baseUrl, reusing the cached token', async () => {
    const server = smartServer()
    const tokens = smartClient(server).backendTokens()
    await tokens.fetch(`${fhirBase}/Patient/1`)
    await tokens.fetch(new URL(`${fhirBase}/metadata`))
    expect(server.apiRequests.map((request) => request.url)).toEqual([
      `${fhirBase}/Patient/1`,
      `${fhirBase}/metadata`,
    ])
    expect(server.tokenRequests()).toBe(1)
  })

  it.each([
    ['another origin', 'https://evil.example.test/r4/Patient'],
    ['same host, another scheme', 'http://fhir.example.test/r4/Patient'],
    ['same origin, outside the base path', 'https://fhir.example.test/other/Patient'],
    ['a sibling path sharing the prefix text', 'https://fhir.example.test/r4x/Patient'],
    ['a relative path climbing out of the base', '../admin'],
  ])('refuses %s with a ConfigurationError and sends nothing', async (_label, url) => {
    const server = smartServer()
    const tokens = smartClient(server).backendTokens()
    await failureOf(tokens.fetch(url), ConfigurationError)
    expect(server.apiRequests).toHaveLength(0)
  })

  it('on a 401 drops the token, gets a new one and retries once', async () => {
    const server = smartServer()
    server.rejectedTokens.add('token-1')
    const tokens = smartClient(server).backendTokens()
    const response = await tokens.fetch('Patient')
    expect(response.status).toBe(200)
    expect(server.apiRequests.map((request) => request.headers.get('authorization'))).toEqual([
      'Bearer token-1',
      'Bearer token-2',
    ])
    expect(server.tokenRequests()).toBe(2)
    expect(await tokens.accessToken()).toBe('token-2')
  })

  it('retries a string body once with the same body', async () => {
    const server = smartServer()
    server.rejectedTokens.add('token-1')
    const tokens = smartClient(server).backendTokens()
    const response = await tokens.fetch('Patient', {
      method: 'POST',
      body: '{"resourceType":"Patient"}',
    })
    expect(response.status).toBe(200)
    expect(server.apiRequests.map((request) => request.bodyText)).toEqual([
      '{"resourceType":"Patient"}',
      '{"resourceType":"Patient"}',
    ])
  })

  it('a second 401 comes back as is (one retry only)', async () => {
    const server = smartServer()
    server.rejectedTokens.add('token-1')
    server.rejectedTokens.add('token-2')
    const tokens = smartClient(server).backendTokens()
    const response = await tokens.fetch('Patient')
    expect(response.status).toBe(401)
    expect(server.apiRequests).toHaveLength(2)
    expect(server.tokenRequests()).toBe(2)
  })

  it('does not retry a request whose body cannot be replayed (a stream)', async () => {
    const server = smartServer()
    server.rejectedTokens.add('token-1')
    const tokens = smartClient(server).backendTokens()
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{}'))
        controller.close()
      },
    })
    const response = await tokens.fetch('Patient', {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit)
    expect(response.status).toBe(401)
    expect(server.apiRequests).toHaveLength(1)
  })
})
