/**
 * DESIGN §8 probe, `session.fetch`: `Authorization: Bearer` added, relative input resolved
 * against `baseUrl`, the token sent only under `baseUrl` (same origin, path prefix; anything
 * else a `ConfigurationError` with nothing sent), one refresh and one retry on a 401 when the
 * request can be replayed, a refresh first when the token is about to expire, and the
 * `Response` given back as is. Written from DESIGN's words only, driving the public entries as a
 * black box.
 */
import { ConfigurationError, FhirAuthError, memoryStore } from '@fhir-auth/client'
import { failureOf, rejectionOf } from '@fhir-auth/test-utils/failure'
import { describe, expect, it } from 'vitest'
import { BASE, json, PATIENT, refusingFirstAccessToken } from './support/fake-smart-server.js'
import { begin, freshProbe, launchedSession } from './support/probe-client.js'

describe('§8 session.fetch', () => {
  it('adds Authorization: Bearer and resolves relative input against baseUrl (with its path)', async () => {
    const { session, server } = await launchedSession()
    const response = await session.fetch('Patient/1')
    expect(response.status).toBe(200)
    const [request] = server.resourceRequests()
    expect(request?.url).toBe(PATIENT)
    expect(request?.headers.get('authorization')).toBe('Bearer at-1')
  })

  it('takes an absolute string, a URL object and a Request object (its headers kept)', async () => {
    const { session, server } = await launchedSession()
    await session.fetch(PATIENT)
    await session.fetch(new URL(PATIENT))
    await session.fetch(new Request(PATIENT, { headers: { accept: 'application/fhir+json' } }))
    const requests = server.resourceRequests()
    expect(requests.map((request) => request.url)).toEqual([PATIENT, PATIENT, PATIENT])
    for (const request of requests) {
      expect(request.headers.get('authorization')).toBe('Bearer at-1')
    }
    expect(requests[2]?.headers.get('accept')).toBe('application/fhir+json')
  })

  it('keeps the caller init (method, headers, body)', async () => {
    const { session, server } = await launchedSession()
    await session.fetch('Patient/1', {
      method: 'PUT',
      headers: { 'content-type': 'application/fhir+json', 'x-extra': '1' },
      body: '{"resourceType":"Patient"}',
    })
    const [request] = server.resourceRequests()
    expect(request?.method).toBe('PUT')
    expect(request?.headers.get('x-extra')).toBe('1')
    expect(request?.headers.get('content-type')).toBe('application/fhir+json')
    expect(request?.bodyText).toBe('{"resourceType":"Patient"}')
    expect(request?.headers.get('authorization')).toBe('Bearer at-1')
  })

  it.each([
    ['another origin', 'https://evil.example/r4/Patient/1'],
    ['a sibling path with the base as a prefix', 'https://fhir.example.org/r4x/Patient/1'],
    ['another path on the same origin', 'https://fhir.example.org/other/Patient/1'],
    ['the origin root', 'https://fhir.example.org/'],
    ['another port', 'https://fhir.example.org:8443/r4/Patient/1'],
    ['http instead of https', 'http://fhir.example.org/r4/Patient/1'],
    ['userinfo', 'https://user:pass@fhir.example.org/r4/Patient/1'],
    ['userinfo (user only)', 'https://user@fhir.example.org/r4/Patient/1'],
    ['.. out of the base', 'https://fhir.example.org/r4/../admin'],
    ['encoded %2e%2e out of the base', 'https://fhir.example.org/r4/%2e%2e/admin'],
    ['encoded %2E%2E out of the base', 'https://fhir.example.org/r4/%2E%2E/admin'],
    ['encoded slash right after the base', 'https://fhir.example.org/r4%2F..%2Fadmin'],
    ['relative .. out of the base', '../admin'],
    ['relative Patient/../../admin', 'Patient/../../admin'],
    ['an absolute path outside the base', '/admin'],
    ['a protocol-relative URL', '//evil.example/r4/Patient/1'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/plain,hello'],
    ['a backslash trick', 'https://fhir.example.org\\@evil.example/r4/Patient/1'],
    ['a lookalike host', 'https://fhir.example.org.evil.example/r4/Patient/1'],
  ])('refuses %s with a ConfigurationError and sends nothing', async (_name, url) => {
    const { session, server } = await launchedSession()
    const before = server.requests.length
    const error = await rejectionOf(session.fetch(url))
    expect(error).toBeInstanceOf(ConfigurationError)
    expect(server.requests.length).toBe(before)
    expect(String(error)).not.toContain('at-1')
  })

  it.each([
    ['a URL object off base', () => new URL('https://evil.example/r4/Patient/1')],
    ['a Request off base', () => new Request('https://evil.example/r4/Patient/1')],
  ])('refuses %s too', async (_name, make) => {
    const { session, server } = await launchedSession()
    const before = server.requests.length
    const outcome = await rejectionOf(async () => session.fetch(make() as never))
    expect(outcome).toBeInstanceOf(ConfigurationError)
    expect(server.requests.length).toBe(before)
  })

  it.each([
    ['the base itself', BASE],
    ['the base with a slash', `${BASE}/`],
    ['the base with a query', `${BASE}?_count=1`],
    ['a host in upper case', 'https://FHIR.EXAMPLE.ORG/r4/Patient/1'],
    ['the default port written out', 'https://fhir.example.org:443/r4/Patient/1'],
    ['a path with .. that stays inside', 'https://fhir.example.org/r4/Observation/../Patient/1'],
  ])('sends to %s (under the base)', async (_name, url) => {
    const { session, server } = await launchedSession({
      resourceUrls: [BASE, `${BASE}/`],
    })
    const response = await session.fetch(url)
    expect(response.status).toBe(200)
    const request = server.resourceRequests().at(-1)
    expect(request?.headers.get('authorization')).toBe('Bearer at-1')
  })

  it('a baseUrl configured with a trailing slash behaves the same', async () => {
    const { session, server } = await launchedSession({}, {}, { baseUrl: `${BASE}/` })
    await session.fetch('Patient/1')
    expect(server.resourceRequests().at(-1)?.url).toBe(PATIENT)
    await failureOf(session.fetch('https://fhir.example.org/r4x/Patient/1'), ConfigurationError)
  })

  it('on a 401 it refreshes once and retries once (no body)', async () => {
    const { session, server } = await launchedSession({
      resource: refusingFirstAccessToken(() => json({ resourceType: 'Patient' })),
    })
    const response = await session.fetch('Patient/1')
    expect(response.status).toBe(200)
    const auth = server.resourceRequests().map((request) => request.headers.get('authorization'))
    expect(auth).toEqual(['Bearer at-1', 'Bearer at-r1'])
    expect(server.tokenRequests()).toHaveLength(2)
  })

  it.each([
    ['a string body', () => '{"resourceType":"Patient"}'],
    ['a Uint8Array body', () => new TextEncoder().encode('{"resourceType":"Patient"}')],
    ['an ArrayBuffer body', () => new TextEncoder().encode('{"resourceType":"Patient"}').buffer],
  ])('retries a POST with %s after a 401 and a refresh', async (_name, body) => {
    const { session, server } = await launchedSession({
      resource: refusingFirstAccessToken(() => json({ resourceType: 'Patient' }, 201)),
    })
    const response = await session.fetch('Patient/1', { method: 'POST', body: body() as never })
    expect(response.status).toBe(201)
    expect(server.resourceRequests()).toHaveLength(2)
    expect(server.tokenRequests()).toHaveLength(2)
  })

  it('does not retry a 401 for a stream body: the 401 comes back as is', async () => {
    const { session, server } = await launchedSession({
      resource: () => new Response('nope', { status: 401 }),
    })
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{}'))
        controller.close()
      },
    })
    const response = await session.fetch('Patient/1', {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(response.status).toBe(401)
    expect(server.resourceRequests()).toHaveLength(1)
  })

  it('a Request with a body: a retry after a 401 sends the same body again (or the 401 comes back)', async () => {
    const bodies: string[] = []
    const { server, client } = freshProbe(
      { resource: refusingFirstAccessToken(() => json({}, 201)) },
      {
        fetch: async (url, init) => {
          if (url === PATIENT) bodies.push(await new Response(init.body ?? null).text())
          return server.fetch(url, init)
        },
      },
    )
    const store = memoryStore()
    const { callback } = await begin(client, server, store)
    const session = await client.completeAuthorization(callback(), { store })
    const response = await session.fetch(
      new Request(PATIENT, { method: 'POST', body: '{"a":1}' }) as never,
    )
    if (response.status === 201) {
      expect(bodies).toEqual(['{"a":1}', '{"a":1}'])
    } else {
      expect(response.status).toBe(401)
      expect(bodies).toHaveLength(1)
    }
  })

  it('a second 401 is returned as is (one refresh, one retry)', async () => {
    const { session, server } = await launchedSession({
      resource: () => new Response('still no', { status: 401 }),
    })
    const response = await session.fetch('Patient/1')
    expect(response.status).toBe(401)
    expect(await response.text()).toBe('still no')
    expect(server.resourceRequests()).toHaveLength(2)
    expect(server.tokenRequests()).toHaveLength(2)
  })

  it('a 401 without a refresh token comes back as is', async () => {
    const { server, client } = freshProbe({ resource: () => new Response('', { status: 401 }) })
    const session = client.resumeSession({ access_token: 'a', expires_in: 3600 })
    const response = await session.fetch('Patient/1')
    expect(response.status).toBe(401)
    expect(server.resourceRequests()).toHaveLength(1)
  })

  it('refreshes before sending when the token expires within 60 s', async () => {
    const { session, server } = await launchedSession({
      codeAnswer: (srv) => srv.codeResponse({ expires_in: 30 }),
    })
    await session.fetch('Patient/1')
    expect(server.resourceRequests()[0]?.headers.get('authorization')).toBe('Bearer at-r1')
  })

  it('a redirect from the FHIR server to another origin never carries the token there', async () => {
    const evil = 'https://evil.example/steal'
    const { session, server } = await launchedSession({
      resource: () => new Response(null, { status: 302, headers: { location: evil } }),
      resourceUrls: [evil],
    })
    const outcome = await session.fetch('Patient/1').then(
      (response) => response,
      (error: unknown) => error,
    )
    const leaked = server.requests.filter(
      (request) =>
        request.url.startsWith('https://evil.example') && request.headers.has('authorization'),
    )
    expect(leaked).toHaveLength(0)
    expect(outcome instanceof Response || outcome instanceof FhirAuthError).toBe(true)
  })

  it('an already aborted signal rejects at once and sends nothing', async () => {
    const { session, server } = await launchedSession()
    const before = server.requests.length
    const outcome = await rejectionOf(session.fetch('Patient/1', { signal: AbortSignal.abort() }))
    expect(outcome).toBeDefined()
    expect(server.requests.length).toBe(before)
  })

  it('returns the Response as is: status, headers and a large body (no size cap)', async () => {
    const big = 'x'.repeat(12 * 1024 * 1024)
    const { session } = await launchedSession({
      resource: () =>
        new Response(big, { status: 418, headers: { 'x-custom': 'yes', etag: 'W/"1"' } }),
    })
    const response = await session.fetch('Patient/1')
    expect(response).toBeInstanceOf(Response)
    expect(response.status).toBe(418)
    expect(response.headers.get('x-custom')).toBe('yes')
    expect((await response.text()).length).toBe(big.length)
  })

  it('session.fetch with input of the wrong type is a ConfigurationError, nothing sent', async () => {
    const { session, server } = await launchedSession()
    const before = server.requests.length
    for (const input of [42, null, undefined, {}, ['Patient/1']]) {
      const error = await rejectionOf(async () => session.fetch(input as never))
      expect(error).toBeInstanceOf(ConfigurationError)
    }
    expect(server.requests.length).toBe(before)
  })
})
