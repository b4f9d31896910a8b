/**
 * The DESIGN §10 rules of a UDAP authentication token on the code and refresh grants, asserted
 * on what the sandbox received (its own record, decoded independently of the library).
 */
import type { AuthenticationTokenRecord } from '@fhir-auth/sandbox'
import { expect } from 'vitest'
import { decodeJws } from './context.js'

export function expectCodeFlowAnt(
  record: AuthenticationTokenRecord | undefined,
  expected: {
    readonly grantType: 'authorization_code' | 'refresh_token'
    readonly clientId: string
    readonly tokenEndpoint: string
  },
): void {
  expect(record).toBeDefined()
  const ant = record as AuthenticationTokenRecord
  expect(ant.authorizationHeader).toBe(false)
  expect(ant.accepted).toBe(true)
  const assertion = ant.form.client_assertion
  expect(typeof assertion).toBe('string')
  // Decode the wire value ourselves, not only the server's parse of it.
  const { header, claims } = decodeJws(String(assertion))
  expect(Object.keys(header).sort()).toEqual(['alg', 'x5c'])
  expect(Array.isArray(header.x5c) && header.x5c.length > 0).toBe(true)
  expect(claims.iss).toBe(expected.clientId)
  expect(claims.sub).toBe(expected.clientId)
  expect(claims.aud).toBe(expected.tokenEndpoint)
  expect(Number.isInteger(claims.iat)).toBe(true)
  expect(Number.isInteger(claims.exp)).toBe(true)
  expect(Number(claims.exp)).toBeGreaterThan(Number(claims.iat))
  expect(Number(claims.exp) - Number(claims.iat)).toBeLessThanOrEqual(300)
  expect(typeof claims.jti).toBe('string')
  expect(String(claims.jti).length).toBeGreaterThanOrEqual(16)
  expect(claims).not.toHaveProperty('extensions')
  expect(ant.form.grant_type).toBe(expected.grantType)
  expect(ant.form.udap).toBe('1')
  expect(ant.form.client_assertion_type).toBe(
    'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
  )
  expect(ant.form).not.toHaveProperty('client_secret')
  if (expected.grantType === 'authorization_code') {
    expect(Object.keys(ant.form).sort()).toEqual(
      [
        'client_assertion',
        'client_assertion_type',
        'code',
        'code_verifier',
        'grant_type',
        'redirect_uri',
        'udap',
      ].sort(),
    )
  } else {
    expect(ant.form).toHaveProperty('refresh_token')
    expect(ant.form).not.toHaveProperty('code')
  }
}
