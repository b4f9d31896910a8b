/**
 * The `refresh_token` grant SMART and UDAP share: the form in RFC 6749 §6 order, the scope only
 * when a usable one is given, and every secret the refresh carries kept for redaction.
 */
import { ConfigurationError } from '@fhir-auth/core'
import { refreshTokenGrant } from '@fhir-auth/core/internal'
import { describe, expect, it } from 'vitest'

describe('refreshTokenGrant', () => {
  it('grant_type, refresh_token and a narrower scope, in that order', () => {
    const grant = refreshTokenGrant({ refreshToken: 'rt-1', scopes: ['patient/*.rs', 'openid'] })
    expect(Object.entries(grant.form)).toEqual([
      ['grant_type', 'refresh_token'],
      ['refresh_token', 'rt-1'],
      ['scope', 'patient/*.rs openid'],
    ])
    expect(grant.refreshToken).toBe('rt-1')
  })

  it.each([[undefined], [[]], [['', '  ']], ['patient/*.rs']])(
    'sends no scope for %j: the grant keeps its scopes',
    (scopes) => {
      expect(refreshTokenGrant({ refreshToken: 'rt-1', scopes }).form).not.toHaveProperty('scope')
    },
  )

  it('keeps blank entries out of a scope it sends', () => {
    expect(refreshTokenGrant({ refreshToken: 'rt-1', scopes: ['a', ' ', 'b'] }).form.scope).toBe(
      'a b',
    )
  })

  it("the refresh token and the caller's held secrets are the secrets; other values are ignored", () => {
    const grant = refreshTokenGrant({
      refreshToken: 'rt-1',
      heldSecrets: ['access-1', '', 42, 'id-token-1'],
    })
    expect(grant.secrets).toEqual(['rt-1', 'access-1', 'id-token-1'])
    expect(refreshTokenGrant({ refreshToken: 'rt-1', heldSecrets: 'access-1' }).secrets).toEqual([
      'rt-1',
    ])
  })

  it.each([[undefined], [''], ['   '], [42]])(
    'refuses refreshToken %j before any request',
    (value) => {
      expect(() => refreshTokenGrant({ refreshToken: value })).toThrow(
        expect.objectContaining({
          name: ConfigurationError.name,
          invalidAttribute: 'refreshToken',
        }),
      )
    },
  )
})
