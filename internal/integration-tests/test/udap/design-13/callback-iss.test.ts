/**
 * UDAP callbacks and RFC 9207: a server whose metadata (signed, else unsigned) advertises
 * `authorization_response_iss_parameter_supported: true` always sends `iss`, so a callback
 * without it is an `AuthorizationError` `iss_mismatch` (as for SMART) and nothing reaches the
 * token endpoint — also when the launch is completed by another client that brings the trust
 * inputs. Against the UDAP sandbox, which sends `iss` and advertises the flag on request.
 */
import { AuthorizationError, memoryStore } from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  callbackFor,
  registeredClient,
  rejectionOf,
  trustOf,
  udapClient,
} from '../design-10/support/context.js'

const flag = 'authorization_response_iss_parameter_supported'
const sandboxes: Partial<Record<'signed' | 'unsigned', UdapSandbox>> = {}

beforeAll(async () => {
  for (const where of ['signed', 'unsigned'] as const) {
    sandboxes[where] = await startUdapSandbox({
      grantTypes: ['authorization_code', 'refresh_token'],
      authorizationResponseIss: where,
    })
  }
}, 60_000)
afterAll(async () => {
  await Promise.all(Object.values(sandboxes).map((sandbox) => sandbox?.close()))
})

function sandboxOf(where: 'signed' | 'unsigned'): UdapSandbox {
  const sandbox = sandboxes[where]
  if (sandbox === undefined) throw new Error('the sandboxes start in beforeAll')
  return sandbox
}

/** The callback URL without its `iss`: what a mix-up attacker (or a broken proxy) delivers. */
function withoutIss(callback: string): string {
  const url = new URL(callback)
  url.searchParams.delete('iss')
  return url.href
}

describe.each(['signed', 'unsigned'] as const)(
  'UDAP metadata advertising %s authorization_response_iss_parameter_supported',
  (where) => {
    it('advertises the flag where it says, and the callback carries iss = the base URL', async () => {
      const sandbox = sandboxOf(where)
      const { client } = await registeredClient(sandbox)
      const metadata = await client.serverMetadata(trustOf(sandbox.trust))
      expect('signedClaims' in metadata && metadata.signedClaims[flag]).toBe(
        where === 'signed' ? true : undefined,
      )
      expect(metadata.raw[flag]).toBe(where === 'unsigned' ? true : undefined)
      const store = memoryStore()
      const begun = await client.beginAuthorization({ ...trustOf(sandbox.trust), store })
      const callback = await callbackFor(sandbox, begun)
      expect(new URL(callback).searchParams.get('iss')).toBe(sandbox.fhirBaseUrl)
      const session = await client.completeAuthorization(callback, { store })
      expect(session.tokens.accessToken.length).toBeGreaterThan(0)
    })

    it('a callback without iss is iss_mismatch, and nothing is sent to the token endpoint', async () => {
      const sandbox = sandboxOf(where)
      const { client } = await registeredClient(sandbox)
      const store = memoryStore()
      const begun = await client.beginAuthorization({ ...trustOf(sandbox.trust), store })
      const callback = withoutIss(await callbackFor(sandbox, begun))
      const tokenRequests = sandbox.requestCounts.token
      const error = await rejectionOf(client.completeAuthorization(callback, { store }))
      expect(error).toBeInstanceOf(AuthorizationError)
      expect(error).toMatchObject({ error: 'iss_mismatch', state: begun.state })
      expect((error as Error).message).toMatch(/has no iss although .* always sends one/)
      expect(sandbox.requestCounts.token).toBe(tokenRequests)
    })

    it('completed by another client with the trust inputs: a callback without iss is refused too', async () => {
      const sandbox = sandboxOf(where)
      const { client, clientId, identity } = await registeredClient(sandbox)
      const begun = await client.beginAuthorization(trustOf(sandbox.trust))
      const callback = withoutIss(await callbackFor(sandbox, begun))
      // Another process: a client that has validated nothing yet, given the launch's values.
      const finisher = udapClient(sandbox, identity, {}, { clientId })
      const tokenRequests = sandbox.requestCounts.token
      const error = await rejectionOf(
        finisher.completeAuthorization(callback, {
          state: begun.state,
          codeVerifier: String(begun.codeVerifier),
          nonce: begun.nonce,
          ...trustOf(sandbox.trust),
        }),
      )
      expect(error).toBeInstanceOf(AuthorizationError)
      expect(error).toMatchObject({ error: 'iss_mismatch' })
      expect(sandbox.requestCounts.token).toBe(tokenRequests)
    })
  },
)
