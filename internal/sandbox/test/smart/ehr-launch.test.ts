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
import { ConfigurationErrorForTests } from './support/imports.js'

const ehrScopes = 'launch openid fhirUser patient/*.rs offline_access'

let fixture: Fixture
beforeAll(async () => {
  fixture = await startFixture()
})
afterAll(() => fixture.sandbox.close())

describe('EHR launch', () => {
  it('returns the launch context with the token and keeps it on refresh', async () => {
    const { sandbox } = fixture
    const launch = sandbox.createLaunch({ patient: 'patient-42', encounter: 'encounter-7' })
    const { prepared, code } = await authorizeForCode(sandbox, {
      clientId: publicClientId,
      scope: ehrScopes,
      launch,
    })
    const reply = await exchangeCode(sandbox, prepared, code, publicAuthentication(publicClientId))

    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      patient: 'patient-42',
      encounter: 'encounter-7',
      need_patient_banner: false,
      smart_style_url: `${sandbox.origin}/smart-style.json`,
    })
    expect(String(reply.body.scope).split(' ')).toContain('launch')

    const refreshed = await refresh(
      sandbox,
      stringMember(reply, 'refresh_token'),
      publicAuthentication(publicClientId),
    )
    expect(refreshed.body).toMatchObject({ patient: 'patient-42', encounter: 'encounter-7' })
  })

  it('binds the patient of the launch to the access token', async () => {
    const { sandbox } = fixture
    const launch = sandbox.createLaunch({ patient: 'patient-42', needPatientBanner: true })
    const { prepared, code } = await authorizeForCode(sandbox, {
      clientId: publicClientId,
      scope: ehrScopes,
      launch,
    })
    const reply = await exchangeCode(sandbox, prepared, code, publicAuthentication(publicClientId))

    expect(reply.body.need_patient_banner).toBe(true)
    expect(reply.body.encounter).toBeUndefined()
    expect(await readPatient(sandbox, 'patient-42', reply.body.access_token)).toBe(200)
    expect(await readPatient(sandbox, 'patient-1', reply.body.access_token)).toBe(403)
  })

  it('gives each authorization its own context', async () => {
    const { sandbox } = fixture
    const first = sandbox.createLaunch({ patient: 'patient-a' })
    const second = sandbox.createLaunch({ patient: 'patient-b' })
    const one = await authorizeForCode(sandbox, {
      clientId: publicClientId,
      scope: ehrScopes,
      launch: first,
    })
    const two = await authorizeForCode(sandbox, {
      clientId: publicClientId,
      scope: ehrScopes,
      launch: second,
    })

    const replyTwo = await exchangeCode(
      sandbox,
      two.prepared,
      two.code,
      publicAuthentication(publicClientId),
    )
    const replyOne = await exchangeCode(
      sandbox,
      one.prepared,
      one.code,
      publicAuthentication(publicClientId),
    )
    expect(replyOne.body.patient).toBe('patient-a')
    expect(replyTwo.body.patient).toBe('patient-b')
  })

  it('fails the authorization for a launch value it did not issue', async () => {
    const { sandbox } = fixture
    const prepared = prepareAuthorization(sandbox, {
      clientId: publicClientId,
      scope: ehrScopes,
      launch: 'made-up',
    })
    const result = await sandbox.authorize({ url: authorizationUrl(sandbox, prepared) })

    expect(result.code).toBeUndefined()
    expect(result.error).toBe('invalid_request')
    expect(result.errorDescription).toContain('launch')
    expect(result.state).toBe(prepared.state)
  })

  it('fails a launch parameter sent without the launch scope', async () => {
    const { sandbox } = fixture
    const launch = sandbox.createLaunch({ patient: 'patient-42' })
    const prepared = prepareAuthorization(sandbox, {
      clientId: publicClientId,
      scope: 'patient/*.rs',
      launch,
    })
    const result = await sandbox.authorize({ url: authorizationUrl(sandbox, prepared) })

    expect(result.error).toBe('invalid_scope')
  })

  it('refuses a launch without a patient', () => {
    expect(() => fixture.sandbox.createLaunch({ patient: '' })).toThrow(ConfigurationErrorForTests)
  })
})
