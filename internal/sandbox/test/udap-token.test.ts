import { randomUUID } from 'node:crypto'
import type { IssuedCertificate } from '@fhir-auth/test-pki/issuer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startUdapSandbox, type UdapSandbox } from '../src/index.js'
import {
  authenticationClaims,
  b2b,
  issueClient,
  issueUntrustedCertificate,
  registerClient,
  requestToken,
  signWithCertificate,
} from './udap-test-client.js'

let sandbox: UdapSandbox

beforeAll(async () => {
  sandbox = await startUdapSandbox()
})

afterAll(async () => {
  await sandbox.close()
})

interface RegisteredClient {
  readonly clientId: string
  readonly uri: string
  readonly certificate: IssuedCertificate
}

async function registeredClient(target = sandbox): Promise<RegisteredClient> {
  const uri = `https://client.example.test/${randomUUID()}`
  const certificate = await issueClient(target, { sanUris: [uri] })
  const answer = await registerClient(target, certificate, { iss: uri, sub: uri })
  expect(answer.status).toBe(201)
  return { clientId: answer.json.client_id as string, uri, certificate }
}

async function assertion(
  client: RegisteredClient,
  overrides: Record<string, unknown> = {},
  target = sandbox,
): Promise<string> {
  return signWithCertificate(
    authenticationClaims(target, client.clientId, overrides),
    client.certificate,
  )
}

describe('UDAP sandbox token endpoint: client_credentials', () => {
  it('issues a Bearer token for a registered client with hl7-b2b and records its context', async () => {
    const client = await registeredClient()
    const answer = await requestToken(sandbox, await assertion(client), {
      scope: 'system/Patient.rs',
    })
    expect(answer.status).toBe(200)
    expect(answer.json).toMatchObject({
      token_type: 'Bearer',
      expires_in: 300,
      scope: 'system/Patient.rs',
    })
    expect(answer.json.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const issued = sandbox.accessTokens.find(
      (token) => token.accessToken === answer.json.access_token,
    )
    expect(issued).toMatchObject({
      clientId: client.clientId,
      unregistered: false,
      scope: 'system/Patient.rs',
      b2b,
    })
  })

  it('grants only the registered scopes and refuses a request with none of them', async () => {
    const client = await registeredClient()
    const partial = await requestToken(sandbox, await assertion(client), {
      scope: 'system/Patient.rs system/Encounter.rs',
    })
    expect(partial.json.scope).toBe('system/Patient.rs')
    const none = await requestToken(sandbox, await assertion(client), {
      scope: 'system/Encounter.rs',
    })
    expect(none).toMatchObject({ status: 400, json: { error: 'invalid_scope' } })
  })

  it('refuses a token request without hl7-b2b, or with a malformed one, as invalid_grant', async () => {
    const client = await registeredClient()
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ extensions: undefined }, /hl7-b2b is missing/],
      [{ extensions: {} }, /hl7-b2b is missing/],
      [{ extensions: 'hl7-b2b' }, /extensions must be a JSON object/],
      [{ extensions: { 'hl7-b2b': { ...b2b, version: 1 } } }, /version must be "1"/],
      [
        { extensions: { 'hl7-b2b': { ...b2b, organization_id: 'Example Org' } } },
        /organization_id must be a URI/,
      ],
      [
        { extensions: { 'hl7-b2b': { ...b2b, purpose_of_use: [] } } },
        /purpose_of_use must be a non-empty array/,
      ],
      [{ extensions: { 'hl7-b2b': { ...b2b, purpose_of_use: undefined } } }, /purpose_of_use/],
    ]
    for (const [overrides, description] of cases) {
      const answer = await requestToken(sandbox, await assertion(client, overrides))
      expect(answer.status).toBe(400)
      expect(answer.json.error).toBe('invalid_grant')
      expect(answer.json.error_description).toMatch(description)
    }
  })

  it('accepts a token request without hl7-b2b when no extension is required', async () => {
    const optional = await startUdapSandbox({ requiredAuthorizationExtensions: [] })
    try {
      const client = await registeredClient(optional)
      const answer = await requestToken(
        optional,
        await assertion(client, { extensions: undefined }, optional),
      )
      expect(answer.status).toBe(200)
      const malformed = await requestToken(
        optional,
        await assertion(client, { extensions: { 'hl7-b2b': { version: '2' } } }, optional),
      )
      expect(malformed.json.error).toBe('invalid_grant')
    } finally {
      await optional.close()
    }
  })

  it('refuses a cancelled client as invalid_client', async () => {
    const client = await registeredClient()
    expect((await requestToken(sandbox, await assertion(client))).status).toBe(200)
    const cancel = await registerClient(sandbox, client.certificate, {
      iss: client.uri,
      sub: client.uri,
      grant_types: [],
    })
    expect(cancel.json.grant_types).toEqual([])
    const answer = await requestToken(sandbox, await assertion(client))
    expect(answer).toMatchObject({ status: 400, json: { error: 'invalid_client' } })
    expect(answer.json.error_description).toMatch(/cancelled/)
  })

  it('refuses an unknown client_id as invalid_client', async () => {
    const client = await registeredClient()
    const answer = await requestToken(
      sandbox,
      await assertion({ ...client, clientId: 'udap-unknown' }),
    )
    expect(answer).toMatchObject({ status: 400, json: { error: 'invalid_client' } })
  })

  it('refuses a certificate that does not carry the registered client URI', async () => {
    const client = await registeredClient()
    const otherCertificate = await issueClient(sandbox, {
      sanUris: ['https://client.example.test/someone-else'],
    })
    const answer = await requestToken(
      sandbox,
      await assertion({ ...client, certificate: otherCertificate }),
    )
    expect(answer).toMatchObject({ status: 400, json: { error: 'invalid_client' } })
    expect(answer.json.error_description).toMatch(/registered client URI/)
  })
})

describe('UDAP sandbox token endpoint: authentication token checks', () => {
  async function expectInvalidGrant(token: string, description: RegExp): Promise<void> {
    const answer = await requestToken(sandbox, token)
    expect(answer.status).toBe(400)
    expect(answer.json.error).toBe('invalid_grant')
    expect(answer.json.error_description).toMatch(description)
  }

  it('refuses a bad signature, an untrusted chain and a revoked certificate', async () => {
    const client = await registeredClient()
    const other = await issueClient(sandbox)
    await expectInvalidGrant(
      await signWithCertificate(
        authenticationClaims(sandbox, client.clientId),
        client.certificate,
        {
          signingKeyPem: other.privateKeyPem,
        },
      ),
      /signature does not verify/,
    )
    const stranger = await issueUntrustedCertificate([client.uri])
    await expectInvalidGrant(await assertion({ ...client, certificate: stranger }), /no valid path/)
    const revoked = await registeredClient()
    sandbox.revokeCertificate(revoked.certificate.serialNumber)
    await expectInvalidGrant(await assertion(revoked), /revoked/)
  })

  it('refuses iss ≠ sub, a wrong aud, exp − iat > 300 and a replayed jti', async () => {
    const client = await registeredClient()
    await expectInvalidGrant(
      await assertion(client, { sub: 'udap-someone-else' }),
      /sub does not equal iss/,
    )
    await expectInvalidGrant(
      await assertion(client, { aud: sandbox.endpoints.registration }),
      /aud does not name/,
    )
    const now = Math.floor(Date.now() / 1000)
    await expectInvalidGrant(
      await assertion(client, { iat: now, exp: now + 301 }),
      /more than 300 s/,
    )
    await expectInvalidGrant(await assertion(client, { iat: now - 400, exp: now - 100 }), /expired/)
    const once = await assertion(client)
    expect((await requestToken(sandbox, once)).status).toBe(200)
    await expectInvalidGrant(once, /replay/)
  })

  it('checks the form: no Authorization header, udap=1, jwt-bearer type, assertion, scope, grant type', async () => {
    const client = await registeredClient()
    const cases: [Record<string, string | undefined>, Record<string, string>, string, RegExp][] = [
      [{}, { authorization: 'Basic dXNlcjpwYXNz' }, 'invalid_request', /Authorization header/],
      [{ udap: undefined }, {}, 'invalid_request', /udap/],
      [{ udap: '2' }, {}, 'invalid_request', /udap/],
      [
        { client_assertion_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer' },
        {},
        'invalid_request',
        /client_assertion_type/,
      ],
      [{ client_assertion: undefined }, {}, 'invalid_request', /client_assertion is required/],
      [{ scope: undefined }, {}, 'invalid_request', /scope is required/],
      [{ grant_type: 'authorization_code' }, {}, 'unsupported_grant_type', /authorization_code/],
      [{ client_id: 'udap-someone-else' }, {}, 'invalid_request', /client_id/],
    ]
    for (const [form, headers, error, description] of cases) {
      const answer = await requestToken(sandbox, await assertion(client), form, headers)
      expect(answer.status, JSON.stringify(form)).toBe(400)
      expect(answer.json.error).toBe(error)
      expect(answer.json.error_description).toMatch(description)
    }
    const withClientId = await requestToken(sandbox, await assertion(client), {
      client_id: client.clientId,
    })
    expect(withClientId.status).toBe(200)
  })
})

describe('UDAP sandbox token endpoint: clock', () => {
  it('validates certificates at the sandbox clock, also after a cached success', async () => {
    let clock = new Date()
    const timed = await startUdapSandbox({ now: () => clock })
    try {
      const client = await registeredClient(timed)
      expect((await requestToken(timed, await assertion(client, {}, timed))).status).toBe(200)
      clock = new Date(Date.now() + 2 * 365 * 86_400_000)
      const iat = Math.floor(clock.getTime() / 1000)
      const later = await requestToken(
        timed,
        await assertion(client, { iat, exp: iat + 60 }, timed),
      )
      expect(later).toMatchObject({ status: 400, json: { error: 'invalid_grant' } })
      expect(later.json.error_description).toMatch(/expired/)
    } finally {
      await timed.close()
    }
  })
})

describe('UDAP sandbox token endpoint: unregistered clients', () => {
  it('refuses an unregistered client by default', async () => {
    const uri = `https://client.example.test/${randomUUID()}`
    const certificate = await issueClient(sandbox, { sanUris: [uri] })
    const token = await signWithCertificate(authenticationClaims(sandbox, uri), certificate)
    expect(await requestToken(sandbox, token)).toMatchObject({
      status: 400,
      json: { error: 'invalid_client' },
    })
  })

  it('accepts iss = sub = a SAN URI of the certificate when allowUnregisteredClients is on', async () => {
    const open = await startUdapSandbox({ allowUnregisteredClients: true })
    try {
      const uri = `https://client.example.test/${randomUUID()}`
      const certificate = await issueClient(open, { sanUris: [uri] })
      const token = await signWithCertificate(authenticationClaims(open, uri), certificate)
      const answer = await requestToken(open, token, { scope: 'system/Observation.rs' })
      expect(answer).toMatchObject({
        status: 200,
        json: { token_type: 'Bearer', scope: 'system/Observation.rs' },
      })
      expect(open.accessTokens[0]).toMatchObject({ clientId: uri, unregistered: true })

      const notSan = await signWithCertificate(
        authenticationClaims(open, 'https://client.example.test/not-mine'),
        certificate,
      )
      expect(await requestToken(open, notSan)).toMatchObject({
        status: 400,
        json: { error: 'invalid_client' },
      })
      expect(open.registrations.size).toBe(0)
    } finally {
      await open.close()
    }
  })
})
