/**
 * UDAP metadata names no OpenID issuer, so ID tokens in UDAP flows are checked against the
 * configured `issuer`, else the base URL. When that is not the authorization server's OpenID
 * issuer, the `IdTokenError` (`jwks`: no openid-configuration there; `iss`: another issuer's)
 * says what to do: configure `issuer` (docs/guides/udap.md, "OpenID Connect in UDAP flows").
 * Against the UDAP sandbox, with a real ID token from a B2C launch.
 */
import { Client, IdTokenError, memoryStore, silentLogger } from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type CodeClient, callbackOf, registeredCodeClient } from './support/code-flow-context.js'
import { trustInputsOf } from './support/udap-test-context.js'

let sandbox: UdapSandbox
let app: CodeClient
let idToken: string

const advice =
  "UDAP metadata names no OpenID issuer: ID tokens are checked against the configured issuer, else baseUrl. Configure `issuer` with the authorization server's OpenID issuer (the `iss` of its ID tokens)"

beforeAll(async () => {
  sandbox = await startUdapSandbox({ grantTypes: ['authorization_code', 'refresh_token'] })
  app = await registeredCodeClient(sandbox, {
    flow: 'b2c',
    keyType: 'p256',
    scopes: ['openid', 'fhirUser', 'user/*.rs'],
    trust: trustInputsOf(sandbox.trust),
    name: 'issuer-advice-app',
  })
  const store = memoryStore()
  const begun = await app.client.beginAuthorization({ store })
  const session = await app.client.completeAuthorization(await callbackOf(sandbox, begun), {
    store,
  })
  idToken = session.tokens.idToken as string
})
afterAll(() => sandbox.close())

/** The same app in another process, with `issuer` configured as given. */
function appWithIssuer(issuer: string): Client {
  return new Client(app.client.config.with({ clientId: app.registration.client_id, issuer }), {
    protocol: 'udap',
    flow: 'b2c',
    logger: silentLogger,
  })
}

it('an issuer without an openid-configuration: IdTokenError jwks that says to configure issuer', async () => {
  const client = appWithIssuer(`${sandbox.publicOrigin}/not-the-openid-issuer`)
  const error = await failureOf(client.validateIdToken(idToken), IdTokenError)
  expect(error.reason).toBe('jwks')
  expect(error.message).toBe(
    `the OpenID configuration of ${sandbox.publicOrigin}/not-the-openid-issuer could not be read. ${advice}`,
  )
})

it('the ID token of another issuer: IdTokenError iss that says to configure issuer', async () => {
  // The sandbox's own openid-configuration, but the client expects the issuer with a `/` more.
  const client = appWithIssuer(`${sandbox.fhirBaseUrl}/`)
  const error = await failureOf(client.validateIdToken(idToken), IdTokenError)
  expect(error.reason).toBe('iss')
  expect(error.message.endsWith(advice)).toBe(true)
})

it('the configured issuer (the base URL here) validates as before, with no advice needed', async () => {
  const claims = await appWithIssuer(sandbox.fhirBaseUrl).validateIdToken(idToken)
  expect(claims.iss).toBe(sandbox.fhirBaseUrl)
})
