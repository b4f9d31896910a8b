import { createRemoteJWKSet, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authorizationUrl, prepareAuthorization } from './support/authorization.js'
import {
  authorizeForCode,
  exchangeCode,
  type Fixture,
  publicAuthentication,
  publicClientId,
  readPatient,
  refresh,
  startFixture,
  stringMember,
} from './support/fixture.js'

const patientScopes = 'openid fhirUser launch/patient patient/*.rs offline_access'

let fixture: Fixture
beforeAll(async () => {
  fixture = await startFixture()
})
afterAll(() => fixture.sandbox.close())

describe('authorization code with PKCE, public client', () => {
  it('issues a SMART token response for a GET authorization', async () => {
    const { sandbox } = fixture
    const { prepared, code } = await authorizeForCode(sandbox, {
      clientId: publicClientId,
      scope: patientScopes,
    })
    const reply = await exchangeCode(sandbox, prepared, code, publicAuthentication(publicClientId))

    expect(reply.status).toBe(200)
    expect(reply.headers.get('cache-control')).toBe('no-store')
    expect(reply.body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      patient: 'patient-1',
      need_patient_banner: true,
      smart_style_url: `${sandbox.origin}/smart-style.json`,
    })
    expect(String(reply.body.scope).split(' ').sort()).toEqual(patientScopes.split(' ').sort())
    expect(typeof reply.body.access_token).toBe('string')
    expect(typeof reply.body.refresh_token).toBe('string')
  })

  it('signs an ID token with fhirUser that verifies against /jwks', async () => {
    const { sandbox } = fixture
    const { prepared, code } = await authorizeForCode(sandbox, {
      clientId: publicClientId,
      scope: patientScopes,
    })
    const reply = await exchangeCode(sandbox, prepared, code, publicAuthentication(publicClientId))

    const keySet = createRemoteJWKSet(new URL(sandbox.endpoints.jwks))
    const { payload, protectedHeader } = await jwtVerify(stringMember(reply, 'id_token'), keySet, {
      issuer: sandbox.issuer,
      audience: publicClientId,
    })
    expect(protectedHeader.alg).toBe('RS256')
    expect(payload.sub).toBe('practitioner-1')
    expect(payload.fhirUser).toBe(`${sandbox.fhirBaseUrl}/Practitioner/practitioner-1`)
  })

  it('accepts the same request as an authorize-POST form', async () => {
    const { sandbox } = fixture
    const prepared = prepareAuthorization(sandbox, {
      clientId: publicClientId,
      scope: patientScopes,
    })
    const result = await sandbox.authorize({
      endpoint: sandbox.endpoints.authorization,
      params: prepared.params,
    })

    expect(result.state).toBe(prepared.state)
    expect(result.issuer).toBe(sandbox.issuer)
    const reply = await exchangeCode(
      sandbox,
      prepared,
      result.code ?? '',
      publicAuthentication(publicClientId),
    )
    expect(reply.status).toBe(200)
    expect(typeof reply.body.refresh_token).toBe('string')
    const authorizePost = sandbox.requests.find(
      (request) => request.method === 'POST' && request.path === '/auth',
    )
    expect(authorizePost?.form?.code_challenge).toBe(prepared.pkce.challenge)
  })

  it('issues no refresh token without offline_access', async () => {
    const { sandbox } = fixture
    const { prepared, code } = await authorizeForCode(sandbox, {
      clientId: publicClientId,
      scope: 'launch/patient patient/Patient.rs',
    })
    const reply = await exchangeCode(sandbox, prepared, code, publicAuthentication(publicClientId))

    expect(reply.status).toBe(200)
    expect(reply.body.refresh_token).toBeUndefined()
    expect(reply.body.id_token).toBeUndefined()
    expect(reply.body.scope).toBe('launch/patient patient/Patient.rs')
  })

  it('grants no system/ scope and no unknown scope to an app launch', async () => {
    const { sandbox } = fixture
    const { prepared, code } = await authorizeForCode(sandbox, {
      clientId: publicClientId,
      scope: 'user/Patient.rs system/Patient.rs made/up patient/Patient.xyz',
    })
    const reply = await exchangeCode(sandbox, prepared, code, publicAuthentication(publicClientId))

    expect(reply.status).toBe(200)
    expect(reply.body.scope).toBe('user/Patient.rs')
  })

  it('accepts v1 scopes and v2 scopes with query constraints', async () => {
    const { sandbox } = fixture
    const scope = 'patient/*.read user/Observation.rs?category=laboratory launch/patient'
    const { prepared, code } = await authorizeForCode(sandbox, { clientId: publicClientId, scope })
    const reply = await exchangeCode(sandbox, prepared, code, publicAuthentication(publicClientId))

    expect(reply.body.scope).toBe(scope)
  })

  it('rejects a wrong code_verifier with invalid_grant', async () => {
    const { sandbox } = fixture
    const { prepared, code } = await authorizeForCode(sandbox, {
      clientId: publicClientId,
      scope: patientScopes,
    })
    const reply = await exchangeCode(
      sandbox,
      prepared,
      code,
      publicAuthentication(publicClientId),
      'a'.repeat(43),
    )

    expect(reply.status).toBe(400)
    expect(reply.body.error).toBe('invalid_grant')
  })
})

describe('authorization request errors come back as redirects', () => {
  it('requires PKCE', async () => {
    const { sandbox } = fixture
    const prepared = prepareAuthorization(sandbox, {
      clientId: publicClientId,
      scope: patientScopes,
      pkce: false,
    })
    const result = await sandbox.authorize({ url: authorizationUrl(sandbox, prepared) })

    expect(result.redirectUrl?.origin).toBe('https://app.example')
    expect(result.code).toBeUndefined()
    expect(result.error).toBe('invalid_request')
    expect(result.errorDescription).toMatch(/PKCE/)
    expect(result.state).toBe(prepared.state)
  })

  it('refuses the plain code_challenge_method', async () => {
    const { sandbox } = fixture
    const prepared = prepareAuthorization(sandbox, {
      clientId: publicClientId,
      scope: patientScopes,
    })
    const url = new URL(authorizationUrl(sandbox, prepared))
    url.searchParams.set('code_challenge_method', 'plain')
    const result = await sandbox.authorize({ url: url.href })

    expect(result.error).toBe('invalid_request')
    expect(result.code).toBeUndefined()
  })

  it('refuses an aud that is not the FHIR base URL', async () => {
    const { sandbox } = fixture
    const prepared = prepareAuthorization(sandbox, {
      clientId: publicClientId,
      scope: patientScopes,
      aud: 'https://other.example/fhir',
    })
    const result = await sandbox.authorize({ url: authorizationUrl(sandbox, prepared) })

    expect(result.error).toBe('invalid_request')
    expect(result.errorDescription).toContain('aud must be the FHIR base URL')
    expect(result.code).toBeUndefined()
  })

  it('refuses a request without aud', async () => {
    const { sandbox } = fixture
    const prepared = prepareAuthorization(sandbox, {
      clientId: publicClientId,
      scope: patientScopes,
      aud: null,
    })
    const result = await sandbox.authorize({
      endpoint: sandbox.endpoints.authorization,
      params: prepared.params,
    })

    expect(result.error).toBe('invalid_request')
    expect(result.errorDescription).toContain('aud is required')
  })

  it('reports a user who denies with access_denied', async () => {
    const { sandbox } = fixture
    const prepared = prepareAuthorization(sandbox, {
      clientId: publicClientId,
      scope: patientScopes,
    })
    const result = await sandbox.authorize(
      { url: authorizationUrl(sandbox, prepared) },
      { decision: 'deny' },
    )

    expect(result.error).toBe('access_denied')
    expect(result.state).toBe(prepared.state)
  })

  it('does not redirect to an unregistered redirect_uri', async () => {
    const { sandbox } = fixture
    const prepared = prepareAuthorization(sandbox, {
      clientId: publicClientId,
      scope: patientScopes,
      redirectUri: 'https://attacker.example/callback',
    })
    const result = await sandbox.authorize({ url: authorizationUrl(sandbox, prepared) })

    expect(result.redirectUrl).toBeUndefined()
    expect(result.status).toBe(400)
    expect(result.error).toBe('invalid_redirect_uri')
  })

  it('does not redirect for an unknown client_id', async () => {
    const { sandbox } = fixture
    const prepared = prepareAuthorization(sandbox, { clientId: 'nobody', scope: patientScopes })
    const result = await sandbox.authorize({ url: authorizationUrl(sandbox, prepared) })

    expect(result.redirectUrl).toBeUndefined()
    expect(result.error).toBe('invalid_client')
  })
})

describe('single use of codes and refresh tokens', () => {
  it('rejects a replayed code and revokes what the first exchange issued', async () => {
    const { sandbox } = fixture
    const { prepared, code } = await authorizeForCode(sandbox, {
      clientId: publicClientId,
      scope: patientScopes,
    })
    const first = await exchangeCode(sandbox, prepared, code, publicAuthentication(publicClientId))
    expect(await readPatient(sandbox, 'patient-1', first.body.access_token)).toBe(200)

    const replay = await exchangeCode(sandbox, prepared, code, publicAuthentication(publicClientId))

    expect(replay.status).toBe(400)
    expect(replay.body.error).toBe('invalid_grant')
    expect(await readPatient(sandbox, 'patient-1', first.body.access_token)).toBe(401)
    const refreshed = await refresh(
      sandbox,
      stringMember(first, 'refresh_token'),
      publicAuthentication(publicClientId),
    )
    expect(refreshed.body.error).toBe('invalid_grant')
  })

  it('rotates refresh tokens and rejects the old one', async () => {
    const { sandbox } = fixture
    const { prepared, code } = await authorizeForCode(sandbox, {
      clientId: publicClientId,
      scope: patientScopes,
    })
    const issued = await exchangeCode(sandbox, prepared, code, publicAuthentication(publicClientId))
    const original = stringMember(issued, 'refresh_token')

    const rotated = await refresh(sandbox, original, publicAuthentication(publicClientId))
    expect(rotated.status).toBe(200)
    expect(rotated.body).toMatchObject({ token_type: 'Bearer', patient: 'patient-1' })
    expect(rotated.body.refresh_token).not.toBe(original)
    expect(await readPatient(sandbox, 'patient-1', rotated.body.access_token)).toBe(200)

    const reused = await refresh(sandbox, original, publicAuthentication(publicClientId))
    expect(reused.status).toBe(400)
    expect(reused.body.error).toBe('invalid_grant')
  })

  it('narrows scope on refresh and refuses to widen it', async () => {
    const { sandbox } = fixture
    const { prepared, code } = await authorizeForCode(sandbox, {
      clientId: publicClientId,
      scope: patientScopes,
    })
    const issued = await exchangeCode(sandbox, prepared, code, publicAuthentication(publicClientId))

    const narrowed = await refresh(
      sandbox,
      stringMember(issued, 'refresh_token'),
      publicAuthentication(publicClientId),
      'patient/*.rs',
    )
    expect(narrowed.status).toBe(200)
    expect(narrowed.body.scope).toBe('patient/*.rs')

    const widened = await refresh(
      sandbox,
      stringMember(narrowed, 'refresh_token'),
      publicAuthentication(publicClientId),
      'patient/*.rs user/*.rs',
    )
    expect(widened.body.error).toBe('invalid_scope')
  })
})
