import { randomUUID } from 'node:crypto'
import { createCertificateAuthority, type IssuedCertificate } from '@fhir-auth/test-pki/issuer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startUdapSandbox, type UdapSandbox } from '../src/index.js'
import {
  clientUri,
  issueClient,
  register,
  registerClient,
  signWithCertificate,
  statementClaims,
} from './udap-test-client.js'

let sandbox: UdapSandbox
let client: IssuedCertificate

beforeAll(async () => {
  sandbox = await startUdapSandbox({
    grantTypes: ['client_credentials', 'authorization_code', 'refresh_token'],
  })
  client = await issueClient(sandbox)
})

afterAll(async () => {
  await sandbox.close()
})

/** A fresh client URI and certificate, so tests do not modify each other's registrations. */
async function freshClient(keyType: 'p256' | 'p384' | 'rsa2048' = 'p256') {
  const uri = `https://client.example.test/${randomUUID()}`
  return { uri, certificate: await issueClient(sandbox, { sanUris: [uri], keyType }) }
}

describe('UDAP sandbox registration: register, modify, cancel', () => {
  it('registers a new client with 201, a client_id and the echoed metadata, and stores its certificate', async () => {
    const { uri, certificate } = await freshClient()
    const answer = await registerClient(sandbox, certificate, { iss: uri, sub: uri })
    expect(answer.status).toBe(201)
    expect(answer.json).toMatchObject({
      client_name: 'UDAP Test Client',
      contacts: ['mailto:operator@client.example.test'],
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'private_key_jwt',
      scope: 'system/Patient.rs system/Observation.rs',
    })
    expect(answer.json.client_id).toMatch(/^udap-/)
    for (const claim of ['iss', 'sub', 'aud', 'exp', 'iat', 'jti'])
      expect(answer.json).not.toHaveProperty(claim)
    const stored = sandbox.registrations.get(answer.json.client_id as string)
    expect(stored).toMatchObject({ clientUri: uri, cancelled: false })
    expect(stored?.certificate.der).toEqual(certificate.certificateDer)
  })

  it('modifies with 200 and the same client_id, accepting a renewed certificate with the same SAN', async () => {
    const { uri, certificate } = await freshClient('p256')
    const first = await registerClient(sandbox, certificate, { iss: uri, sub: uri })
    const renewed = await issueClient(sandbox, { sanUris: [uri], keyType: 'p384' })
    const second = await registerClient(sandbox, renewed, {
      iss: uri,
      sub: uri,
      client_name: 'Renamed',
    })
    expect(first.status).toBe(201)
    expect(second.status).toBe(200)
    expect(second.json.client_id).toBe(first.json.client_id)
    expect(second.json.client_name).toBe('Renamed')
    const stored = sandbox.registrations.get(first.json.client_id as string)
    expect(stored?.metadata.client_name).toBe('Renamed')
    expect(stored?.certificate.der).toEqual(renewed.certificateDer)
  })

  it('cancels with 200, grant_types [] and the client_id; a cancel for an unknown iss is refused', async () => {
    const { uri, certificate } = await freshClient()
    const first = await registerClient(sandbox, certificate, { iss: uri, sub: uri })
    const cancel = await registerClient(sandbox, certificate, {
      iss: uri,
      sub: uri,
      grant_types: [],
    })
    expect(cancel.status).toBe(200)
    expect(cancel.json.grant_types).toEqual([])
    expect(cancel.json.client_id).toBe(first.json.client_id)
    expect(sandbox.registrations.get(first.json.client_id as string)?.cancelled).toBe(true)

    const stranger = await freshClient()
    const unknown = await registerClient(sandbox, stranger.certificate, {
      iss: stranger.uri,
      sub: stranger.uri,
      grant_types: [],
    })
    expect(unknown).toMatchObject({ status: 400, json: { error: 'invalid_client_metadata' } })
  })

  it('registers an authorization_code client with https redirect URIs and logo', async () => {
    const { uri, certificate } = await freshClient('rsa2048')
    const answer = await registerClient(sandbox, certificate, {
      iss: uri,
      sub: uri,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: ['https://client.example.test/callback'],
      logo_uri: 'https://client.example.test/logo.png',
      scope: 'user/*.rs openid',
    })
    expect(answer.status).toBe(201)
    expect(answer.json).toMatchObject({
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: ['https://client.example.test/callback'],
      logo_uri: 'https://client.example.test/logo.png',
      scope: 'user/*.rs openid',
    })
  })

  it('accepts every advertised algorithm: RS256, RS384, ES256, ES384', async () => {
    for (const [keyType, alg] of [
      ['rsa2048', 'RS256'],
      ['rsa2048', 'RS384'],
      ['p256', 'ES256'],
      ['p384', 'ES384'],
    ] as const) {
      const { uri, certificate } = await freshClient(keyType)
      const statement = await signWithCertificate(
        statementClaims(sandbox, { iss: uri, sub: uri }),
        certificate,
        { alg },
      )
      expect((await register(sandbox, statement)).status, alg).toBe(201)
    }
  })

  it('grants only supported scopes and refuses a statement with none', async () => {
    const { uri, certificate } = await freshClient()
    const partial = await registerClient(sandbox, certificate, {
      iss: uri,
      sub: uri,
      scope: 'system/Patient.rs system/Patient.cruds',
    })
    expect(partial.json.scope).toBe('system/Patient.rs')
    const none = await registerClient(sandbox, certificate, {
      iss: uri,
      sub: uri,
      scope: 'system/Patient.cruds',
    })
    expect(none).toMatchObject({ status: 400, json: { error: 'invalid_client_metadata' } })
  })
})

describe('UDAP sandbox registration: request format', () => {
  it('requires JSON with udap "1" and a software_statement', async () => {
    const statement = await signWithCertificate(statementClaims(sandbox), client)
    const post = (body: string, contentType = 'application/json') =>
      fetch(`${sandbox.origin}/register`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      })
    const form = await post(
      `software_statement=${statement}&udap=1`,
      'application/x-www-form-urlencoded',
    )
    expect(form.status).toBe(400)
    expect(await form.json()).toMatchObject({ error: 'invalid_client_metadata' })
    expect(await (await post('[1]')).json()).toMatchObject({ error: 'invalid_client_metadata' })
    expect(await register(sandbox, statement, { udap: 1 })).toMatchObject({
      status: 400,
      json: {
        error: 'invalid_client_metadata',
        error_description: expect.stringContaining('udap'),
      },
    })
    expect(await register(sandbox, statement, { udap: undefined })).toMatchObject({
      json: { error: 'invalid_client_metadata' },
    })
    expect(await register(sandbox, '')).toMatchObject({
      json: { error: 'invalid_software_statement' },
    })
    expect((await fetch(`${sandbox.origin}/register`)).status).toBe(405)
  })

  it('answers with no-store and never echoes the statement in errors', async () => {
    const statement = await signWithCertificate(
      statementClaims(sandbox, { aud: 'https://elsewhere.test/' }),
      client,
    )
    const response = await fetch(`${sandbox.origin}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ software_statement: statement, udap: '1' }),
    })
    expect(response.headers.get('cache-control')).toBe('no-store')
    const text = await response.text()
    expect(text).not.toContain(statement.split('.')[2])
  })
})

describe('UDAP sandbox registration: software statement rejections', () => {
  async function expectRejected(
    statement: string,
    error: string,
    description: RegExp,
  ): Promise<void> {
    const answer = await register(sandbox, statement)
    expect(answer.status).toBe(400)
    expect(answer.json.error).toBe(error)
    expect(answer.json.error_description).toMatch(description)
  }

  it('refuses a signature that does not verify with x5c[0]', async () => {
    const other = await issueClient(sandbox)
    const statement = await signWithCertificate(statementClaims(sandbox), client, {
      signingKeyPem: other.privateKeyPem,
    })
    await expectRejected(statement, 'invalid_software_statement', /signature does not verify/)
  })

  it('refuses an alg that is not advertised, an alg that does not fit the key, and a missing x5c', async () => {
    const restricted = await startUdapSandbox({ registrationSigningAlgorithms: ['RS256'] })
    try {
      const ec = await issueClient(restricted)
      const statement = await signWithCertificate(statementClaims(restricted), ec)
      const answer = await register(restricted, statement)
      expect(answer.json).toMatchObject({ error: 'invalid_software_statement' })
      expect(answer.json.error_description).toMatch(
        /alg "ES256" is not one of the advertised RS256/,
      )
    } finally {
      await restricted.close()
    }
    const rsa = await issueClient(sandbox, { keyType: 'rsa2048' })
    const mismatch = await signWithCertificate(statementClaims(sandbox), rsa, {
      alg: 'ES256',
      signingKeyPem: client.privateKeyPem,
    })
    await expectRejected(mismatch, 'invalid_software_statement', /signature does not verify/)
    const noX5c = await signWithCertificate(statementClaims(sandbox), client, { x5c: [] })
    await expectRejected(noX5c, 'invalid_software_statement', /x5c/)
    const garbage = await signWithCertificate(statementClaims(sandbox), client, {
      x5c: ['bm90IGEgY2VydA=='],
    })
    await expectRejected(
      garbage,
      'invalid_software_statement',
      /x5c\[0\] is not a standard-base64 DER/,
    )
    await expectRejected('not.a.jws', 'invalid_software_statement', /not a compact JWS/)
  })

  it('refuses a certificate under an untrusted root', async () => {
    const now = Date.now()
    const untrusted = await createCertificateAuthority({
      name: 'Untrusted Root',
      notBefore: new Date(now - 86_400_000),
      notAfter: new Date(now + 86_400_000),
    })
    const stranger = await untrusted.issue({ commonName: 'stranger', sanUris: [clientUri] })
    const statement = await signWithCertificate(statementClaims(sandbox), stranger)
    await expectRejected(statement, 'unapproved_software_statement', /no valid path/)
  })

  it('refuses a revoked client certificate', async () => {
    const revoked = await issueClient(sandbox)
    sandbox.revokeCertificate(revoked.serialNumber)
    const statement = await signWithCertificate(statementClaims(sandbox), revoked)
    await expectRejected(statement, 'unapproved_software_statement', /revoked/)
  })

  it('refuses an expired client certificate', async () => {
    const now = Date.now()
    const expired = await sandbox.certificateAuthority.issue({
      commonName: 'expired',
      sanUris: [clientUri],
      notBefore: new Date(now - 10 * 86_400_000),
      notAfter: new Date(now - 86_400_000),
    })
    const statement = await signWithCertificate(statementClaims(sandbox), expired)
    await expectRejected(statement, 'unapproved_software_statement', /expired/)
  })

  it('refuses an iss that is not a SAN URI of the certificate (also when it differs only by a slash)', async () => {
    for (const iss of ['https://client.example.test/other', `${clientUri}/`]) {
      const statement = await signWithCertificate(
        statementClaims(sandbox, { iss, sub: iss }),
        client,
      )
      await expectRejected(
        statement,
        'invalid_software_statement',
        /iss is not a uniformResourceIdentifier SAN/,
      )
    }
  })

  it('refuses sub ≠ iss, a wrong aud and a missing jti', async () => {
    await expectRejected(
      await signWithCertificate(
        statementClaims(sandbox, { sub: 'https://someone.else.test/' }),
        client,
      ),
      'invalid_software_statement',
      /sub does not equal iss/,
    )
    await expectRejected(
      await signWithCertificate(statementClaims(sandbox, { aud: sandbox.endpoints.token }), client),
      'invalid_software_statement',
      /aud does not name/,
    )
    await expectRejected(
      await signWithCertificate(statementClaims(sandbox, { jti: undefined }), client),
      'invalid_software_statement',
      /jti is missing/,
    )
  })

  it('refuses exp − iat > 300, an expired statement and an iat in the future', async () => {
    const now = Math.floor(Date.now() / 1000)
    await expectRejected(
      await signWithCertificate(statementClaims(sandbox, { iat: now, exp: now + 301 }), client),
      'invalid_software_statement',
      /more than 300 s after iat/,
    )
    await expectRejected(
      await signWithCertificate(
        statementClaims(sandbox, { iat: now - 400, exp: now - 100 }),
        client,
      ),
      'invalid_software_statement',
      /expired/,
    )
    await expectRejected(
      await signWithCertificate(
        statementClaims(sandbox, { iat: now + 120, exp: now + 300 }),
        client,
      ),
      'invalid_software_statement',
      /iat is in the future/,
    )
  })

  it('refuses a replayed jti from the same iss', async () => {
    const { uri, certificate } = await freshClient()
    const claims = statementClaims(sandbox, { iss: uri, sub: uri })
    const first = await register(sandbox, await signWithCertificate(claims, certificate))
    expect(first.status).toBe(201)
    await expectRejected(
      await signWithCertificate(claims, certificate),
      'invalid_software_statement',
      /replay/,
    )
  })
})

describe('UDAP sandbox registration: STU2 metadata rules', () => {
  async function expectMetadataRejected(
    overrides: Record<string, unknown>,
    description: RegExp,
  ): Promise<void> {
    const answer = await registerClient(sandbox, client, overrides)
    expect(answer.status).toBe(400)
    expect(answer.json.error).toBe('invalid_client_metadata')
    expect(answer.json.error_description).toMatch(description)
  }

  it('requires a mailto contact', async () => {
    await expectMetadataRejected({ contacts: ['https://client.example.test/contact'] }, /mailto/)
    await expectMetadataRejected({ contacts: undefined }, /contacts/)
  })

  it('refuses both grant types together, refresh_token alone and unknown grant types', async () => {
    await expectMetadataRejected(
      { grant_types: ['client_credentials', 'authorization_code'] },
      /both/,
    )
    await expectMetadataRejected(
      { grant_types: ['refresh_token'] },
      /authorization_code or client_credentials/,
    )
    await expectMetadataRejected({ grant_types: ['implicit'] }, /not a UDAP grant type/)
    await expectMetadataRejected({ grant_types: undefined }, /grant_types/)
  })

  it('requires client_name, scope and private_key_jwt', async () => {
    await expectMetadataRejected({ client_name: undefined }, /client_name/)
    await expectMetadataRejected({ scope: undefined }, /scope/)
    await expectMetadataRejected(
      { token_endpoint_auth_method: 'client_secret_basic' },
      /private_key_jwt/,
    )
  })

  it('refuses redirect_uris and response_types for client_credentials', async () => {
    await expectMetadataRejected(
      { redirect_uris: ['https://client.example.test/cb'] },
      /redirect_uris/,
    )
    await expectMetadataRejected({ response_types: ['code'] }, /response_types/)
  })

  it('requires https redirect URIs, response_types ["code"] and an https image logo with authorization_code', async () => {
    const codeClient = {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      redirect_uris: ['https://client.example.test/callback'],
      logo_uri: 'https://client.example.test/logo.png',
      scope: 'user/*.rs',
    }
    await expectMetadataRejected(
      { ...codeClient, redirect_uris: ['http://client.example.test/callback'] },
      /redirect_uri/,
    )
    await expectMetadataRejected(
      { ...codeClient, redirect_uris: undefined },
      /redirect_uris is required/,
    )
    await expectMetadataRejected({ ...codeClient, response_types: ['token'] }, /response_types/)
    await expectMetadataRejected(
      { ...codeClient, logo_uri: 'http://client.example.test/logo.png' },
      /logo_uri/,
    )
    await expectMetadataRejected(
      { ...codeClient, logo_uri: 'https://client.example.test/logo.svg' },
      /logo_uri/,
    )
  })

  it('refuses a grant type the server does not advertise', async () => {
    const clientCredentialsOnly = await startUdapSandbox()
    try {
      const certificate = await issueClient(clientCredentialsOnly)
      const answer = await registerClient(clientCredentialsOnly, certificate, {
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: ['https://client.example.test/callback'],
        logo_uri: 'https://client.example.test/logo.png',
      })
      expect(answer.json).toMatchObject({ error: 'invalid_client_metadata' })
      expect(answer.json.error_description).toMatch(/not supported by this server/)
    } finally {
      await clientCredentialsOnly.close()
    }
  })
})
