import type { KeyType } from '@fhir-auth/test-pki/issuer'
import { compactVerify, createLocalJWKSet, decodeJwt, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startUdapSandbox, type TokenRequestRule, type UdapSandbox } from '../src/index.js'
import { sharedServerKeyPair } from './support/server-key.js'
import {
  appRedirectUri,
  authorizeClient,
  type CodeClient,
  codeFlowAssertion,
  exchangeCode,
  postToken,
  readPatient,
  refresh,
  registerCodeClient,
} from './udap-code-flow-client.js'
import {
  algorithmFor,
  b2b,
  issueClient,
  issueUntrustedCertificate,
  registerClient,
  signWithCertificate,
} from './udap-test-client.js'

let sandbox: UdapSandbox

beforeAll(async () => {
  sandbox = await startUdapSandbox({
    serverKeyPair: await sharedServerKeyPair(),
    grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
  })
})

afterAll(async () => {
  await sandbox.close()
})

/** The last AnT record: how the server judged the last token request. */
function lastJudgement() {
  const record = sandbox.authenticationTokens.at(-1)
  if (record === undefined) throw new Error('no token request was recorded')
  return record
}

describe('UDAP sandbox: authorization_code exchange', () => {
  for (const keyType of ['rsa2048', 'p256', 'p384'] as const satisfies readonly KeyType[]) {
    it(`issues tokens and an RS256 ID token for a ${keyType} client, and records the verified AnT`, async () => {
      const client = await registerCodeClient(sandbox, { keyType })
      const grant = await authorizeClient(sandbox, client, {
        scope: 'openid fhirUser profile user/Patient.rs',
        nonce: 'n-0S6_WzA2Mj',
      })
      const answer = await exchangeCode(sandbox, client, grant)
      expect(answer.status, JSON.stringify(answer.json)).toBe(200)
      expect(answer.json).toMatchObject({
        token_type: 'Bearer',
        expires_in: 300,
        scope: 'openid fhirUser profile user/Patient.rs',
      })
      expect(answer.json.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/)

      const judged = lastJudgement()
      expect(judged).toMatchObject({
        grantType: 'authorization_code',
        accepted: true,
        authorizationHeader: false,
        signatureVerified: true,
        chainValidated: true,
        clientId: client.clientId,
        certificateSanUris: [client.uri],
      })
      expect(judged.header?.alg).toBe(algorithmFor(client.certificate))
      expect(judged.header?.x5c).toEqual(
        client.certificate.chainDer.map((der) => Buffer.from(der).toString('base64')),
      )
      expect(judged.claims).toMatchObject({
        iss: client.clientId,
        sub: client.clientId,
        aud: sandbox.endpoints.token,
      })
      expect(judged.claims).not.toHaveProperty('extensions')
      expect(judged.form).toMatchObject({ udap: '1', redirect_uri: appRedirectUri })

      const jwks = createLocalJWKSet(
        (await (await fetch(sandbox.endpoints.jwks as string)).json()) as { keys: [] },
      )
      const { payload, protectedHeader } = await jwtVerify(answer.json.id_token as string, jwks, {
        issuer: sandbox.issuer,
        audience: client.clientId,
        algorithms: ['RS256'],
      })
      expect(protectedHeader).toMatchObject({ alg: 'RS256', kid: sandbox.jwks.keys[0]?.kid })
      expect(protectedHeader.x5c?.[0]).toBe(
        Buffer.from(sandbox.serverCertificate.der).toString('base64'),
      )
      expect(payload).toMatchObject({
        sub: 'udap-user-1',
        nonce: 'n-0S6_WzA2Mj',
        name: 'Sandbox User',
        fhirUser: `${sandbox.fhirBaseUrl}/Practitioner/practitioner-1`,
      })
      expect(Number(payload.exp) - Number(payload.iat)).toBe(300)

      expect(await readPatient(sandbox, answer.json.access_token as string)).toBe(200)
      expect(sandbox.accessTokens.at(-1)).toMatchObject({
        clientId: client.clientId,
        grantType: 'authorization_code',
        subject: 'udap-user-1',
        revoked: false,
      })
    })
  }

  it('issues no ID token without openid and no refresh token without the refresh_token grant', async () => {
    const client = await registerCodeClient(sandbox, {
      grantTypes: ['authorization_code'],
      scope: 'user/*.rs',
    })
    const grant = await authorizeClient(sandbox, client, { scope: 'user/Patient.rs' })
    const answer = await exchangeCode(sandbox, client, grant)
    expect(answer.status).toBe(200)
    expect(answer.json).not.toHaveProperty('id_token')
    expect(answer.json).not.toHaveProperty('refresh_token')
    const refreshed = await refresh(sandbox, client, 'anything')
    expect(refreshed.json).toMatchObject({ error: 'unauthorized_client' })
    expect(lastJudgement().failedRule).toBe('grant-not-registered')
  })

  it('serves an openid-configuration that names the JWKS and the endpoints', async () => {
    const response = await fetch(sandbox.endpoints.openidConfiguration as string)
    expect(await response.json()).toMatchObject({
      issuer: sandbox.fhirBaseUrl,
      authorization_endpoint: sandbox.endpoints.authorization,
      token_endpoint: sandbox.endpoints.token,
      jwks_uri: sandbox.endpoints.jwks,
      id_token_signing_alg_values_supported: ['RS256'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
    })
  })
})

describe('UDAP sandbox: code binding (single use, client, redirect_uri, PKCE)', () => {
  let client: CodeClient

  beforeAll(async () => {
    client = await registerCodeClient(sandbox)
  })

  it('a replayed code fails and revokes the tokens issued for it', async () => {
    const grant = await authorizeClient(sandbox, client)
    const first = await exchangeCode(sandbox, client, grant)
    expect(first.status).toBe(200)
    const accessToken = first.json.access_token as string
    const replay = await exchangeCode(sandbox, client, grant)
    expect(replay.json).toMatchObject({ error: 'invalid_grant' })
    expect(replay.json.error_description).toMatch(/already used/)
    expect(lastJudgement()).toMatchObject({ failedRule: 'code', clientId: client.clientId })
    expect(await readPatient(sandbox, accessToken)).toBe(401)
    expect((await refresh(sandbox, client, first.json.refresh_token as string)).json.error).toBe(
      'invalid_grant',
    )
  })

  it('refuses a code for another client, an unknown code, a wrong verifier and a wrong redirect_uri', async () => {
    const other = await registerCodeClient(sandbox)
    // [form, presenter, rule, error, whether the real code is spent afterwards]
    const cases: [
      Record<string, string | undefined>,
      CodeClient,
      TokenRequestRule,
      string,
      boolean,
    ][] = [
      [{}, other, 'code', 'invalid_grant', true],
      [{ code: 'not-a-code' }, client, 'code', 'invalid_grant', false],
      [{ code_verifier: 'x'.repeat(43) }, client, 'code-verifier', 'invalid_grant', true],
      [{ code_verifier: 'short' }, client, 'code-verifier', 'invalid_grant', true],
      [{ code_verifier: undefined }, client, 'code-verifier', 'invalid_request', false],
      [{ redirect_uri: undefined }, client, 'redirect-uri', 'invalid_grant', true],
      [{ redirect_uri: `${appRedirectUri}/` }, client, 'redirect-uri', 'invalid_grant', true],
      [{ code: undefined }, client, 'code', 'invalid_request', false],
    ]
    for (const [form, presenter, rule, error, spent] of cases) {
      const grant = await authorizeClient(sandbox, client)
      const answer = await exchangeCode(sandbox, presenter, grant, form)
      expect(answer.json.error, JSON.stringify(form)).toBe(error)
      expect(lastJudgement().failedRule).toBe(rule)
      // A code is spent by any authenticated presentation, whatever the outcome; requests
      // missing a field are refused before that.
      const again = await exchangeCode(sandbox, client, grant)
      expect(again.status, JSON.stringify(form)).toBe(spent ? 400 : 200)
    }
  })

  it('wants redirect_uri only when the authorization request had one', async () => {
    const grant = await authorizeClient(sandbox, client, { redirect_uri: undefined })
    const withRedirect = await exchangeCode(sandbox, client, grant)
    expect(withRedirect.json).toMatchObject({ error: 'invalid_request' })
    expect(lastJudgement().failedRule).toBe('redirect-uri')
    const second = await authorizeClient(sandbox, client, { redirect_uri: undefined })
    const without = await exchangeCode(sandbox, client, second, { redirect_uri: undefined })
    expect(without.status).toBe(200)
  })

  it('expires codes after 5 minutes of the sandbox clock', async () => {
    let clock = new Date()
    const timed = await startUdapSandbox({
      serverKeyPair: await sharedServerKeyPair(),
      grantTypes: ['authorization_code'],
      now: () => clock,
    })
    try {
      const timedClient = await registerCodeClient(timed, { grantTypes: ['authorization_code'] })
      const grant = await authorizeClient(timed, timedClient)
      clock = new Date(clock.getTime() + 301_000)
      const iat = Math.floor(clock.getTime() / 1000)
      const answer = await postToken(timed, {
        grant_type: 'authorization_code',
        code: grant.code,
        code_verifier: grant.verifier,
        redirect_uri: appRedirectUri,
        client_assertion: await codeFlowAssertion(timed, timedClient, { iat, exp: iat + 60 }),
      })
      expect(answer.json).toMatchObject({
        error: 'invalid_grant',
        error_description: 'code has expired',
      })
    } finally {
      await timed.close()
    }
  })
})

describe('UDAP sandbox: every authentication token rule, asserted on the server side', () => {
  let client: CodeClient

  beforeAll(async () => {
    client = await registerCodeClient(sandbox)
  })

  async function expectRefused(
    assertion: string,
    rule: TokenRequestRule,
    error = 'invalid_grant',
    form: Record<string, string | undefined> = {},
    headers: Record<string, string> = {},
  ): Promise<ReturnType<typeof lastJudgement>> {
    const grant = await authorizeClient(sandbox, client)
    const answer = await postToken(
      sandbox,
      {
        grant_type: 'authorization_code',
        code: grant.code,
        code_verifier: grant.verifier,
        redirect_uri: appRedirectUri,
        client_assertion: assertion,
        ...form,
      },
      headers,
    )
    expect(answer.json.error, rule).toBe(error)
    const judged = lastJudgement()
    expect(judged).toMatchObject({ accepted: false, failedRule: rule })
    // The AnT failed before the code was looked at: the code still works.
    expect((await exchangeCode(sandbox, client, grant)).status, rule).toBe(200)
    return judged
  }

  it('refuses the request form: Authorization header, udap, assertion type, assertion, client_id', async () => {
    const valid = () => codeFlowAssertion(sandbox, client)
    const withHeader = await expectRefused(
      await valid(),
      'authorization-header',
      'invalid_request',
      {},
      { authorization: 'Basic dXNlcjpwYXNz' },
    )
    expect(withHeader.authorizationHeader).toBe(true)
    await expectRefused(await valid(), 'udap', 'invalid_request', { udap: undefined })
    await expectRefused(await valid(), 'client-assertion-type', 'invalid_request', {
      client_assertion_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
    })
    await expectRefused('', 'client-assertion', 'invalid_request')
    await expectRefused(await valid(), 'client-id', 'invalid_request', { client_id: 'udap-other' })
  })

  it('refuses the JWS: alg not advertised, no x5c, another key, not a JWS', async () => {
    const other = await issueClient(sandbox, { keyType: 'p256' })
    await expectRefused(
      forgeHeader(await codeFlowAssertion(sandbox, client), { alg: 'ES512' }),
      'alg',
    )
    await expectRefused(
      forgeHeader(await codeFlowAssertion(sandbox, client), { alg: 'none' }),
      'alg',
    )
    await expectRefused(await codeFlowAssertion(sandbox, client, {}, { x5c: [] }), 'x5c')
    await expectRefused(
      await codeFlowAssertion(sandbox, client, {}, { signingKeyPem: other.privateKeyPem }),
      'signature',
    )
    const garbage = await expectRefused('not.a.jws', 'jws')
    expect(garbage).toMatchObject({
      signatureVerified: false,
      chainValidated: false,
      header: undefined,
      claims: undefined,
    })
  })

  it('refuses a certificate that does not chain to the community, or is revoked', async () => {
    const stranger = await issueUntrustedCertificate([client.uri])
    const untrustedJudgement = await expectRefused(
      await signWithCertificate(await claimsOf(client), stranger),
      'trust',
    )
    expect(untrustedJudgement).toMatchObject({ signatureVerified: true, chainValidated: false })

    const revoked = await registerCodeClient(sandbox)
    sandbox.revokeCertificate(revoked.certificate.serialNumber)
    const grant = await authorizeClient(sandbox, revoked)
    const answer = await exchangeCode(sandbox, revoked, grant)
    expect(answer.json.error).toBe('invalid_grant')
    expect(answer.json.error_description).toMatch(/revoked/)
    expect(lastJudgement().failedRule).toBe('trust')
  })

  it('refuses each claim rule: iss, sub, aud, iat, exp, lifetime, expiry, jti, replay', async () => {
    const now = Math.floor(Date.now() / 1000)
    const cases: [Record<string, unknown>, TokenRequestRule][] = [
      [{ iss: undefined }, 'iss'],
      [{ sub: 'udap-someone-else' }, 'sub'],
      [{ aud: sandbox.endpoints.registration }, 'aud'],
      [{ aud: sandbox.fhirBaseUrl }, 'aud'],
      [{ iat: undefined }, 'iat'],
      [{ iat: now + 120, exp: now + 300 }, 'iat'],
      [{ exp: undefined }, 'exp'],
      [{ iat: now, exp: now }, 'exp'],
      [{ iat: now, exp: now + 301 }, 'lifetime'],
      [{ iat: now - 400, exp: now - 100 }, 'expired'],
      [{ jti: undefined }, 'jti'],
    ]
    for (const [overrides, rule] of cases) {
      await expectRefused(await codeFlowAssertion(sandbox, client, overrides), rule)
    }
    const once = await codeFlowAssertion(sandbox, client)
    const grant = await authorizeClient(sandbox, client)
    expect((await exchangeCode(sandbox, client, grant, { client_assertion: once })).status).toBe(
      200,
    )
    await expectRefused(once, 'jti-replay')
  })

  it('refuses an unknown client, a cancelled one, and a certificate without the client URI', async () => {
    await expectRefused(
      await signWithCertificate(
        { ...(await claimsOf(client)), iss: 'udap-unknown', sub: 'udap-unknown' },
        client.certificate,
      ),
      'client',
      'invalid_client',
    )
    const cancelled = await registerCodeClient(sandbox)
    const grant = await authorizeClient(sandbox, cancelled)
    await registerClient(sandbox, cancelled.certificate, {
      iss: cancelled.uri,
      sub: cancelled.uri,
      grant_types: [],
    })
    const afterCancel = await exchangeCode(sandbox, cancelled, grant)
    expect(afterCancel.json).toMatchObject({ error: 'invalid_client' })
    expect(lastJudgement().failedRule).toBe('client')
    const stranger = await issueClient(sandbox, { sanUris: ['https://app.example.test/stranger'] })
    await expectRefused(
      await signWithCertificate(await claimsOf(client), stranger),
      'certificate-san',
      'invalid_client',
    )
  })

  it('refuses extensions (hl7-b2b) with authorization_code and refresh_token, unless told to ignore them', async () => {
    await expectRefused(
      await codeFlowAssertion(sandbox, client, { extensions: { 'hl7-b2b': b2b } }),
      'extensions',
    )
    const lenient = await startUdapSandbox({
      serverKeyPair: await sharedServerKeyPair(),
      grantTypes: ['authorization_code', 'refresh_token'],
      extensionsWithAuthorizationCode: 'ignore',
    })
    try {
      const lenientClient = await registerCodeClient(lenient)
      const grant = await authorizeClient(lenient, lenientClient)
      const answer = await exchangeCode(lenient, lenientClient, grant, {
        client_assertion: await codeFlowAssertion(lenient, lenientClient, {
          extensions: { 'hl7-b2b': b2b },
        }),
      })
      expect(answer.status).toBe(200)
      expect(lenient.authenticationTokens.at(-1)?.claims?.extensions).toEqual({ 'hl7-b2b': b2b })
    } finally {
      await lenient.close()
    }
  })
})

describe('UDAP sandbox: refresh_token', () => {
  let client: CodeClient

  beforeAll(async () => {
    client = await registerCodeClient(sandbox)
  })

  async function tokensFor(target = client) {
    const grant = await authorizeClient(sandbox, target)
    const answer = await exchangeCode(sandbox, target, grant)
    expect(answer.status).toBe(200)
    return answer.json
  }

  it('rotates: a refresh gives new tokens with the same AnT rules and retires the old refresh token', async () => {
    const first = await tokensFor()
    const refreshed = await refresh(sandbox, client, first.refresh_token as string)
    expect(refreshed.status).toBe(200)
    expect(refreshed.json).toMatchObject({ token_type: 'Bearer', scope: first.scope })
    expect(refreshed.json).not.toHaveProperty('id_token')
    expect(refreshed.json.refresh_token).not.toBe(first.refresh_token)
    expect(lastJudgement()).toMatchObject({
      grantType: 'refresh_token',
      accepted: true,
      clientId: client.clientId,
      claims: { iss: client.clientId, sub: client.clientId, aud: sandbox.endpoints.token },
    })
    expect(sandbox.accessTokens.at(-1)).toMatchObject({ grantType: 'refresh_token' })
    expect(await readPatient(sandbox, refreshed.json.access_token as string)).toBe(200)

    // Reusing the rotated token revokes the whole grant (RFC 9700 §4.14.2).
    const reuse = await refresh(sandbox, client, first.refresh_token as string)
    expect(reuse.json.error).toBe('invalid_grant')
    expect(lastJudgement().failedRule).toBe('refresh-token')
    expect(await readPatient(sandbox, refreshed.json.access_token as string)).toBe(401)
    expect(
      (await refresh(sandbox, client, refreshed.json.refresh_token as string)).json.error,
    ).toBe('invalid_grant')
  })

  it('binds refresh tokens to their client and refuses a widened scope, keeping the token', async () => {
    const tokens = await tokensFor()
    const other = await registerCodeClient(sandbox)
    const stolen = await refresh(sandbox, other, tokens.refresh_token as string)
    expect(stolen.json).toMatchObject({ error: 'invalid_grant' })
    expect(stolen.json.error_description).toMatch(/another client/)
    const wider = await refresh(sandbox, client, tokens.refresh_token as string, {
      scope: 'user/Patient.rs user/Observation.rs',
    })
    expect(wider.json.error).toBe('invalid_scope')
    expect(lastJudgement().failedRule).toBe('scope')
    const narrower = await refresh(sandbox, client, tokens.refresh_token as string, {
      scope: 'user/Patient.rs',
    })
    expect(narrower.json).toMatchObject({ scope: 'user/Patient.rs' })
  })

  it('applies the AnT rules to refreshes too (extensions, replay, missing refresh_token)', async () => {
    const tokens = await tokensFor()
    const withExtensions = await refresh(sandbox, client, tokens.refresh_token as string, {
      client_assertion: await codeFlowAssertion(sandbox, client, {
        extensions: { 'hl7-b2b': b2b },
      }),
    })
    expect(withExtensions.json.error).toBe('invalid_grant')
    expect(lastJudgement().failedRule).toBe('extensions')
    const missing = await refresh(sandbox, client, '', {})
    expect(missing.json.error).toBe('invalid_request')
    expect(lastJudgement().failedRule).toBe('refresh-token')
    expect((await refresh(sandbox, client, tokens.refresh_token as string)).status).toBe(200)
  })
})

describe('UDAP sandbox: hostile ID token variants', () => {
  it('id-token-wrong-nonce and id-token-wrong-aud falsify exactly that claim of a valid ID token', async () => {
    const client = await registerCodeClient(sandbox)
    try {
      for (const [variant, claim] of [
        ['id-token-wrong-nonce', 'nonce'],
        ['id-token-wrong-aud', 'aud'],
      ] as const) {
        sandbox.setHostile(undefined)
        const grant = await authorizeClient(sandbox, client, { nonce: 'the-nonce' })
        sandbox.setHostile(variant)
        const answer = await exchangeCode(sandbox, client, grant)
        const idToken = answer.json.id_token as string
        const key = createLocalJWKSet(sandbox.jwks as { keys: [] })
        await expect(compactVerify(idToken, key)).resolves.toBeDefined()
        const claims = decodeJwt(idToken)
        const expected = { nonce: 'the-nonce', aud: client.clientId }
        expect(claims[claim]).not.toBe(expected[claim])
        const other = claim === 'nonce' ? 'aud' : 'nonce'
        expect(claims[other]).toBe(expected[other])
      }
    } finally {
      sandbox.setHostile(undefined)
    }
  })
})

async function claimsOf(client: CodeClient): Promise<Record<string, unknown>> {
  return decodeJwt(await codeFlowAssertion(sandbox, client))
}

/** A JWS with another protected header over the same payload and signature. */
function forgeHeader(jws: string, changes: Record<string, unknown>): string {
  const [header = '', payload = '', signature = ''] = jws.split('.')
  const decoded = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >
  const forged = Buffer.from(JSON.stringify({ ...decoded, ...changes })).toString('base64url')
  return `${forged}.${payload}.${signature}`
}
