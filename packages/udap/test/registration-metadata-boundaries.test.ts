/**
 * `normalizeRegistrationMetadata` at its edges: the mailto and logo patterns, non-string values
 * that print like URLs, which refused value an error carries, and what each refusal says. Each
 * case fails if its rule is dropped (see docs/testing.md, mutation testing);
 * registration-metadata.test.ts has the main cases.
 */
import { ConfigurationError } from '@fhir-auth/core'
import { syncFailureOf } from '@fhir-auth/test-utils/failure'
import { describe, expect, it } from 'vitest'
import { normalizeRegistrationMetadata } from '../src/index.js'

const b2b = {
  client_name: 'Example B2B client',
  contacts: ['mailto:ops@example.org'],
  grant_types: ['client_credentials'],
  scope: 'system/Patient.rs',
}

const consumer = {
  ...b2b,
  grant_types: ['authorization_code'],
  redirect_uris: ['https://app.example.org/callback'],
  logo_uri: 'https://app.example.org/logo.png',
}

const register = (metadata: Record<string, unknown>) =>
  normalizeRegistrationMetadata(metadata, { operation: 'register' })

const refusal = (metadata: Record<string, unknown>) =>
  syncFailureOf(() => register(metadata), ConfigurationError)

describe('contacts: the mailto pattern', () => {
  it.each([
    'mailto:x@a.org',
    'mailto:ops@mail.example.org',
    'mailto:x@example.a',
    'mailto:x@example.info',
    'mailto:ops@example.org?subject=UDAP',
  ])('accepts %s', (contact) => {
    expect(register({ ...b2b, contacts: [contact] }).contacts).toEqual([contact])
  })

  it.each([
    'xmailto:ops@example.org',
    'mailto:ops@example.org#fragment',
    'mailto:ops@-example.org',
    'mailto:ops@example.org,other@example.org',
  ])('does not count %s as a mailto address', (contact) => {
    const error = refusal({ ...b2b, contacts: [contact] })
    expect(error.invalidAttribute).toBe('contacts')
    expect(error.message).toContain('at least one valid mailto: URI')
  })

  it('names a contact that is not a URI, and says what contacts must be', () => {
    expect(refusal({ ...b2b, contacts: ['ops at example.org'] })).toMatchObject({
      invalidAttribute: 'contacts',
      invalidValue: 'ops at example.org',
    })
    for (const contacts of [[], 'mailto:ops@example.org']) {
      const error = refusal({ ...b2b, contacts })
      expect(error.message).toContain('contacts must be a non-empty array of URIs, not')
      expect(error.invalidValue).toBeUndefined()
    }
  })
})

describe('scope, redirect_uris and logo_uri: what a refusal carries', () => {
  it('carries a refused scope string, never another type, and says why', () => {
    const spaced = refusal({ ...b2b, scope: 'a  b' })
    expect(spaced).toMatchObject({ invalidAttribute: 'scope', invalidValue: 'a  b' })
    expect(spaced.message).toContain('separated by single spaces (RFC 6749 §3.3)')
    const number = refusal({ ...b2b, scope: 42 })
    expect(number.invalidValue).toBeUndefined()
    expect(number.message).toContain('separated by single spaces')
  })

  it('refuses a URL object where a string URL is required', () => {
    const url = new URL('https://app.example.org/callback')
    const redirect = refusal({ ...consumer, redirect_uris: [url] })
    expect(redirect).toMatchObject({ invalidAttribute: 'redirect_uris', invalidValue: undefined })
    expect(redirect.message).toContain('redirect_uris[0] must be an HTTPS URL')
    const logo = refusal({ ...consumer, logo_uri: new URL('https://app.example.org/logo.png') })
    expect(logo).toMatchObject({ invalidAttribute: 'logo_uri', invalidValue: undefined })
  })

  it('carries a refused redirect URI or logo URI string', () => {
    expect(refusal({ ...consumer, redirect_uris: ['http://app.example.org/cb'] })).toMatchObject({
      invalidAttribute: 'redirect_uris',
      invalidValue: 'http://app.example.org/cb',
    })
    expect(refusal({ ...consumer, logo_uri: 'http://app.example.org/logo.png' })).toMatchObject({
      invalidAttribute: 'logo_uri',
      invalidValue: 'http://app.example.org/logo.png',
    })
  })

  it('says redirect_uris must be a non-empty array', () => {
    for (const redirectUris of [[], 'https://app.example.org/callback']) {
      expect(refusal({ ...consumer, redirect_uris: redirectUris }).message).toContain(
        'redirect_uris must be a non-empty array of HTTPS URLs, not',
      )
    }
  })

  it('requires the image extension at the end of the logo path', () => {
    expect(
      refusal({ ...consumer, logo_uri: 'https://app.example.org/logo.png.html' }),
    ).toMatchObject({
      invalidAttribute: 'logo_uri',
      message: expect.stringContaining('.png, .jpg, .jpeg or .gif'),
    })
  })
})

describe('client_name and the options', () => {
  it('keeps client_name as given, and names a non-string one by its value', () => {
    expect(register({ ...b2b, client_name: ' Example ' }).client_name).toBe(' Example ')
    expect(refusal({ ...b2b, client_name: 7 })).toMatchObject({
      invalidAttribute: 'client_name',
      invalidValue: 7,
    })
  })

  it('names the operations when none or another is given', () => {
    for (const options of [undefined, {}, { operation: 'modify' }]) {
      const error = syncFailureOf(
        () => normalizeRegistrationMetadata(b2b, options as never),
        ConfigurationError,
      )
      expect(error).toMatchObject({
        invalidAttribute: 'operation',
        validValues: ['register', 'cancel'],
        message: 'operation must be "register" or "cancel"',
      })
    }
  })

  it('says what the metadata is when it is not a plain object', () => {
    const error = syncFailureOf(
      () => normalizeRegistrationMetadata([b2b], { operation: 'register' }),
      ConfigurationError,
    )
    expect(error).toMatchObject({ invalidAttribute: 'metadata' })
    expect(error.message).toContain('registration metadata must be a plain object, not')
  })
})
