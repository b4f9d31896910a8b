import { ConfigurationError, DiscoveryError, HttpError } from '@fhir-auth/core'
import { fakeFetch, hangingFetch, jsonResponse } from '@fhir-auth/test-utils/fake-fetch'
import { describe, expect, it } from 'vitest'
import { discoverSmartConfiguration, SmartMetadata, smartConfigurationUrl } from '../src/index.js'
import { rejectionOf } from './test-support.js'

const baseUrl = 'https://fhir.example.org/r4'
const discoveryUrl = 'https://fhir.example.org/r4/.well-known/smart-configuration'
const document = {
  token_endpoint: 'https://auth.example.org/token',
  authorization_endpoint: 'authorize',
}

async function discoveryFailure(
  fetch: ReturnType<typeof fakeFetch>,
  extra: object = {},
): Promise<DiscoveryError> {
  const error = await rejectionOf(() => discoverSmartConfiguration({ baseUrl, fetch, ...extra }))
  fetch.assertDone()
  expect(error).toBeInstanceOf(DiscoveryError)
  expect((error as DiscoveryError).endpoint).toBe(discoveryUrl)
  return error as DiscoveryError
}

describe('smartConfigurationUrl', () => {
  it.each([
    ['https://fhir.example.org/r4', discoveryUrl],
    ['https://fhir.example.org/r4/', discoveryUrl],
    ['https://fhir.example.org/r4///', discoveryUrl],
    ['https://fhir.example.org', 'https://fhir.example.org/.well-known/smart-configuration'],
  ])('%s → %s', (base, expected) => {
    expect(smartConfigurationUrl(base)).toBe(expected)
  })
})

describe('discoverSmartConfiguration', () => {
  it('GETs the well-known document and wraps it, resolving relative endpoints against the base', async () => {
    const fetch = fakeFetch({
      method: 'GET',
      url: discoveryUrl,
      headers: { accept: 'application/json', authorization: null },
      respond: () => jsonResponse(document),
    })
    const metadata = await discoverSmartConfiguration({ baseUrl: `${baseUrl}/`, fetch })
    fetch.assertDone()
    expect(metadata).toBeInstanceOf(SmartMetadata)
    expect(metadata.raw).toEqual(document)
    expect(metadata.discoveryUrl).toBe(discoveryUrl)
    expect(metadata.authorizationEndpoint).toBe('https://fhir.example.org/r4/authorize')
  })

  it('parses JSON whatever the content type says', async () => {
    const fetch = fakeFetch({
      method: 'GET',
      url: discoveryUrl,
      respond: () =>
        new Response(JSON.stringify(document), { headers: { 'content-type': 'text/plain' } }),
    })
    expect((await discoverSmartConfiguration({ baseUrl, fetch })).tokenEndpoint).toBe(
      document.token_endpoint,
    )
    fetch.assertDone()
  })

  it('follows a GET redirect to another HTTPS URL', async () => {
    const fetch = fakeFetch(
      {
        method: 'GET',
        url: discoveryUrl,
        respond: () =>
          new Response(null, {
            status: 301,
            headers: { location: 'https://moved.example.org/smart.json' },
          }),
      },
      {
        method: 'GET',
        url: 'https://moved.example.org/smart.json',
        respond: () => jsonResponse(document),
      },
    )
    expect((await discoverSmartConfiguration({ baseUrl, fetch })).tokenEndpoint).toBe(
      document.token_endpoint,
    )
    fetch.assertDone()
  })

  it.each([404, 500, 503])(
    'turns HTTP %i into a DiscoveryError with that status',
    async (status) => {
      const error = await discoveryFailure(
        fakeFetch({
          method: 'GET',
          url: discoveryUrl,
          respond: () => new Response('<html>down</html>', { status }),
        }),
      )
      expect(error.status).toBe(status)
      expect(error.message).toBe(`SMART discovery failed for ${discoveryUrl}: HTTP ${status}`)
    },
  )

  it.each([
    ['invalid JSON', () => new Response('<html>', { status: 200 }), 'invalid-json'],
    ['a JSON array', () => jsonResponse([document]), 'not-an-object'],
    ['a JSON string', () => jsonResponse('x'), 'not-an-object'],
    ['an empty 204', () => new Response(null, { status: 204 }), 'invalid-json'],
  ])('rejects %s with status and the HttpError as cause', async (_label, respond, reason) => {
    const error = await discoveryFailure(fakeFetch({ method: 'GET', url: discoveryUrl, respond }))
    expect(error.cause).toBeInstanceOf(HttpError)
    expect((error.cause as HttpError).reason).toBe(reason)
    expect(error.status).toBe((error.cause as HttpError).status)
    expect(typeof error.status).toBe('number')
  })

  it('turns a network error into a DiscoveryError without status', async () => {
    const error = await discoveryFailure(
      fakeFetch({
        method: 'GET',
        url: discoveryUrl,
        respond: () => Promise.reject(new TypeError('fetch failed')),
      }),
    )
    expect(error.status).toBeUndefined()
    expect((error.cause as HttpError).reason).toBe('network')
  })

  it('turns a timeout into a DiscoveryError', async () => {
    const error = await rejectionOf(() =>
      discoverSmartConfiguration({ baseUrl, fetch: hangingFetch, timeoutMs: 30 }),
    )
    expect(error).toBeInstanceOf(DiscoveryError)
    expect(((error as DiscoveryError).cause as HttpError).reason).toBe('timeout')
  })

  it('refuses a plain-HTTP base URL before any request', async () => {
    const fetch = fakeFetch()
    const error = await rejectionOf(() =>
      discoverSmartConfiguration({ baseUrl: 'http://fhir.example.org', fetch }),
    )
    fetch.assertDone()
    expect(error).toBeInstanceOf(DiscoveryError)
    expect(((error as DiscoveryError).cause as HttpError).reason).toBe('insecure-url')
  })

  it('allows loopback HTTP under allowInsecureLocalhost', async () => {
    const fetch = fakeFetch({
      method: 'GET',
      url: 'http://127.0.0.1:8080/fhir/.well-known/smart-configuration',
      respond: () => jsonResponse(document),
    })
    await discoverSmartConfiguration({
      baseUrl: 'http://127.0.0.1:8080/fhir',
      fetch,
      allowInsecureLocalhost: true,
    })
    fetch.assertDone()
  })

  it.each([undefined, '', '  ', 42])(
    'refuses baseUrl %j with a ConfigurationError',
    async (value) => {
      const error = await rejectionOf(() =>
        discoverSmartConfiguration({ baseUrl: value as string, fetch: fakeFetch() }),
      )
      expect(error).toBeInstanceOf(ConfigurationError)
      expect((error as ConfigurationError).invalidAttribute).toBe('baseUrl')
    },
  )
})
