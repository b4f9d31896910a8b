/**
 * What the scope checks do in a bundle that left the parser out (a browser app that never
 * imports `parseScopes`): this file imports no module of the parser, so none registered itself.
 * Grants are compared as text (stricter, never wider), and `grantedScopes` says what to import.
 */
import { describe, expect, it } from 'vitest'
import { ConfigurationError } from '../../src/errors/configuration-error.js'
import type { Logger } from '../../src/logging/logger.js'
import { requireWithinGrant, warnIfNarrowed } from '../../src/tokens/scope-grant.js'
import { loadedScopeReader } from '../../src/tokens/scope-reader.js'
import { TokenSet } from '../../src/tokens/token-set.js'

describe('without the scope parser', () => {
  it('is not loaded here', () => {
    expect(loadedScopeReader()).toBeUndefined()
  })

  it('compares a grant as text', () => {
    const events: unknown[] = []
    const logger: Logger = { info() {}, error() {}, warn: (_m, fields) => void events.push(fields) }
    warnIfNarrowed(
      ['patient/Observation.rs', 'openid'],
      ['patient/Observation.read', 'openid'],
      logger,
    )
    expect(events).toEqual([{ event: 'scope.narrowed', missing: ['patient/Observation.rs'] }])
    expect(() => requireWithinGrant(['openid'], ['openid', 'patient/*.rs'])).not.toThrow()
    expect(() => requireWithinGrant(['patient/Observation.rs'], ['patient/*.rs'])).toThrow(
      ConfigurationError,
    )
  })

  it('grantedScopes is a ConfigurationError naming the import', () => {
    const tokens = TokenSet.fromResponse(
      { access_token: 'at', scope: 'openid' },
      { obtainedAt: new Date() },
    )
    expect(() => tokens.grantedScopes).toThrow(ConfigurationError)
    expect(() => tokens.grantedScopes).toThrow(/import it from `@fhir-auth\/client`/)
  })
})

describe('grant checks on any build', () => {
  it('leave a refresh to the server when the grant is not known', () => {
    expect(() => requireWithinGrant(['patient/*.rs'], [])).not.toThrow()
  })

  it('ignore blank scopes asked for', () => {
    const events: unknown[] = []
    const logger: Logger = { info() {}, error() {}, warn: (_m, fields) => void events.push(fields) }
    warnIfNarrowed(['openid', '', ' '], ['openid'], logger)
    expect(events).toEqual([])
  })
})
