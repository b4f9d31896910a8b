import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSmartSandbox } from '../../src/index.js'
import { signClientAssertion } from './support/client-assertion.js'
import {
  assertionAuthentication,
  es384ClientId,
  type Fixture,
  startFixture,
} from './support/fixture.js'
import { postForm, postJson } from './support/http.js'

let fixture: Fixture
beforeAll(async () => {
  fixture = await startFixture()
})
afterAll(() => fixture.sandbox.close())

describe('sandbox.requests', () => {
  it('records a token request with its headers and form, including the client assertion', async () => {
    const { sandbox, es384Keys } = fixture
    sandbox.clearRequests()
    const assertion = await signClientAssertion(es384Keys, es384ClientId, sandbox.endpoints.token)
    await postForm(sandbox.endpoints.token, {
      grant_type: 'client_credentials',
      scope: 'system/Patient.rs',
      ...assertionAuthentication(assertion).form,
    })

    expect(sandbox.requests).toHaveLength(1)
    const [request] = sandbox.requests
    expect(request).toMatchObject({
      method: 'POST',
      path: '/token',
      url: sandbox.endpoints.token,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      form: { grant_type: 'client_credentials', scope: 'system/Patient.rs' },
    })
    const recordedAssertion = decodeJwt(request?.form?.client_assertion ?? '')
    expect(recordedAssertion).toMatchObject({ iss: es384ClientId, aud: sandbox.endpoints.token })
    expect(request?.receivedAt).toBeInstanceOf(Date)
  })

  it('records a JSON registration body as sent, scope included', async () => {
    const { sandbox } = fixture
    sandbox.clearRequests()
    await postJson(
      sandbox.endpoints.registration,
      {
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'none',
        scope: 'system/*.rs',
      },
      { authorization: `Bearer ${sandbox.initialAccessToken}` },
    )

    expect(sandbox.requests[0]?.json).toMatchObject({ scope: 'system/*.rs' })
    expect(sandbox.requests[0]?.headers.authorization).toBe(`Bearer ${sandbox.initialAccessToken}`)
  })

  it('records query parameters and lets a test prove a request never happened', async () => {
    const { sandbox } = fixture
    sandbox.clearRequests()
    await fetch(`${sandbox.endpoints.discovery}?probe=1`).then((response) =>
      response.body?.cancel(),
    )

    expect(sandbox.requests.map((request) => request.path)).toEqual([
      '/fhir/.well-known/smart-configuration',
    ])
    expect(sandbox.requests[0]?.query).toEqual({ probe: '1' })
    expect(sandbox.requests.some((request) => request.path === '/reg')).toBe(false)
  })

  it('returns snapshots that later requests do not change', async () => {
    const { sandbox } = fixture
    sandbox.clearRequests()
    const before = sandbox.requests
    await fetch(sandbox.endpoints.discovery).then((response) => response.body?.cancel())

    expect(before).toHaveLength(0)
    expect(sandbox.requests).toHaveLength(1)
  })

  it('keeps only the newest requestLogLimit entries', async () => {
    const capped = await startSmartSandbox({ requestLogLimit: 2 })
    try {
      for (const probe of ['1', '2', '3']) {
        await fetch(`${capped.endpoints.discovery}?probe=${probe}`).then((response) =>
          response.body?.cancel(),
        )
      }
      expect(capped.requests.map((request) => request.query.probe)).toEqual(['2', '3'])
    } finally {
      await capped.close()
    }
  })
})
