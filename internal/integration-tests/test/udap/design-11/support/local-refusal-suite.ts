/**
 * One matrix per group of signing operations: every bad chain of {@link badChainCases} against
 * every operation, on a real sandbox that counts what it receives.
 */
import { describe, expect, it } from 'vitest'
import { badChainCases, type Identity } from './bad-chains.js'
import type { SigningOperation } from './operations.js'
import { expectChainRefusal, failureOf } from './refusal.js'
import { clientFor, signedRequestCount, useFrozenSandbox } from './sandbox.js'

export function describeLocalRefusals(operations: readonly SigningOperation[]): void {
  const suite = useFrozenSandbox({ badChains: true })

  const clientOf = (operation: SigningOperation, identity: Identity) =>
    clientFor(suite.sandbox, identity, operation.registered ? { clientId: 'design-11-client' } : {})
  const attempt = (operation: SigningOperation, identity: Identity) => async () =>
    operation.run(clientOf(operation, identity), suite.trust)

  describe.each(operations)('$name', (operation) => {
    it.each(badChainCases)(
      '$kind: CertificateChainError $reason, no signed request sent',
      async ({ kind, reason }) => {
        const identity = suite.chains[kind]
        const error = await failureOf(attempt(operation, identity))
        expectChainRefusal(error, reason, identity.privateKey)
        expect(signedRequestCount(suite.sandbox)).toBe(0)
      },
    )

    it.each(badChainCases)(
      '$kind, after the server metadata was validated: nothing at all is sent',
      async ({ kind, reason }) => {
        const identity = suite.chains[kind]
        const client = clientOf(operation, identity)
        await client.serverMetadata(suite.trust)
        suite.sandbox.clearRequests()
        const error = await failureOf(() => operation.run(client, suite.trust))
        expectChainRefusal(error, reason, identity.privateKey)
        expect(
          suite.sandbox.requests.map((request) => `${request.method} ${request.path}`),
        ).toEqual([])
      },
    )

    it('a fresh client with a bad chain sends nothing, not even discovery', async () => {
      const identity = suite.chains['an expired leaf']
      const error = await failureOf(attempt(operation, identity))
      expectChainRefusal(error, 'expired', identity.privateKey)
      expect(suite.sandbox.requests.map((request) => `${request.method} ${request.path}`)).toEqual(
        [],
      )
    })
  })
}
