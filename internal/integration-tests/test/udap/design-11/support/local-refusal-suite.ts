/**
 * One matrix per group of signing operations: every bad chain of {@link badChainCases} against
 * every operation, on a real sandbox that counts what it receives.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type BadChainKind, badChainCases, buildBadChains, type Identity } from './bad-chains.js'
import type { SigningOperation, Trust } from './operations.js'
import { expectChainRefusal, failureOf } from './refusal.js'
import {
  clientFor,
  signedRequestCount,
  startFrozenSandbox,
  trustOf,
  type UdapSandbox,
} from './sandbox.js'

export function describeLocalRefusals(operations: readonly SigningOperation[]): void {
  let sandbox: UdapSandbox
  let trust: Trust
  let chains: Readonly<Record<BadChainKind, Identity>>

  beforeAll(async () => {
    sandbox = await startFrozenSandbox()
    trust = trustOf(sandbox)
    chains = await buildBadChains()
  }, 120_000)
  afterAll(() => sandbox?.close())
  beforeEach(() => sandbox.clearRequests())

  const clientOf = (operation: SigningOperation, identity: Identity) =>
    clientFor(sandbox, identity, operation.registered ? { clientId: 'design-11-client' } : {})
  const attempt = (operation: SigningOperation, identity: Identity) => async () =>
    operation.run(clientOf(operation, identity), trust)

  describe.each(operations)('$name', (operation) => {
    it.each(badChainCases)(
      '$kind: CertificateChainError $reason, no signed request sent',
      async ({ kind, reason }) => {
        const identity = chains[kind]
        const error = await failureOf(attempt(operation, identity))
        expectChainRefusal(error, reason, identity.privateKey)
        expect(signedRequestCount(sandbox)).toBe(0)
      },
    )

    it.each(badChainCases)(
      '$kind, after the server metadata was validated: nothing at all is sent',
      async ({ kind, reason }) => {
        const identity = chains[kind]
        const client = clientOf(operation, identity)
        await client.serverMetadata(trust)
        sandbox.clearRequests()
        const error = await failureOf(() => operation.run(client, trust))
        expectChainRefusal(error, reason, identity.privateKey)
        expect(sandbox.requests.map((request) => `${request.method} ${request.path}`)).toEqual([])
      },
    )

    it('a fresh client with a bad chain sends nothing, not even discovery', async () => {
      const identity = chains['an expired leaf']
      const error = await failureOf(attempt(operation, identity))
      expectChainRefusal(error, 'expired', identity.privateKey)
      expect(sandbox.requests.map((request) => `${request.method} ${request.path}`)).toEqual([])
    })
  })
}
