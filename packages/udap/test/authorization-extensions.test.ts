/**
 * The authorization extensions of a client_credentials request (issue 30): the `hl7-b2b-user`
 * shorthand, extension objects as given, and the server's required list.
 */
import { ConfigurationError } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import {
  buildAuthorizationExtensions,
  buildB2bUserExtension,
  requireAuthorizationExtensions,
} from '../src/index.js'

const treat = 'urn:oid:2.16.840.1.113883.5.8#TREAT'
const userPerson = { resourceType: 'Person', name: [{ text: 'Ada' }] }

function refusal(run: () => unknown): ConfigurationError {
  try {
    run()
  } catch (error) {
    if (error instanceof ConfigurationError) return error
    throw error
  }
  throw new Error('no ConfigurationError')
}

describe('buildB2bUserExtension', () => {
  it('builds version 1 with user_person, purpose_of_use and the consent members', () => {
    expect(
      buildB2bUserExtension({
        userPerson,
        purposeOfUse: [treat],
        consentPolicy: ['urn:oid:1.2.3'],
        consentReference: ['https://fhir.example.test/Consent/1'],
      }),
    ).toEqual({
      version: '1',
      user_person: userPerson,
      purpose_of_use: [treat],
      consent_policy: ['urn:oid:1.2.3'],
      consent_reference: ['https://fhir.example.test/Consent/1'],
    })
    expect(buildB2bUserExtension({ userPerson, purposeOfUse: [treat] })).toEqual({
      version: '1',
      user_person: userPerson,
      purpose_of_use: [treat],
    })
  })

  it.each([
    ['not an object', 'x', 'b2bUser'],
    ['no Person', { purposeOfUse: [treat] }, 'b2bUser.userPerson'],
    [
      'a Patient',
      { userPerson: { resourceType: 'Patient' }, purposeOfUse: [treat] },
      'b2bUser.userPerson',
    ],
    [
      'a Person with a function',
      { userPerson: { resourceType: 'Person', f: () => 1 }, purposeOfUse: [treat] },
      'b2bUser.userPerson',
    ],
    ['no purpose', { userPerson }, 'b2bUser.purposeOfUse'],
    ['an empty purpose', { userPerson, purposeOfUse: [] }, 'b2bUser.purposeOfUse'],
    ['a blank purpose', { userPerson, purposeOfUse: [' '] }, 'b2bUser.purposeOfUse'],
    [
      'a relative policy',
      { userPerson, purposeOfUse: [treat], consentPolicy: ['policy'] },
      'b2bUser.consentPolicy',
    ],
    [
      'a reference without a policy',
      { userPerson, purposeOfUse: [treat], consentReference: ['https://x.test/C/1'] },
      'b2bUser.consentReference',
    ],
    [
      'a reference that is no URL',
      {
        userPerson,
        purposeOfUse: [treat],
        consentPolicy: ['urn:a:b'],
        consentReference: ['urn:x'],
      },
      'b2bUser.consentReference',
    ],
  ])('refuses %s', (_name, input, attribute) => {
    expect(refusal(() => buildB2bUserExtension(input as never)).invalidAttribute).toBe(attribute)
  })
})

describe('buildAuthorizationExtensions', () => {
  const b2b = { organizationId: 'https://org.example.test/1', purposeOfUse: [treat] }

  it('merges the shorthands with the extensions given; none is undefined', () => {
    const extensions = buildAuthorizationExtensions({
      b2b,
      b2bUser: { userPerson, purposeOfUse: [treat] },
      extensions: { tefca_ias: { version: '1' } },
    })
    expect(Object.keys(extensions ?? {}).sort()).toEqual(['hl7-b2b', 'hl7-b2b-user', 'tefca_ias'])
    expect(extensions?.tefca_ias).toEqual({ version: '1' })
    expect(buildAuthorizationExtensions({})).toBeUndefined()
    expect(buildAuthorizationExtensions({ extensions: {} })).toBeUndefined()
  })

  it.each([
    ['extensions not an object', { extensions: [] }],
    ['a member that is not an object', { extensions: { tefca_ias: 'x' } }],
    ['a member with a non-JSON value', { extensions: { tefca_ias: { at: new Date() } } }],
    ['hl7-b2b given twice', { b2b, extensions: { 'hl7-b2b': {} } }],
    [
      'hl7-b2b-user given twice',
      { b2bUser: { userPerson, purposeOfUse: [treat] }, extensions: { 'hl7-b2b-user': {} } },
    ],
  ])('refuses %s on extensions', (_name, input) => {
    expect(refusal(() => buildAuthorizationExtensions(input as never)).invalidAttribute).toBe(
      'extensions',
    )
  })
})

describe('requireAuthorizationExtensions', () => {
  it('passes when every required key is given', () => {
    expect(() => requireAuthorizationExtensions([], undefined)).not.toThrow()
    expect(() => requireAuthorizationExtensions(['a'], { a: {} })).not.toThrow()
  })

  it('names every missing key on extensions, with the shorthand that gives each', () => {
    const b2bMissing = refusal(() => requireAuthorizationExtensions(['hl7-b2b'], {}))
    expect(b2bMissing.invalidAttribute).toBe('extensions')
    expect(b2bMissing.message).toContain('"hl7-b2b"')
    expect(b2bMissing.message).toContain('b2b { organizationId, purposeOfUse }')
    expect(b2bMissing.message).not.toContain('b2bUser')
    const all = refusal(() =>
      requireAuthorizationExtensions(['hl7-b2b', 'hl7-b2b-user', 'tefca_ias'], undefined),
    )
    expect(all.invalidAttribute).toBe('extensions')
    expect(all.message).toContain('"hl7-b2b", "hl7-b2b-user", "tefca_ias"')
    expect(all.message).toContain('b2bUser { userPerson, purposeOfUse }')
    const error = refusal(() =>
      requireAuthorizationExtensions(['hl7-b2b', 'hl7-b2b-user', 'tefca_ias'], { 'hl7-b2b': {} }),
    )
    expect(error.invalidAttribute).toBe('extensions')
    expect(error.message).toContain('"hl7-b2b-user", "tefca_ias"')
    expect(error.message).toContain('b2bUser')
  })
})
