/**
 * Unknown configuration attributes (DESIGN §12, issue 10 defect 6): detected on own members only
 * (`constructor` and `__proto__` are unknown like any typo), reported as "unknown attribute" with
 * the valid names; inherited members are never read as configuration.
 */
import { describe, expect, it } from 'vitest'
import { ClientConfig } from '../src/index.js'
import { configurationError } from './support/configuration-error.js'

const base = { baseUrl: 'https://ehr.example.org/fhir' }

describe('ClientConfig attributes', () => {
  it.each([
    ['constructor', { ...base, constructor: 'x' }],
    [
      '__proto__',
      JSON.parse('{"baseUrl":"https://ehr.example.org/fhir","__proto__":{"clientSecret":"s"}}'),
    ],
    ['toString', { ...base, toString: () => 'x' }],
    ['clientID', { ...base, clientID: 'typo' }],
  ])(
    'refuses the own member %s as an unknown attribute, listing the valid names',
    (name, input) => {
      const error = configurationError(() => new ClientConfig(input as never))
      expect(error.invalidAttribute).toBe(name)
      expect(error.message).toContain('unknown attribute')
      expect(error.message).not.toContain('is required')
      expect(error.message).toContain('valid attributes: baseUrl, clientId, redirectUri')
      expect(error.validValues).toContain('allowInsecureLocalhost')
    },
  )

  it('never reads an inherited member as configuration', () => {
    const input = Object.create({ clientSecret: 'inherited-secret', clientId: 'inherited' })
    Object.assign(input, base)
    const config = new ClientConfig(input)
    expect(config.clientSecret).toBeUndefined()
    expect(config.clientId).toBeUndefined()
  })

  it('is not configured by a polluted Object.prototype', () => {
    const prototype = Object.prototype as Record<string, unknown>
    prototype.tokenEndpoint = 'https://evil.example/token'
    try {
      expect(new ClientConfig({ ...base }).tokenEndpoint).toBeUndefined()
    } finally {
      delete prototype.tokenEndpoint
    }
  })

  it('reads a ClientConfig of another installed copy through its accessors (its secret included)', () => {
    // What another copy's ClientConfig looks like here: a branded class instance, secrets
    // behind accessors (two-copies.node.test.ts loads a real second copy).
    class ForeignConfig {
      readonly baseUrl = base.baseUrl
      readonly clientId = 'app'
      get clientSecret() {
        return 'foreign-secret'
      }
      get [Symbol.for('fhir-auth.client-config')]() {
        return true
      }
    }
    const config = ClientConfig.from(new ForeignConfig() as never)
    expect(config.clientId).toBe('app')
    expect(config.clientSecret).toBe('foreign-secret')
  })

  it('refuses a configuration whose members throw when read, without their message', () => {
    const hostile = Object.defineProperty({ ...base }, 'clientId', {
      enumerable: true,
      get: () => {
        throw new Error('secret-from-a-getter')
      },
    })
    const error = configurationError(() => new ClientConfig(hostile))
    expect(error.invalidAttribute).toBe('config')
    expect(error.message).not.toContain('secret-from-a-getter')
  })
})
