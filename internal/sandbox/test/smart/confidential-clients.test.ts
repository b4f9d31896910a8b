import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateClientKeys } from '../../src/index.js'
import { signClientAssertion } from './support/client-assertion.js'
import {
  assertionAuthentication,
  authorizeForCode,
  basicAuthentication,
  es384ClientId,
  exchangeCode,
  type Fixture,
  freshAssertionAuthentication,
  publicAuthentication,
  refresh,
  rs384ClientId,
  startFixture,
  stringMember,
  symmetricClientId,
  symmetricClientSecret,
} from './support/fixture.js'

const scope = 'openid fhirUser launch/patient patient/*.rs offline_access'

let fixture: Fixture
beforeAll(async () => {
  fixture = await startFixture()
})
afterAll(() => fixture.sandbox.close())

describe('client_secret_basic (confidential symmetric)', () => {
  it('exchanges a code with HTTP Basic credentials', async () => {
    const { sandbox } = fixture
    const { prepared, code } = await authorizeForCode(sandbox, {
      clientId: symmetricClientId,
      scope,
    })
    const reply = await exchangeCode(
      sandbox,
      prepared,
      code,
      basicAuthentication(symmetricClientId, symmetricClientSecret),
    )

    expect(reply.status).toBe(200)
    expect(reply.body.token_type).toBe('Bearer')
  })

  it('rejects a wrong secret with 401 invalid_client', async () => {
    const { sandbox } = fixture
    const { prepared, code } = await authorizeForCode(sandbox, {
      clientId: symmetricClientId,
      scope,
    })
    const reply = await exchangeCode(
      sandbox,
      prepared,
      code,
      basicAuthentication(symmetricClientId, 'wrong'),
    )

    expect(reply.status).toBe(401)
    expect(reply.body.error).toBe('invalid_client')
  })

  it('rejects the secret in the form body (client_secret_post is not offered)', async () => {
    const { sandbox } = fixture
    const { prepared, code } = await authorizeForCode(sandbox, {
      clientId: symmetricClientId,
      scope,
    })
    const reply = await exchangeCode(sandbox, prepared, code, {
      form: { client_id: symmetricClientId, client_secret: symmetricClientSecret },
      headers: {},
    })

    expect(reply.body.error).toMatch(/^invalid_(client|request)$/)
    expect(reply.body.access_token).toBeUndefined()
  })

  it('requires client authentication on refresh', async () => {
    const { sandbox } = fixture
    const { prepared, code } = await authorizeForCode(sandbox, {
      clientId: symmetricClientId,
      scope,
    })
    const issued = await exchangeCode(
      sandbox,
      prepared,
      code,
      basicAuthentication(symmetricClientId, symmetricClientSecret),
    )
    const refreshToken = stringMember(issued, 'refresh_token')

    const unauthenticated = await refresh(
      sandbox,
      refreshToken,
      publicAuthentication(symmetricClientId),
    )
    expect(unauthenticated.body.access_token).toBeUndefined()
    expect(unauthenticated.body.error).toMatch(/^invalid_(client|request)$/)

    const authenticated = await refresh(
      sandbox,
      refreshToken,
      basicAuthentication(symmetricClientId, symmetricClientSecret),
    )
    expect(authenticated.status).toBe(200)
  })
})

describe('private_key_jwt (confidential asymmetric)', () => {
  it.each([
    ['RS384', rs384ClientId, 'rs384Keys'],
    ['ES384', es384ClientId, 'es384Keys'],
  ] as const)(
    'exchanges a code with an %s client assertion',
    async (_algorithm, clientId, keyName) => {
      const { sandbox } = fixture
      const { prepared, code } = await authorizeForCode(sandbox, { clientId, scope })
      const reply = await exchangeCode(
        sandbox,
        prepared,
        code,
        await freshAssertionAuthentication(sandbox, fixture[keyName], clientId),
      )

      expect(reply.status).toBe(200)
      expect(typeof reply.body.access_token).toBe('string')

      const refreshed = await refresh(
        sandbox,
        stringMember(reply, 'refresh_token'),
        await freshAssertionAuthentication(sandbox, fixture[keyName], clientId),
      )
      expect(refreshed.status).toBe(200)
    },
  )

  it('rejects an assertion replayed with the same jti', async () => {
    const { sandbox, es384Keys } = fixture
    const assertion = await signClientAssertion(es384Keys, es384ClientId, sandbox.endpoints.token)
    const first = await authorizeForCode(sandbox, { clientId: es384ClientId, scope })
    const accepted = await exchangeCode(
      sandbox,
      first.prepared,
      first.code,
      assertionAuthentication(assertion),
    )
    expect(accepted.status).toBe(200)

    const second = await authorizeForCode(sandbox, { clientId: es384ClientId, scope })
    const replayed = await exchangeCode(
      sandbox,
      second.prepared,
      second.code,
      assertionAuthentication(assertion),
    )
    expect(replayed.status).toBe(401)
    expect(replayed.body.error).toBe('invalid_client')
  })

  const brokenAssertions = [
    ['aud is another URL', { audience: 'https://other.example/token' }],
    ['aud is the issuer instead of the token URL', { audience: 'ISSUER' }],
    ['it expired a minute ago', { expiresInSeconds: -60 }],
    ['exp is ten minutes ahead', { expiresInSeconds: 600 }],
    ['the typ header is missing', { typ: null }],
    ['the kid header is missing', { kid: null }],
    ['sub is not the client_id', { subject: 'someone-else' }],
    ['jku is not the registered jwks_uri', { jku: 'https://attacker.example/jwks' }],
  ] as const

  it.each(brokenAssertions)('rejects an assertion when %s', async (_case, overrides) => {
    const { sandbox, rs384Keys } = fixture
    const { prepared, code } = await authorizeForCode(sandbox, { clientId: rs384ClientId, scope })
    const assertion = await signClientAssertion(rs384Keys, rs384ClientId, sandbox.endpoints.token, {
      ...overrides,
      ...('audience' in overrides && overrides.audience === 'ISSUER'
        ? { audience: sandbox.issuer }
        : {}),
    })
    const reply = await exchangeCode(sandbox, prepared, code, assertionAuthentication(assertion))

    expect(reply.status).toBe(401)
    expect(reply.body.error).toBe('invalid_client')
    // The code was not consumed by the failed attempt: a correct assertion still works.
    const retry = await exchangeCode(
      sandbox,
      prepared,
      code,
      await freshAssertionAuthentication(sandbox, rs384Keys, rs384ClientId),
    )
    expect(retry.status).toBe(200)
  })

  it('rejects an assertion signed by a key the client did not register', async () => {
    const { sandbox } = fixture
    const strangerKeys = await generateClientKeys('RS384')
    const { prepared, code } = await authorizeForCode(sandbox, { clientId: rs384ClientId, scope })
    const assertion = await signClientAssertion(
      strangerKeys,
      rs384ClientId,
      sandbox.endpoints.token,
      {
        kid: fixture.rs384Keys.kid,
        jti: randomUUID(),
      },
    )
    const reply = await exchangeCode(sandbox, prepared, code, assertionAuthentication(assertion))

    expect(reply.status).toBe(401)
    expect(reply.body.error).toBe('invalid_client')
  })

  it('rejects an asymmetric client that sends no assertion', async () => {
    const { sandbox } = fixture
    const { prepared, code } = await authorizeForCode(sandbox, { clientId: es384ClientId, scope })
    const reply = await exchangeCode(sandbox, prepared, code, publicAuthentication(es384ClientId))

    expect(reply.body.access_token).toBeUndefined()
    expect(reply.body.error).toMatch(/^invalid_(client|request)$/)
  })
})
