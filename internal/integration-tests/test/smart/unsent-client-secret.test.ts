/**
 * A `clientSecret` configured without a client type (issue 25): the spec makes a SMART client
 * public by default, and a public client never sends a secret. The default stays, but the
 * client says so — a `warn` from `new Client`, and the `invalid_client` `TokenError` the server
 * answers with — each naming `clientType: 'confidential_symmetric'` and never the secret.
 * Driven through `Client` against the oidc-provider sandbox, whose `client_secret_basic` client
 * refuses a request that carries only its `client_id`.
 */
import { inspect } from 'node:util'
import { Client, TokenError } from '@fhir-auth/client'
import { createCapturingLogger } from '@fhir-auth/test-utils'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authorizeWithClient, lastRequestTo } from './support/flows.js'
import { appConfig, type SmartFixture, startSmartFixture } from './support/smart-fixture.js'

let fixture: SmartFixture

beforeAll(async () => {
  fixture = await startSmartFixture()
}, 60_000)
afterAll(() => fixture.sandbox.close())

const advice = "clientType: 'confidential_symmetric'"

/** Everything a user could see of an error: message, JSON and `util.inspect`. */
function shownOf(error: Error): string {
  return `${error.message}\n${JSON.stringify(error)}\n${inspect(error, { depth: 5 })}`
}

describe('a clientSecret with the default (public) client type', () => {
  it('new Client warns once, naming the client type to set and never the secret', () => {
    const logger = createCapturingLogger()
    const client = new Client(appConfig(fixture, 'symmetric'), { logger })
    expect(client.clientType).toBe('public')
    const warnings = logger.messages('warn')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(advice)
    expect(logger.renderedLines().join('\n')).not.toContain(fixture.symmetricSecret)
  })

  it('the invalid_client of the code exchange says the secret was not sent, and how to send it', async () => {
    const client = new Client(appConfig(fixture, 'symmetric'), { logger: createCapturingLogger() })
    const { code, codeVerifier } = await authorizeWithClient(client, fixture.sandbox)
    const error = await failureOf(client.requestAccessToken({ code, codeVerifier }), TokenError)
    expect(error.error).toBe('invalid_client')
    expect(error.message).toContain('public')
    expect(error.message).toContain(advice)
    expect(shownOf(error)).not.toContain(fixture.symmetricSecret)
    // The request really was a public client's: client_id in the form, no credentials.
    const request = lastRequestTo(fixture.sandbox, fixture.sandbox.endpoints.token)
    expect(request.headers.authorization).toBeUndefined()
    expect(request.form?.client_id).toBe('symmetric-app')
  })

  it('the invalid_client of a refresh says the same', async () => {
    const client = new Client(appConfig(fixture, 'symmetric'), { logger: createCapturingLogger() })
    const error = await failureOf(client.refreshToken({ refreshToken: 'not-a-token' }), TokenError)
    expect(error.error).toBe('invalid_client')
    expect(error.message).toContain(advice)
  })

  it('with clientType confidential_symmetric: no warning, and the secret authenticates', async () => {
    const logger = createCapturingLogger()
    const client = new Client(appConfig(fixture, 'symmetric'), {
      logger,
      clientType: 'confidential_symmetric',
    })
    expect(logger.messages('warn')).toEqual([])
    const { code, codeVerifier } = await authorizeWithClient(client, fixture.sandbox)
    const tokens = await client.requestAccessToken({ code, codeVerifier })
    expect(tokens.access_token).toEqual(expect.any(String))
  })

  it('a public client without a secret: no warning, and its invalid_client carries no hint', async () => {
    const logger = createCapturingLogger()
    const client = new Client(appConfig(fixture, 'public', { clientId: 'no-such-client' }), {
      logger,
    })
    expect(logger.messages('warn')).toEqual([])
    const error = await failureOf(client.refreshToken({ refreshToken: 'not-a-token' }), TokenError)
    expect(error.error).toBe('invalid_client')
    expect(error.message).not.toContain(advice)
  })
})
