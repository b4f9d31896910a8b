import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signClientAssertion } from './support/client-assertion.js'
import {
  assertionAuthentication,
  authorizeForCode,
  es384ClientId,
  exchangeCode,
  type Fixture,
  publicAuthentication,
  publicClientId,
  readPatient,
  startFixture,
  stringMember,
} from './support/fixture.js'
import { postForm } from './support/http.js'

let fixture: Fixture
beforeAll(async () => {
  fixture = await startFixture()
})
afterAll(() => fixture.sandbox.close())

async function appLaunchToken(scope: string): Promise<string> {
  const { sandbox } = fixture
  const { prepared, code } = await authorizeForCode(sandbox, { clientId: publicClientId, scope })
  return stringMember(
    await exchangeCode(sandbox, prepared, code, publicAuthentication(publicClientId)),
    'access_token',
  )
}

async function backendToken(scope: string): Promise<string> {
  const { sandbox, es384Keys } = fixture
  const assertion = await signClientAssertion(es384Keys, es384ClientId, sandbox.endpoints.token)
  const reply = await postForm(sandbox.endpoints.token, {
    grant_type: 'client_credentials',
    scope,
    ...assertionAuthentication(assertion).form,
  })
  return stringMember(reply, 'access_token')
}

describe('GET /fhir/Patient/:id', () => {
  it('answers 401 with a Bearer challenge without a token', async () => {
    const response = await fetch(`${fixture.sandbox.fhirBaseUrl}/Patient/patient-1`)

    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toContain('Bearer')
    expect(await response.json()).toMatchObject({ resourceType: 'OperationOutcome' })
  })

  it('answers 401 for a token it did not issue', async () => {
    expect(await readPatient(fixture.sandbox, 'patient-1', 'not-a-token')).toBe(401)
  })

  it('serves the patient in context to a patient/ token', async () => {
    const token = await appLaunchToken('launch/patient patient/Patient.rs')
    const response = await fetch(`${fixture.sandbox.fhirBaseUrl}/Patient/patient-1`, {
      headers: { authorization: `Bearer ${token}` },
    })

    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/fhir+json')
    expect(await response.json()).toMatchObject({ resourceType: 'Patient', id: 'patient-1' })
  })

  it('answers 403 insufficient_scope for another patient or a scope that does not read Patient', async () => {
    const patientToken = await appLaunchToken('launch/patient patient/*.rs')
    expect(await readPatient(fixture.sandbox, 'patient-2', patientToken)).toBe(403)

    const observationToken = await appLaunchToken('launch/patient patient/Observation.rs')
    expect(await readPatient(fixture.sandbox, 'patient-1', observationToken)).toBe(403)
  })

  it('lets user/ and system/ read scopes read any patient', async () => {
    expect(
      await readPatient(fixture.sandbox, 'patient-9', await appLaunchToken('user/Patient.read')),
    ).toBe(200)
    expect(
      await readPatient(fixture.sandbox, 'patient-9', await backendToken('system/Patient.rs')),
    ).toBe(200)
    expect(
      await readPatient(fixture.sandbox, 'patient-9', await backendToken('system/Observation.rs')),
    ).toBe(403)
  })

  it('stops accepting a token once it is revoked', async () => {
    const { sandbox } = fixture
    const token = await appLaunchToken('user/*.rs')
    expect(await readPatient(sandbox, 'patient-1', token)).toBe(200)

    const revoked = await postForm(sandbox.endpoints.revocation, {
      token,
      client_id: publicClientId,
    })
    expect(revoked.status).toBe(200)
    expect(await readPatient(sandbox, 'patient-1', token)).toBe(401)
  })

  it('expires tokens after accessTokenLifetimeSeconds', async () => {
    // A second sandbox with one-second tokens; nothing else waits on it.
    const { startSmartSandbox } = await import('../../src/index.js')
    const shortLived = await startSmartSandbox({
      accessTokenLifetimeSeconds: 1,
      clients: [{ client_id: publicClientId, token_endpoint_auth_method: 'none' }],
    })
    try {
      const { prepared, code } = await authorizeForCode(shortLived, {
        clientId: publicClientId,
        scope: 'user/*.rs',
      })
      const reply = await exchangeCode(
        shortLived,
        prepared,
        code,
        publicAuthentication(publicClientId),
      )
      expect(reply.body.expires_in).toBe(1)
      await new Promise((resolve) => setTimeout(resolve, 1_100))
      expect(await readPatient(shortLived, 'patient-1', reply.body.access_token)).toBe(401)
    } finally {
      await shortLived.close()
    }
  })
})
