/**
 * What `session.fetch` sends, and what it refuses before sending anything (DESIGN §8): the token
 * goes only under the FHIR base URL, a refusal says why, and a `Request` is sent as it is — its
 * signal kept, no body added — through the platform's `fetch` when no `fetch` is configured.
 * Written for the survivors of `pnpm test:mutation` in `src/tokens/bearer-fetch.ts`
 * (docs/testing.md); the main cases are in bearer-fetch.test.ts.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client, ConfigurationError, HttpError } from '@fhir-auth/client'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { fakeRoutes } from '@fhir-auth/test-utils/fake-fetch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, hangingRoute, sessionOn, smartConfiguration } from './support.js'

const patient = `${baseUrl}/Patient/1`
const onlyUnderBase = 'the access token is sent only under the FHIR baseUrl'

describe('session.fetch refuses, sending nothing, and says why', () => {
  it('a URL with user info, one that does not parse, one outside the base URL', async () => {
    const refusals = [
      ['https://user@ehr.example.org/fhir/Patient/1', 'carries user info'],
      ['https://:password@ehr.example.org/fhir/Patient/1', 'carries user info'],
      ['https://[ehr.example.org/fhir/Patient/1', 'is not a URL'],
      ['https://ehr.example.org/fhirish/Patient/1', `is outside ${baseUrl}`],
    ] as const
    for (const [url, why] of refusals) {
      const { session, server } = sessionOn({})
      const error = await failureOf(session.fetch(url), ConfigurationError)
      expect(error.invalidAttribute).toBe('url')
      expect(error.message).toBe(`the request URL ${why}: ${onlyUnderBase}`)
      expect(server.requests).toEqual([])
    }
  })

  it('an input that is no string, URL or Request', async () => {
    const { session } = sessionOn({})
    for (const input of [42, { url: patient }, null]) {
      const error = await failureOf(session.fetch(input as never), ConfigurationError)
      expect(error.message).toBe(
        `the request URL must be a string, a URL or a Request: ${onlyUnderBase}`,
      )
    }
  })

  it('headers fetch would refuse', async () => {
    const { session, server } = sessionOn({})
    const error = await failureOf(
      session.fetch(patient, { headers: { 'bad header': 'x' } }),
      ConfigurationError,
    )
    expect(error.invalidAttribute).toBe('headers')
    expect(error.message).toBe('headers are not valid HTTP header names and values')
    expect(server.requests).toEqual([])
  })

  it('any request from a client configured without baseUrl', async () => {
    const server = fakeRoutes({})
    const client = new Client(
      { clientId: 'app', tokenEndpoint: smartConfiguration.token_endpoint },
      { fetch: server.fetch },
    )
    const session = client.resumeSession({ access_token: 'at-1', expires_in: 300 })
    const error = await failureOf(session.fetch(patient), ConfigurationError)
    expect(error.invalidAttribute).toBe('baseUrl')
    expect(error.message).toBe(`fetch needs baseUrl in the configuration: ${onlyUnderBase}`)
    expect(server.requests).toEqual([])
  })
})

it("session.fetch of a Request keeps the Request's own signal", async () => {
  const { route, requestReceived } = hangingRoute()
  const { session } = sessionOn({ [patient]: route })
  const controller = new AbortController()
  const fetching = session.fetch(new Request(patient, { signal: controller.signal }))
  await requestReceived
  controller.abort()
  expect(await failureOf(fetching, HttpError)).toMatchObject({ reason: 'aborted' })
})

describe('session.fetch through the platform fetch, to a FHIR server on 127.0.0.1', () => {
  const seen: { method: string; url: string; authorization: string; body: string }[] = []
  let server: Server
  let fhirBase = ''

  const bodyOf = async (request: IncomingMessage) => {
    let body = ''
    for await (const chunk of request) body += chunk
    return body
  }

  beforeAll(async () => {
    server = createServer(async (request, response) => {
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        authorization: request.headers.authorization ?? '',
        body: await bodyOf(request),
      })
      response.writeHead(200, { 'content-type': 'application/fhir+json' })
      response.end('{"resourceType":"Patient","id":"1"}')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    fhirBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fhir`
  })

  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  it('a GET Request goes out without a body, with the token', async () => {
    const client = new Client({
      baseUrl: fhirBase,
      clientId: 'app',
      tokenEndpoint: `${fhirBase}/token`,
      allowInsecureLocalhost: true,
    })
    const session = client.resumeSession({ access_token: 'at-1', expires_in: 300 })
    const response = await session.fetch(new Request(`${fhirBase}/Patient/1`))
    expect(await response.json()).toEqual({ resourceType: 'Patient', id: '1' })
    expect(seen.at(-1)).toEqual({
      method: 'GET',
      url: '/fhir/Patient/1',
      authorization: 'Bearer at-1',
      body: '',
    })
  })
})
