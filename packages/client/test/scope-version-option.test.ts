/**
 * `ClientOptions.scopeVersion` is checked by `new Client`: one of the four values, else a
 * `ConfigurationError` on `scopeVersion` listing them. (What each value sends is tested end to
 * end against the SMART sandbox in internal/integration-tests/test/smart/scopes.test.ts.)
 */
import { describe, expect, it } from 'vitest'
import { Client, ConfigurationError } from '../src/index.js'

const config = { baseUrl: 'https://ehr.example.org/fhir', clientId: 'app' }

describe('scopeVersion', () => {
  it.each(['as-configured', 'v1', 'v2', 'auto', undefined])('accepts %s', (scopeVersion) => {
    expect(() => new Client(config, { scopeVersion: scopeVersion as 'auto' })).not.toThrow()
  })

  it.each(['v3', 'V1', '', 2, null])('refuses %j with the valid values', (scopeVersion) => {
    let failure: unknown
    try {
      new Client(config, { scopeVersion: scopeVersion as 'auto' })
    } catch (error) {
      failure = error
    }
    expect(failure).toBeInstanceOf(ConfigurationError)
    expect(failure).toMatchObject({
      invalidAttribute: 'scopeVersion',
      validValues: ['as-configured', 'v1', 'v2', 'auto'],
    })
  })
})
