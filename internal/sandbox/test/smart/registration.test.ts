import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ClientKeys, generateClientKeys, sandboxDefaultRedirectUri } from '../../src/index.js'
import { signClientAssertion } from './support/client-assertion.js'
import {
  assertionAuthentication,
  authorizeForCode,
  exchangeCode,
  type Fixture,
  publicAuthentication,
  startFixture,
  stringMember,
} from './support/fixture.js'
import { postForm, postJson } from './support/http.js'

let fixture: Fixture
let keys: ClientKeys
beforeAll(async () => {
  ;[fixture, keys] = await Promise.all([startFixture(), generateClientKeys('ES384')])
})
afterAll(() => fixture.sandbox.close())

function backendClientMetadata(): Record<string, unknown> {
  return {
    client_name: 'Registered backend',
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'private_key_jwt',
    jwks: { keys: [keys.publicJwk] },
    scope: 'system/Patient.rs',
  }
}

describe('RFC 7591 registration at /reg', () => {
  it('refuses a request without the initial access token', async () => {
    const reply = await postJson(fixture.sandbox.endpoints.registration, backendClientMetadata())

    expect(reply.status).toBe(401)
    expect(reply.body.error).toBe('invalid_token')
  })

  it('refuses a wrong initial access token', async () => {
    const reply = await postJson(fixture.sandbox.endpoints.registration, backendClientMetadata(), {
      authorization: 'Bearer not-the-initial-access-token',
    })

    expect(reply.status).toBe(401)
  })

  it('registers a private_key_jwt backend client that can get a token at once', async () => {
    const { sandbox } = fixture
    const registered = await postJson(sandbox.endpoints.registration, backendClientMetadata(), {
      authorization: `Bearer ${sandbox.initialAccessToken}`,
    })
    expect(registered.status).toBe(201)
    const clientId = stringMember(registered, 'client_id')
    expect(registered.body.client_secret).toBeUndefined()
    expect(typeof registered.body.registration_access_token).toBe('string')

    const assertion = await signClientAssertion(keys, clientId, sandbox.endpoints.token)
    const token = await postForm(sandbox.endpoints.token, {
      grant_type: 'client_credentials',
      scope: 'system/Patient.rs',
      ...assertionAuthentication(assertion).form,
    })
    expect(token.status).toBe(200)
    expect(token.body.scope).toBe('system/Patient.rs')
  })

  it('registers a backend client that names only grant_types (RFC 7591 defaults adapted)', async () => {
    const { sandbox } = fixture
    const registered = await postJson(
      sandbox.endpoints.registration,
      {
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [keys.publicJwk] },
        scope: 'system/*.rs',
      },
      { authorization: `Bearer ${sandbox.initialAccessToken}` },
    )

    expect(registered.status).toBe(201)
    expect(registered.body).toMatchObject({ scope: 'system/*.rs', response_types: [] })
  })

  it('enforces the registered scope on client_credentials', async () => {
    const { sandbox } = fixture
    const registered = await postJson(sandbox.endpoints.registration, backendClientMetadata(), {
      authorization: `Bearer ${sandbox.initialAccessToken}`,
    })
    const clientId = stringMember(registered, 'client_id')
    const assertion = await signClientAssertion(keys, clientId, sandbox.endpoints.token)
    const token = await postForm(sandbox.endpoints.token, {
      grant_type: 'client_credentials',
      scope: 'system/Observation.rs',
      ...assertionAuthentication(assertion).form,
    })

    expect(token.status).toBe(400)
    expect(token.body.error).toBe('invalid_scope')
  })

  it('registers a public app-launch client', async () => {
    const { sandbox } = fixture
    const registered = await postJson(
      sandbox.endpoints.registration,
      {
        client_name: 'Registered app',
        redirect_uris: [sandboxDefaultRedirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      { authorization: `Bearer ${sandbox.initialAccessToken}` },
    )
    expect(registered.status).toBe(201)
    const clientId = stringMember(registered, 'client_id')

    const { prepared, code } = await authorizeForCode(sandbox, {
      clientId,
      scope: 'launch/patient patient/*.rs offline_access',
    })
    const token = await exchangeCode(sandbox, prepared, code, publicAuthentication(clientId))
    expect(token.status).toBe(200)
    expect(token.body.patient).toBe('patient-1')
  })

  it('issues a client_secret to a client_secret_basic registration', async () => {
    const { sandbox } = fixture
    const registered = await postJson(
      sandbox.endpoints.registration,
      {
        redirect_uris: [sandboxDefaultRedirectUri],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      { authorization: `Bearer ${sandbox.initialAccessToken}` },
    )

    expect(registered.status).toBe(201)
    expect(typeof registered.body.client_secret).toBe('string')
  })

  it.each([
    [
      'client_credentials with a client secret',
      () => ({
        grant_types: ['client_credentials'],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      }),
    ],
    [
      'client_secret_post',
      () => ({
        redirect_uris: [sandboxDefaultRedirectUri],
        token_endpoint_auth_method: 'client_secret_post',
      }),
    ],
    [
      'private_key_jwt keys without kid',
      () => ({
        grant_types: ['client_credentials'],
        response_types: [],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [keyWithoutKid()] },
      }),
    ],
  ])('refuses %s with invalid_client_metadata', async (_case, metadata) => {
    const reply = await postJson(fixture.sandbox.endpoints.registration, metadata(), {
      authorization: `Bearer ${fixture.sandbox.initialAccessToken}`,
    })

    expect(reply.status).toBe(400)
    expect(reply.body.error).toBe('invalid_client_metadata')
  })
})

function keyWithoutKid(): Record<string, unknown> {
  const { kid: _kid, ...rest } = keys.publicJwk
  return rest
}
