/**
 * Authorization extensions beyond `hl7-b2b` (issue 30): `b2bUser` builds `hl7-b2b-user`,
 * `extensions` carries others (TEFCA's `tefca_ias`) as given, every key the server lists in
 * `udap_authorization_extensions_required` is required before any token request, and
 * `backendTokens` keeps one token per whole extension context. Through `Client` against the
 * UDAP sandbox.
 */
import { type Client, ConfigurationError } from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countsOf } from '../support/sandbox-requests.js'
import {
  b2bContext,
  clientCredentialsRegistration,
  createUdapClient,
  defaultClientUri,
  identityOf,
  type TrustInputs,
  treatmentPurpose,
  trustInputsOf,
} from '../support/udap-test-context.js'

const userPerson = Object.freeze({
  resourceType: 'Person',
  name: [{ text: 'Dr. Ada Example' }],
  identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567890' }],
})
const tefcaIas = Object.freeze({ version: '1', id_token: 'eyJ…', purpose_of_use: 'T-IAS' })

let sandbox: UdapSandbox
let trust: TrustInputs
let client: Client

beforeAll(async () => {
  sandbox = await startUdapSandbox({
    requiredAuthorizationExtensions: ['hl7-b2b', 'hl7-b2b-user', 'tefca_ias'],
  })
  trust = trustInputsOf(sandbox.trust)
  const certificate = await sandbox.certificateAuthority.issue({
    commonName: 'Extensions client',
    sanUris: [defaultClientUri],
    keyType: 'p256',
  })
  client = createUdapClient(sandbox, identityOf(certificate))
  await client.registerClient(clientCredentialsRegistration, {
    clientUri: defaultClientUri,
    ...trust,
  })
})
afterAll(() => sandbox.close())

describe('required extensions', () => {
  it('names each missing required extension before any token request', async () => {
    const before = countsOf(sandbox)
    const missingUser = await failureOf(
      client.requestBackendToken({
        ...trust,
        b2b: b2bContext,
        extensions: { tefca_ias: tefcaIas },
      }),
      ConfigurationError,
    )
    expect(missingUser.invalidAttribute).toBe('extensions')
    expect(missingUser.message).toContain('"hl7-b2b-user"')
    const missingTefca = await failureOf(
      client.requestBackendToken({
        ...trust,
        b2b: b2bContext,
        b2bUser: { userPerson, purposeOfUse: [treatmentPurpose] },
      }),
      ConfigurationError,
    )
    expect(missingTefca.invalidAttribute).toBe('extensions')
    expect(missingTefca.message).toContain('"tefca_ias"')
    expect(countsOf(sandbox).token).toBe(before.token)
  })

  it('signs hl7-b2b, hl7-b2b-user and the extensions given into the authentication token', async () => {
    const token = await client.requestBackendToken({
      ...trust,
      b2b: b2bContext,
      b2bUser: {
        userPerson,
        purposeOfUse: [treatmentPurpose],
        consentPolicy: ['urn:oid:2.16.840.1.113883.3.7204.1.1.1.1.2.1'],
        consentReference: ['https://fhir.example.test/r4/Consent/1'],
      },
      extensions: { tefca_ias: tefcaIas },
    })
    expect(token.token_type).toBe('Bearer')
    const extensions = sandbox.authenticationTokens.at(-1)?.claims?.extensions as Record<
      string,
      unknown
    >
    expect(extensions['hl7-b2b-user']).toEqual({
      version: '1',
      user_person: userPerson,
      purpose_of_use: [treatmentPurpose],
      consent_policy: ['urn:oid:2.16.840.1.113883.3.7204.1.1.1.1.2.1'],
      consent_reference: ['https://fhir.example.test/r4/Consent/1'],
    })
    expect(extensions.tefca_ias).toEqual(tefcaIas)
    expect(extensions['hl7-b2b']).toMatchObject({
      version: '1',
      purpose_of_use: [treatmentPurpose],
    })
  })

  it('refuses an extension that is not a JSON object, and a key a shorthand also gives', async () => {
    const before = countsOf(sandbox)
    const notObject = await failureOf(
      client.requestBackendToken({
        ...trust,
        b2b: b2bContext,
        extensions: { tefca_ias: 'T-IAS' as never },
      }),
      ConfigurationError,
    )
    expect(notObject.invalidAttribute).toBe('extensions')
    const twice = await failureOf(
      client.requestBackendToken({
        ...trust,
        b2b: b2bContext,
        b2bUser: { userPerson, purposeOfUse: [treatmentPurpose] },
        extensions: { tefca_ias: tefcaIas, 'hl7-b2b-user': {} },
      }),
      ConfigurationError,
    )
    expect(twice.invalidAttribute).toBe('extensions')
    const notPerson = await failureOf(
      client.requestBackendToken({
        ...trust,
        b2b: b2bContext,
        b2bUser: { userPerson: { resourceType: 'Patient' }, purposeOfUse: [treatmentPurpose] },
        extensions: { tefca_ias: tefcaIas },
      }),
      ConfigurationError,
    )
    expect(notPerson.invalidAttribute).toBe('b2bUser.userPerson')
    expect(countsOf(sandbox).token).toBe(before.token)
  })

  it('refuses the key __proto__ (as JSON.parse makes it) and an array, rather than dropping them', async () => {
    const before = countsOf(sandbox)
    const fromJson = JSON.parse(
      `{"tefca_ias": ${JSON.stringify(tefcaIas)}, "__proto__": {"purpose_of_use": "T-IAS"}}`,
    ) as Record<string, Record<string, unknown>>
    expect(Object.keys(fromJson)).toEqual(['tefca_ias', '__proto__'])
    const prototypeKey = await failureOf(
      client.requestBackendToken({
        ...trust,
        b2b: b2bContext,
        b2bUser: { userPerson, purposeOfUse: [treatmentPurpose] },
        extensions: fromJson,
      }),
      ConfigurationError,
    )
    expect(prototypeKey.invalidAttribute).toBe('extensions')
    expect(prototypeKey.message).toContain('"__proto__"')
    const array = await failureOf(
      client.requestBackendToken({
        ...trust,
        b2b: b2bContext,
        b2bUser: { userPerson, purposeOfUse: [treatmentPurpose] },
        extensions: { tefca_ias: [tefcaIas] as never },
      }),
      ConfigurationError,
    )
    expect(array.invalidAttribute).toBe('extensions')
    expect(array.message).toContain('"tefca_ias"')
    expect(countsOf(sandbox).token).toBe(before.token)
  })
})

describe('backend token reuse', () => {
  it('keeps one token per whole extension context', async () => {
    const request = (purpose: string, ias: Readonly<Record<string, unknown>>) =>
      client.backendTokens({
        ...trust,
        b2b: b2bContext,
        b2bUser: { userPerson, purposeOfUse: [purpose] },
        extensions: { tefca_ias: ias },
      })
    const before = countsOf(sandbox).token
    const first = request(treatmentPurpose, tefcaIas)
    await first.accessToken()
    await request(treatmentPurpose, { ...tefcaIas }).accessToken()
    expect(countsOf(sandbox).token - before).toBe(1)
    await request('urn:oid:2.16.840.1.113883.5.8#ETREAT', tefcaIas).accessToken()
    await request(treatmentPurpose, { ...tefcaIas, purpose_of_use: 'T-IASX' }).accessToken()
    expect(countsOf(sandbox).token - before).toBe(3)
  })
})
