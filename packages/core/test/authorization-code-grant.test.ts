/**
 * The OAuth parts SMART and UDAP share in an authorization code flow: the first request
 * parameters, the `nonce`, and the `authorization_code` grant with its secrets.
 */
import { ConfigurationError } from '@fhir-auth/core'
import { addNonce, authorizationCodeGrant, codeRequestParameters } from '@fhir-auth/core/internal'
import { describe, expect, it } from 'vitest'

describe('codeRequestParameters', () => {
  it('response_type=code, client_id and redirect_uri, in that order', () => {
    const params = codeRequestParameters({ clientId: 'app', redirectUri: 'https://app/cb' })
    expect(Object.entries(params)).toEqual([
      ['response_type', 'code'],
      ['client_id', 'app'],
      ['redirect_uri', 'https://app/cb'],
    ])
  })

  it.each([
    [{ redirectUri: 'https://app/cb' }, 'clientId'],
    [{ clientId: 'app', redirectUri: ' ' }, 'redirectUri'],
  ])('refuses a missing or blank part: %j', (parts, attribute) => {
    expect(() => codeRequestParameters(parts)).toThrow(
      expect.objectContaining({ name: ConfigurationError.name, invalidAttribute: attribute }),
    )
  })
})

describe('addNonce', () => {
  it('adds a given nonce, and nothing for an absent or empty one', () => {
    const params: Record<string, string> = {}
    addNonce(params, undefined)
    addNonce(params, '')
    expect(params).toEqual({})
    addNonce(params, 'n-123')
    expect(params).toEqual({ nonce: 'n-123' })
  })

  it('refuses a nonce that is not a string', () => {
    expect(() => addNonce({}, 42)).toThrow(ConfigurationError)
  })
})

describe('authorizationCodeGrant', () => {
  it('the grant form in RFC 6749 order, with the code and verifier as its secrets', () => {
    const grant = authorizationCodeGrant({
      code: 'code-1',
      codeVerifier: 'verifier-1',
      redirectUri: 'https://app/cb',
    })
    expect(Object.entries(grant.form)).toEqual([
      ['grant_type', 'authorization_code'],
      ['code', 'code-1'],
      ['redirect_uri', 'https://app/cb'],
      ['code_verifier', 'verifier-1'],
    ])
    expect(grant.secrets).toEqual(['code-1', 'verifier-1'])
  })

  it.each([
    [{ codeVerifier: 'v', redirectUri: 'https://app/cb' }, 'code'],
    [{ code: 'c', redirectUri: 'https://app/cb' }, 'codeVerifier'],
    [{ code: 'c', codeVerifier: 'v' }, 'redirectUri'],
  ])('refuses a missing part before any request: %j', (parts, attribute) => {
    expect(() => authorizationCodeGrant(parts)).toThrow(
      expect.objectContaining({ invalidAttribute: attribute }),
    )
  })

  it('never quotes a code of the wrong type', () => {
    expect(() => authorizationCodeGrant({ code: ['secret-code'], codeVerifier: 'v' })).toThrow(
      expect.not.objectContaining({ message: expect.stringContaining('secret-code') }),
    )
  })
})
