import { ConfigurationError } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import { normalizeRegistrationMetadata } from '../src/index.js'

const b2b = {
  client_name: 'Example B2B client',
  contacts: ['https://example.org/support', 'mailto:ops@example.org'],
  grant_types: ['client_credentials'],
  scope: 'system/Patient.rs system/Observation.rs',
}

const consumer = {
  client_name: 'Example app',
  contacts: ['mailto:ops@example.org'],
  grant_types: ['refresh_token', 'authorization_code'],
  scope: 'openid user/*.rs',
  redirect_uris: ['https://app.example.org/callback'],
  logo_uri: 'https://app.example.org/logo.PNG?v=2',
}

function register(metadata: Record<string, unknown>, allowInsecureLocalhost = false) {
  return normalizeRegistrationMetadata(metadata, { operation: 'register', allowInsecureLocalhost })
}

function refusedOn(attribute: string, call: () => unknown, pattern?: RegExp): void {
  let caught: unknown
  try {
    call()
  } catch (error) {
    caught = error
  }
  expect(caught).toBeInstanceOf(ConfigurationError)
  expect((caught as ConfigurationError).invalidAttribute).toBe(attribute)
  if (pattern !== undefined) expect((caught as ConfigurationError).message).toMatch(pattern)
}

describe('normalizeRegistrationMetadata', () => {
  it('builds client_credentials claims with the generated members', () => {
    expect(register(b2b)).toEqual({
      ...b2b,
      token_endpoint_auth_method: 'private_key_jwt',
    })
  })

  it('builds authorization_code claims with response_types and canonical grant order', () => {
    const claims = register(consumer)
    expect(claims.grant_types).toEqual(['authorization_code', 'refresh_token'])
    expect(claims.response_types).toEqual(['code'])
    expect(claims.redirect_uris).toEqual(consumer.redirect_uris)
    expect(claims.logo_uri).toBe(consumer.logo_uri)
    expect(claims.token_endpoint_auth_method).toBe('private_key_jwt')
  })

  it('keeps other JSON members and returns a frozen copy', () => {
    const input = {
      ...b2b,
      jwks_uri: 'https://client.example.org/jwks',
      software_version: 2,
      extra: { nested: [true, null] },
    }
    const claims = register(input)
    expect(claims.jwks_uri).toBe('https://client.example.org/jwks')
    expect(claims.extra).toEqual({ nested: [true, null] })
    expect(Object.isFrozen(claims)).toBe(true)
    expect(Object.isFrozen(claims.contacts)).toBe(true)
    ;(input.contacts as string[]).push('mailto:late@example.org')
    expect(claims.contacts).toHaveLength(2)
  })

  it('treats undefined members as absent', () => {
    expect(register({ ...b2b, redirect_uris: undefined, jwks_uri: undefined })).not.toHaveProperty(
      'jwks_uri',
    )
  })

  it('refuses members that are not JSON values', () => {
    refusedOn('extra', () => register({ ...b2b, extra: () => 1 }), /must be a JSON value/)
    refusedOn('extra', () => register({ ...b2b, extra: Number.NaN }))
    refusedOn('extra', () => register({ ...b2b, extra: new Date() }))
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    refusedOn('extra', () => register({ ...b2b, extra: cyclic }))
  })

  it('refuses a metadata value that is not a plain object, and an unknown operation', () => {
    refusedOn('metadata', () => register(null as never))
    refusedOn('metadata', () => register([] as never))
    refusedOn('operation', () =>
      normalizeRegistrationMetadata(b2b, { operation: 'modify' as never }),
    )
  })

  describe('reserved claims', () => {
    for (const name of [
      'iss',
      'sub',
      'aud',
      'exp',
      'iat',
      'jti',
      'software_statement',
      'certifications',
      'udap',
      'token_endpoint_auth_method',
    ]) {
      it(`refuses ${name}`, () => {
        refusedOn(name, () => register({ ...b2b, [name]: 'x' }), /set by the library/)
      })
    }
  })

  describe('client_name', () => {
    it('is required and non-blank', () => {
      refusedOn('client_name', () => register({ ...b2b, client_name: undefined }), /required/)
      refusedOn('client_name', () => register({ ...b2b, client_name: '  ' }))
      refusedOn('client_name', () => register({ ...b2b, client_name: 7 }))
    })
  })

  describe('contacts', () => {
    it('is a required non-empty array of URIs with a valid mailto:', () => {
      refusedOn('contacts', () => register({ ...b2b, contacts: undefined }), /required/)
      refusedOn('contacts', () => register({ ...b2b, contacts: [] }))
      refusedOn('contacts', () => register({ ...b2b, contacts: 'mailto:ops@example.org' }))
      refusedOn(
        'contacts',
        () => register({ ...b2b, contacts: ['ops@example.org'] }),
        /contacts\[0\] must be an absolute URI/,
      )
      refusedOn(
        'contacts',
        () => register({ ...b2b, contacts: ['https://example.org/support'] }),
        /at least one valid mailto/,
      )
      refusedOn(
        'contacts',
        () => register({ ...b2b, contacts: ['mailto:not-an-address'] }),
        /at least one valid mailto/,
      )
      refusedOn(
        'contacts',
        () => register({ ...b2b, contacts: ['mailto:a@b', 'not a uri'] }),
        /contacts\[1\]/,
      )
    })

    it('accepts other URI schemes beside a mailto:', () => {
      expect(
        register({ ...b2b, contacts: ['tel:+1-555-0100', 'mailto:ops@example.org?subject=udap'] })
          .contacts,
      ).toHaveLength(2)
    })
  })

  describe('scope', () => {
    it('is required: scope tokens separated by single spaces', () => {
      refusedOn('scope', () => register({ ...b2b, scope: undefined }), /required/)
      refusedOn('scope', () => register({ ...b2b, scope: '' }))
      refusedOn('scope', () => register({ ...b2b, scope: 'a  b' }))
      refusedOn('scope', () => register({ ...b2b, scope: ' a' }))
      refusedOn('scope', () => register({ ...b2b, scope: 'a\tb' }))
      refusedOn('scope', () => register({ ...b2b, scope: 'a"b' }))
      refusedOn('scope', () => register({ ...b2b, scope: ['a', 'b'] }))
    })
  })

  describe('grant_types', () => {
    it('is required and non-empty for a registration', () => {
      refusedOn('grant_types', () => register({ ...b2b, grant_types: undefined }), /required/)
      refusedOn('grant_types', () => register({ ...b2b, grant_types: [] }), /cancel/)
      refusedOn('grant_types', () => register({ ...b2b, grant_types: 'client_credentials' }))
    })

    it('allows exactly one of authorization_code and client_credentials', () => {
      refusedOn(
        'grant_types',
        () => register({ ...consumer, grant_types: ['authorization_code', 'client_credentials'] }),
        /exactly one/,
      )
      refusedOn('grant_types', () => register({ ...b2b, grant_types: ['refresh_token'] }))
    })

    it('allows refresh_token only with authorization_code', () => {
      refusedOn(
        'grant_types',
        () => register({ ...b2b, grant_types: ['client_credentials', 'refresh_token'] }),
        /refresh_token only with authorization_code/,
      )
    })

    it('refuses duplicates and unknown grant types', () => {
      refusedOn(
        'grant_types',
        () => register({ ...b2b, grant_types: ['client_credentials', 'client_credentials'] }),
        /twice/,
      )
      refusedOn(
        'grant_types',
        () => register({ ...b2b, grant_types: ['password'] }),
        /unsupported value "password"/,
      )
    })
  })

  describe('redirect_uris and logo_uri', () => {
    it('are required with authorization_code', () => {
      refusedOn(
        'redirect_uris',
        () => register({ ...consumer, redirect_uris: undefined }),
        /required/,
      )
      refusedOn('redirect_uris', () => register({ ...consumer, redirect_uris: [] }))
      refusedOn('logo_uri', () => register({ ...consumer, logo_uri: undefined }), /required/)
    })

    it('are refused without authorization_code', () => {
      refusedOn(
        'redirect_uris',
        () => register({ ...b2b, redirect_uris: consumer.redirect_uris }),
        /only with the authorization_code/,
      )
      refusedOn(
        'logo_uri',
        () => register({ ...b2b, logo_uri: consumer.logo_uri }),
        /only with the authorization_code/,
      )
    })

    it('redirect URIs must be HTTPS (loopback HTTP only with allowInsecureLocalhost)', () => {
      refusedOn(
        'redirect_uris',
        () => register({ ...consumer, redirect_uris: ['http://app.example.org/cb'] }),
        /redirect_uris\[0\] must be an HTTPS URL/,
      )
      refusedOn(
        'logo_uri',
        () => register({ ...consumer, logo_uri: 'http://app.example.org/logo.png' }),
        /HTTPS/,
      )
      const loopback = { ...consumer, redirect_uris: ['http://127.0.0.1:3000/cb'] }
      refusedOn('redirect_uris', () => register(loopback))
      expect(register(loopback, true).redirect_uris).toEqual(['http://127.0.0.1:3000/cb'])
    })

    it('the logo must be HTTPS whatever the policy (the server shows it to users)', () => {
      refusedOn(
        'logo_uri',
        () => register({ ...consumer, logo_uri: 'http://localhost/logo.gif' }, true),
        /HTTPS/,
      )
      refusedOn('logo_uri', () =>
        register({ ...consumer, logo_uri: 'http://127.0.0.1:3000/logo.png' }, true),
      )
    })

    it('refuses a redirect URI with a fragment', () => {
      refusedOn(
        'redirect_uris',
        () => register({ ...consumer, redirect_uris: ['https://app.example.org/cb#x'] }),
        /fragment/,
      )
    })

    it('requires a PNG, JPG or GIF logo', () => {
      for (const logo of [
        'https://a.example/l.png',
        'https://a.example/l.jpg',
        'https://a.example/l.JPEG',
        'https://a.example/l.gif?x=1',
      ]) {
        expect(register({ ...consumer, logo_uri: logo }).logo_uri).toBe(logo)
      }
      refusedOn(
        'logo_uri',
        () => register({ ...consumer, logo_uri: 'https://a.example/logo.svg' }),
        /\.png, \.jpg, \.jpeg or \.gif/,
      )
      refusedOn('logo_uri', () =>
        register({ ...consumer, logo_uri: 'https://a.example/logo?type=.png' }),
      )
    })
  })

  describe('response_types', () => {
    it('is set to ["code"] with authorization_code; the caller may write that value', () => {
      expect(register(consumer).response_types).toEqual(['code'])
      expect(register({ ...consumer, response_types: ['code'] }).response_types).toEqual(['code'])
    })

    it('any other value is refused', () => {
      for (const value of [['token'], ['code', 'token'], [], 'code', ['code', 'code'], null]) {
        refusedOn(
          'response_types',
          () => register({ ...consumer, response_types: value }),
          /set by the library/,
        )
      }
    })

    it('names the one value it accepts', () => {
      let caught: unknown
      try {
        register({ ...consumer, response_types: ['token'] })
      } catch (error) {
        caught = error
      }
      expect(caught).toBeInstanceOf(ConfigurationError)
      expect((caught as ConfigurationError).validValues).toEqual(['code'])
    })

    it('is refused without authorization_code', () => {
      refusedOn(
        'response_types',
        () => register({ ...b2b, response_types: ['code'] }),
        /only with the authorization_code/,
      )
    })
  })

  describe('cancellation', () => {
    const cancel = (metadata: Record<string, unknown>) =>
      normalizeRegistrationMetadata(metadata, { operation: 'cancel' })

    it('sends grant_types [] and drops redirect_uris and logo_uri', () => {
      const { grant_types: _grants, ...rest } = consumer
      const claims = cancel(rest)
      expect(claims.grant_types).toEqual([])
      expect(claims).not.toHaveProperty('redirect_uris')
      expect(claims).not.toHaveProperty('logo_uri')
      expect(claims).not.toHaveProperty('response_types')
      expect(claims.token_endpoint_auth_method).toBe('private_key_jwt')
    })

    it('refuses grant_types and still checks the other rules', () => {
      refusedOn('grant_types', () => cancel(b2b), /omitted for a cancellation/)
      const { grant_types: _grants, ...rest } = b2b
      refusedOn('contacts', () => cancel({ ...rest, contacts: [] }))
      refusedOn('client_name', () => cancel({ ...rest, client_name: undefined }))
      refusedOn('iss', () => cancel({ ...rest, iss: 'x' }))
    })
  })
})
