/**
 * Relative endpoint URLs in a SMART configuration (an Inferno SMART 2.2 requirement): resolved
 * against the FHIR base with one warning; one that names another server (`//host/…`) is never
 * used. Through `Client` against the SMART sandbox.
 */
import { DiscoveryError } from '@fhir-auth/client'
import { type CapturingLogger, createCapturingLogger } from '@fhir-auth/test-utils'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { requestsTo } from './support/flows.js'
import { backendClient, type SmartFixture, startSmartFixture } from './support/smart-fixture.js'

let fixture: SmartFixture

beforeAll(async () => {
  fixture = await startSmartFixture()
})
afterEach(() => fixture.sandbox.setDiscoveryOverride(undefined))
afterAll(() => fixture?.sandbox.close())

function withTokenEndpoint(value: string): CapturingLogger {
  fixture.sandbox.setDiscoveryOverride({
    document: (document) => {
      document.token_endpoint = value
      return undefined
    },
  })
  fixture.sandbox.clearRequests()
  return createCapturingLogger()
}

describe('relative endpoint URLs in the SMART configuration', () => {
  it('resolves a relative token_endpoint against the FHIR base, with one warning', async () => {
    const logger = withTokenEndpoint('../token')
    const token = await backendClient(
      fixture,
      'ES384',
      { scopes: ['system/Patient.rs'] },
      { logger },
    ).requestBackendToken()
    expect(token.access_token).toBeTruthy()
    expect(requestsTo(fixture.sandbox, fixture.sandbox.endpoints.token)).toHaveLength(1)
    expect(logger.messages('warn')).toEqual([
      "The SMART configuration's token_endpoint is a relative URL; resolved against the FHIR base",
    ])
  })

  it('never uses one that names another server', async () => {
    const logger = withTokenEndpoint(`//localhost:${new URL(fixture.sandbox.origin).port}/token`)
    const failure = await backendClient(
      fixture,
      'ES384',
      { scopes: ['system/Patient.rs'] },
      { logger },
    )
      .requestBackendToken()
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(DiscoveryError)
    expect((failure as DiscoveryError).message).toContain('token_endpoint is not an absolute URL')
    expect(requestsTo(fixture.sandbox, fixture.sandbox.endpoints.token)).toHaveLength(0)
    expect(logger.messages('warn')).toEqual([
      "The SMART configuration's token_endpoint names another server without a scheme; it is not used",
    ])
  })
})
