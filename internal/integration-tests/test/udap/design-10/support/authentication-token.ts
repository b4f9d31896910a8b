/**
 * The DESIGN §10 rules of a UDAP authentication token on the code and refresh grants, asserted
 * on what the sandbox received (its own record, decoded independently of the library).
 */
import type { AuthenticationTokenRecord } from '@fhir-auth/sandbox'
import { expect } from 'vitest'
import { expectCodeFlowTokenForm } from '../../support/code-flow-context.js'
import { inspectJws } from '../../support/jws-inspection.js'

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
  const { header, claims } = inspectJws(assertion)
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
  expectCodeFlowTokenForm(ant.form, expected.grantType)
}
