/**
 * SMART EHR launch end to end: the EHR (the sandbox) creates a launch context, the app passes
 * the opaque `launch` value through `client.authorizationUrl({ launch })`, and the token
 * response carries that patient and encounter.
 */
import { TokenError } from '@fhir-auth/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authorizeWithClient, codeExchange, readPatientStatus } from './support/flows.js'
import { appClient, type SmartFixture, startSmartFixture } from './support/smart-fixture.js'

const ehrScopes = ['launch', 'patient/*.rs', 'openid', 'fhirUser']

let fixture: SmartFixture

beforeAll(async () => {
  fixture = await startSmartFixture()
})

afterAll(async () => {
  await fixture?.sandbox.close()
})

describe('EHR launch', () => {
  it.each([
    ['public', 'get'],
    ['symmetric', 'post'],
    ['ES384', 'get'],
  ] as const)(
    'gives a %s client (%s) the patient and encounter of the launch',
    async (kind, method) => {
      const { sandbox } = fixture
      const launch = sandbox.createLaunch({ patient: 'patient-ehr-7', encounter: 'encounter-3' })
      const client = appClient(fixture, kind, { scopes: ehrScopes })
      const request = await client.authorizationUrl({ launch, method })
      const sentLaunch =
        request.params === undefined
          ? new URL(request.authUrl).searchParams.get('launch')
          : request.params.launch
      expect(sentLaunch).toBe(launch)

      const authorization = await authorizeWithClient(client, sandbox, { launch, method })
      const tokens = await client.requestAccessToken({
        code: authorization.code,
        codeVerifier: authorization.codeVerifier,
      })
      expect(tokens.patient).toBe('patient-ehr-7')
      expect(tokens.encounter).toBe('encounter-3')
      expect(tokens.need_patient_banner).toBe(false)
      expect(String(tokens.scope).split(' ')).toContain('launch')
      expect(client.isTokenResponseValid(tokens)).toBe(true)
      expect(await readPatientStatus(sandbox, 'patient-ehr-7', tokens.access_token)).toBe(200)
      expect(await readPatientStatus(sandbox, 'patient-1', tokens.access_token)).toBe(403)
    },
  )

  it('binds each launch to its own context', async () => {
    const { sandbox } = fixture
    const client = appClient(fixture, 'public', { scopes: ehrScopes })
    const first = sandbox.createLaunch({ patient: 'patient-a' })
    const second = sandbox.createLaunch({ patient: 'patient-b', needPatientBanner: true })
    const secondTokens = await client.requestAccessToken(
      codeExchange(await authorizeWithClient(client, sandbox, { launch: second })),
    )
    const firstTokens = await client.requestAccessToken(
      codeExchange(await authorizeWithClient(client, sandbox, { launch: first })),
    )
    expect(firstTokens.patient).toBe('patient-a')
    expect(firstTokens.encounter).toBeUndefined()
    expect(secondTokens.patient).toBe('patient-b')
    expect(secondTokens.need_patient_banner).toBe(true)
  })

  it('fails at the authorization server when the scopes lack launch', async () => {
    const { sandbox } = fixture
    const launch = sandbox.createLaunch({ patient: 'patient-ehr-7' })
    const client = appClient(fixture, 'public', { scopes: ['patient/*.rs', 'openid', 'fhirUser'] })
    const request = await client.authorizationUrl({ launch })
    const result = await sandbox.authorize({ url: request.authUrl })
    expect(result.code).toBeUndefined()
    expect(result.error).toBe('invalid_scope')
    expect(result.errorDescription).toContain('launch')
    expect(result.state).toBe(request.state)
  })

  it('fails at the authorization server for a launch value the EHR never issued', async () => {
    const { sandbox } = fixture
    const client = appClient(fixture, 'public', { scopes: ehrScopes })
    const request = await client.authorizationUrl({ launch: 'not-a-launch-the-ehr-issued' })
    const result = await sandbox.authorize({ url: request.authUrl })
    expect(result.code).toBeUndefined()
    expect(result.error).toBeDefined()
    expect(result.state).toBe(request.state)
  })

  it('cannot redeem a code with the verifier of another authorization', async () => {
    const { sandbox } = fixture
    const client = appClient(fixture, 'public', { scopes: ehrScopes })
    const launch = sandbox.createLaunch({ patient: 'patient-ehr-7' })
    const authorization = await authorizeWithClient(client, sandbox, { launch })
    const other = await client.authorizationUrl()
    const error = await client
      .requestAccessToken({ code: authorization.code, codeVerifier: other.codeVerifier })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(TokenError)
    expect(error).toMatchObject({ error: 'invalid_grant', status: 400 })
  })
})
