/**
 * DESIGN §11 (second paragraph), the edges of "before signing with its own certificateChain":
 * the client's clock (`now`) is the one validity is judged at; a registration that was fine
 * becomes a refused modification once the certificate has expired; PEM input and an HSM-style
 * `JwsSigner` carrying the chain are checked the same way; a leaf and CA swapped is refused.
 */
import { createPrivateKey, sign } from 'node:crypto'
import type { JwsSigner } from '@fhir-auth/core'
import { encodePem } from '@fhir-auth/core/backend'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  type BadChainKind,
  buildBadChains,
  buildUntrustedGoodChain,
  clientUri,
  clock,
  type Identity,
} from './support/bad-chains.js'
import { b2b, registration, type Trust } from './support/operations.js'
import { expectChainRefusal, failureOf } from './support/refusal.js'
import {
  clientFor,
  startFrozenSandbox,
  trustedIdentity,
  trustOf,
  type UdapSandbox,
} from './support/sandbox.js'

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

const hours = (count: number) => new Date(clock.getTime() + count * 3_600_000)
const days = (count: number) => new Date(clock.getTime() + count * 86_400_000)
const sent = () => sandbox.requests.map((request) => `${request.method} ${request.path}`)

describe("DESIGN §11: validity is judged at the client's clock (ClientOptions.now)", () => {
  it('a chain valid from T−30 d is not-yet-valid for a client whose clock reads T−60 d', async () => {
    const identity = await buildUntrustedGoodChain()
    const client = clientFor(sandbox, identity, {}, () => days(-60))
    const error = await failureOf(() =>
      client.registerClient(registration, { clientUri, ...trust }),
    )
    expectChainRefusal(error, 'not-yet-valid', identity.privateKey)
    expect(sent()).toEqual([])
  })

  it('the same chain is expired for a client whose clock reads T+301 d', async () => {
    const identity = await buildUntrustedGoodChain()
    const client = clientFor(sandbox, identity, {}, () => days(301))
    const error = await failureOf(() => client.requestBackendToken({ clientUri, b2b, ...trust }))
    expectChainRefusal(error, 'expired', identity.privateKey)
    expect(sent()).toEqual([])
  })
})

describe('DESIGN §11: a registration whose certificate has since expired', () => {
  it('registers at T, then modification, cancellation and tokens at T+2 h are refused locally', async () => {
    const { identity } = await trustedIdentity(sandbox, {
      notBefore: hours(-1),
      notAfter: hours(1),
    })
    const registered = (await clientFor(sandbox, identity).registerClient(registration, {
      clientUri,
      ...trust,
    })) as { client_id: string }
    expect(sandbox.requestCounts.registration).toBe(1)
    sandbox.clearRequests()

    const later = clientFor(sandbox, identity, { clientId: registered.client_id }, () => hours(2))
    const attempts = [
      () => later.registerClient(registration, { clientUri, ...trust }),
      () =>
        later.cancelRegistration(
          {
            client_name: 'design-11 client',
            contacts: ['mailto:ops@example.test'],
            scope: 'system/*.rs',
          },
          { clientUri, ...trust },
        ),
      () => later.requestBackendToken({ b2b, ...trust }),
    ]
    for (const attempt of attempts) {
      expectChainRefusal(await failureOf(attempt), 'expired', identity.privateKey)
    }
    expect(sent()).toEqual([])
    expect(sandbox.registrations.get(registered.client_id)?.metadata).toBeDefined()
  })
})

describe('DESIGN §2/§11: every input form of the chain is checked', () => {
  it('PEM strings instead of DER bytes: pathLenConstraint 0 exceeded is still path-length', async () => {
    const identity = chains['pathLenConstraint 0 exceeded']
    const pem = {
      ...identity,
      certificateChain: identity.certificateChain.map((der) => encodePem(der, 'CERTIFICATE')),
    }
    const error = await failureOf(() =>
      clientFor(sandbox, pem as unknown as Identity).registerClient(registration, {
        clientUri,
        ...trust,
      }),
    )
    expectChainRefusal(error, 'path-length', identity.privateKey)
    expect(sent()).toEqual([])
  })

  it('a JwsSigner (HSM/KMS) as privateKey with a chain that breaks the name constraints: never asked to sign', async () => {
    const identity = chains['a URI SAN outside the name constraints']
    const key = createPrivateKey(identity.privateKey)
    let signatures = 0
    const signer: JwsSigner = {
      alg: 'ES256',
      certificateChain: identity.certificateChain,
      async sign(input) {
        signatures += 1
        return new Uint8Array(sign('sha256', input, { key, dsaEncoding: 'ieee-p1363' }))
      },
    }
    const client = clientFor(sandbox, { ...identity, privateKey: signer } as unknown as Identity)
    const error = await failureOf(() => client.requestBackendToken({ clientUri, b2b, ...trust }))
    expectChainRefusal(error, 'name-constraints', identity.privateKey)
    expect(signatures).toBe(0)
    expect(sent()).toEqual([])
  })

  it('a JwsSigner that carries its chain needs no certificateChain in the configuration: that chain is checked and sent', async () => {
    const signerOf = (identity: Identity): JwsSigner => {
      const key = createPrivateKey(identity.privateKey as string)
      return {
        alg: 'ES256',
        certificateChain: identity.certificateChain,
        sign: async (input) =>
          new Uint8Array(sign('sha256', input, { key, dsaEncoding: 'ieee-p1363' })),
      }
    }
    const bad = chains['a URI SAN outside the name constraints']
    const refused = await failureOf(() =>
      clientFor(sandbox, {
        privateKey: signerOf(bad),
      } as unknown as Identity).requestBackendToken({ clientUri, b2b, ...trust }),
    )
    expectChainRefusal(refused, 'name-constraints', bad.privateKey)
    expect(sent()).toEqual([])
    const { identity } = await trustedIdentity(sandbox)
    const client = clientFor(sandbox, { privateKey: signerOf(identity) } as unknown as Identity)
    const token = await client.requestBackendToken({ clientUri, b2b, ...trust })
    expect(typeof token.access_token).toBe('string')
  })
})

describe('DESIGN §11: order', () => {
  it('the CA first and the leaf second: refused with a typed error, nothing sent', async () => {
    const good = await buildUntrustedGoodChain()
    const [leaf, ca] = good.certificateChain as [Uint8Array, Uint8Array]
    const swapped = { privateKey: good.privateKey, certificateChain: [ca, leaf] }
    const error = await failureOf(() =>
      clientFor(sandbox, swapped).registerClient(registration, { clientUri, ...trust }),
    )
    expect(error).toMatchObject({
      name: expect.stringMatching(/^(CertificateChainError|CryptoError)$/),
    })
    expect(sent()).toEqual([])
  })
})
