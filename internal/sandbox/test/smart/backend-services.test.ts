import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signClientAssertion } from './support/client-assertion.js'
import {
  assertionAuthentication,
  es384ClientId,
  type Fixture,
  publicAuthentication,
  publicClientId,
  readPatient,
  rs384ClientId,
  startFixture,
} from './support/fixture.js'
import { type JsonReply, postForm } from './support/http.js'
import {
  type ClientKeys,
  ConfigurationErrorForTests,
  generateClientKeys,
} from './support/imports.js'

const jwksClientId = 'backend-with-jwks-uri'

let fixture: Fixture
let jwksKeys: ClientKeys
let jwksServer: Server
let jwksUri: string

beforeAll(async () => {
  jwksKeys = await generateClientKeys('ES384')
  jwksServer = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ keys: [jwksKeys.publicJwk] }))
  })
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve))
  jwksUri = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`
  fixture = await startFixture({
    clients: [
      {
        client_id: jwksClientId,
        token_endpoint_auth_method: 'private_key_jwt',
        jwks_uri: jwksUri,
        grant_types: ['client_credentials'],
      },
    ],
  })
})
afterAll(async () => {
  await fixture.sandbox.close()
  await new Promise<void>((resolve) => {
    jwksServer.close(() => resolve())
    jwksServer.closeAllConnections()
  })
})

async function requestBackendToken(
  clientId: string,
  keys: ClientKeys,
  scope: string | undefined,
  jku?: string,
): Promise<JsonReply> {
  const { sandbox } = fixture
  const assertion = await signClientAssertion(
    keys,
    clientId,
    sandbox.endpoints.token,
    jku === undefined ? {} : { jku },
  )
  return postForm(sandbox.endpoints.token, {
    grant_type: 'client_credentials',
    ...(scope === undefined ? {} : { scope }),
    ...assertionAuthentication(assertion).form,
  })
}

describe('client_credentials (SMART Backend Services)', () => {
  it.each([
    ['RS384', rs384ClientId, 'rs384Keys'],
    ['ES384', es384ClientId, 'es384Keys'],
  ] as const)(
    'issues a token to an %s client for system/ scopes, with no refresh token',
    async (_algorithm, clientId, keyName) => {
      const reply = await requestBackendToken(
        clientId,
        fixture[keyName],
        'system/Patient.rs system/Observation.rs',
      )

      expect(reply.status).toBe(200)
      expect(reply.body).toMatchObject({
        token_type: 'Bearer',
        expires_in: 300,
        scope: 'system/Patient.rs system/Observation.rs',
      })
      expect(reply.body.refresh_token).toBeUndefined()
      expect(reply.body.id_token).toBeUndefined()
      expect(reply.body.patient).toBeUndefined()
      expect(await readPatient(fixture.sandbox, 'any-patient', reply.body.access_token)).toBe(200)
    },
  )

  it('rejects user/ and patient/ scopes with invalid_scope', async () => {
    const reply = await requestBackendToken(
      es384ClientId,
      fixture.es384Keys,
      'system/Patient.rs user/Patient.rs',
    )

    expect(reply.status).toBe(400)
    expect(reply.body.error).toBe('invalid_scope')
  })

  it('rejects a request without scope', async () => {
    const reply = await requestBackendToken(es384ClientId, fixture.es384Keys, undefined)

    expect(reply.body.error).toBe('invalid_scope')
  })

  it('refuses the grant to a public client', async () => {
    const reply = await postForm(fixture.sandbox.endpoints.token, {
      grant_type: 'client_credentials',
      scope: 'system/Patient.rs',
      ...publicAuthentication(publicClientId).form,
    })

    // oidc-provider answers invalid_request here (RFC 6749 §5.2 would say unauthorized_client).
    expect(reply.body.access_token).toBeUndefined()
    expect(reply.body.error).toBe('invalid_request')
    expect(reply.body.error_description).toBe('requested grant type is not allowed for this client')
  })

  it('does not let a symmetric client be configured for client_credentials', async () => {
    await expect(
      fixture.sandbox.addClient({
        client_id: 'symmetric-backend',
        token_endpoint_auth_method: 'client_secret_basic',
        client_secret: 'a-secret-that-is-long-enough-0123456789',
        grant_types: ['client_credentials'],
      }),
    ).rejects.toThrow(ConfigurationErrorForTests)
  })
})

describe('clients with a jwks_uri', () => {
  it('fetches the key from the jwks_uri and accepts a matching jku', async () => {
    const reply = await requestBackendToken(jwksClientId, jwksKeys, 'system/*.rs', jwksUri)

    expect(reply.status).toBe(200)
    expect(reply.body.scope).toBe('system/*.rs')
  })

  it('rejects a jku that differs from the registered jwks_uri', async () => {
    const reply = await requestBackendToken(
      jwksClientId,
      jwksKeys,
      'system/*.rs',
      `${jwksUri}?other`,
    )

    expect(reply.status).toBe(401)
    expect(reply.body.error).toBe('invalid_client')
  })
})
