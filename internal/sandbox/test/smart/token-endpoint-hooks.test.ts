/**
 * `sandbox.setTokenEndpointHooks`: a test can hold a token request (the endpoint hangs for it
 * while others pass) and rewrite token responses, and `undefined` restores the plain endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signClientAssertion } from './support/client-assertion.js'
import {
  assertionAuthentication,
  es384ClientId,
  type Fixture,
  startFixture,
} from './support/fixture.js'
import { type JsonReply, postForm } from './support/http.js'

let fixture: Fixture

beforeAll(async () => {
  fixture = await startFixture()
})
afterAll(async () => {
  fixture.sandbox.setTokenEndpointHooks(undefined)
  await fixture.sandbox.close()
})

async function backendToken(label: string): Promise<JsonReply> {
  const { sandbox } = fixture
  const assertion = await signClientAssertion(
    fixture.es384Keys,
    es384ClientId,
    sandbox.endpoints.token,
  )
  return postForm(
    sandbox.endpoints.token,
    {
      grant_type: 'client_credentials',
      scope: 'system/Patient.rs',
      ...assertionAuthentication(assertion).form,
    },
    { 'x-test-label': label },
  )
}

describe('token endpoint hooks', () => {
  it('beforeRequest holds one request while the others are answered, and sees it recorded', async () => {
    let release: () => void = () => {}
    const seen: string[] = []
    fixture.sandbox.setTokenEndpointHooks({
      beforeRequest: (request) => {
        seen.push(request.headers['x-test-label'] ?? '')
        expect(request.form?.grant_type).toBe('client_credentials')
        if (request.headers['x-test-label'] !== 'held') return
        return new Promise<void>((resolve) => {
          release = resolve
        })
      },
    })
    let heldReply: JsonReply | undefined
    const held = backendToken('held').then((reply) => {
      heldReply = reply
    })
    const passed = await backendToken('passes')
    expect(passed.status).toBe(200)
    expect(heldReply).toBeUndefined()
    expect(seen.sort()).toEqual(['held', 'passes'])
    release()
    await held
    expect(heldReply?.status).toBe(200)
  })

  it('rewriteResponse changes the JSON answer; undefined restores the endpoint', async () => {
    fixture.sandbox.setTokenEndpointHooks({
      rewriteResponse: ({ expires_in: _dropped, ...body }) => ({ ...body, rewritten: true }),
    })
    const rewritten = await backendToken('rewritten')
    expect(rewritten.status).toBe(200)
    expect(rewritten.body.expires_in).toBeUndefined()
    expect(rewritten.body.rewritten).toBe(true)
    expect(typeof rewritten.body.access_token).toBe('string')
    fixture.sandbox.setTokenEndpointHooks(undefined)
    const plain = await backendToken('plain')
    expect(plain.body.expires_in).toBe(300)
    expect(plain.body.rewritten).toBeUndefined()
  })
})
