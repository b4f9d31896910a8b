/**
 * DESIGN §11 (second paragraph), the edges of "before signing with its own certificateChain":
 * the client's clock (`now`) is the one validity is judged at; a registration that was fine
 * becomes a refused modification once the certificate has expired; PEM input and an HSM-style
 * `JwsSigner` carrying the chain are checked the same way; a leaf and CA swapped is refused.
 */
import { createPrivateKey, sign } from 'node:crypto'
import type { JwsSigner } from '@fhir-auth/core'
import { encodePem } from '@fhir-auth/core/backend'
import { describe, expect, it } from 'vitest'
import { buildUntrustedGoodChain, clientUri, clock, type Identity } from './support/bad-chains.js'
import { b2b, registration } from './support/operations.js'
import { expectChainRefusal, failureOf } from './support/refusal.js'
import { clientFor, trustedIdentity, useFrozenSandbox } from './support/sandbox.js'

const suite = useFrozenSandbox({ badChains: true })

const hours = (count: number) => new Date(clock.getTime() + count * 3_600_000)
const days = (count: number) => new Date(clock.getTime() + count * 86_400_000)
const sent = () => suite.sandbox.requests.map((request) => `${request.method} ${request.path}`)

describe("DESIGN §11: validity is judged at the client's clock (ClientOptions.now)", () => {
  it('a chain valid from T−30 d is not-yet-valid for a client whose clock reads T−60 d', async () => {
    const identity = await buildUntrustedGoodChain()
    const client = clientFor(suite.sandbox, identity, {}, () => days(-60))
    const error = await failureOf(() =>
      client.registerClient(registration, { clientUri, ...suite.trust }),
    )
    expectChainRefusal(error, 'not-yet-valid', identity.privateKey)
    expect(sent()).toEqual([])
  })

  it('the same chain is expired for a client whose clock reads T+301 d', async () => {
    const identity = await buildUntrustedGoodChain()
    const client = clientFor(suite.sandbox, identity, {}, () => days(301))
    const error = await failureOf(() =>
      client.requestBackendToken({ clientUri, b2b, ...suite.trust }),
    )
    expectChainRefusal(error, 'expired', identity.privateKey)
    expect(sent()).toEqual([])
  })
})

describe('DESIGN §11: a registration whose certificate has since expired', () => {
  it('registers at T, then modification, cancellation and tokens at T+2 h are refused locally', async () => {
    const { identity } = await trustedIdentity(suite.sandbox, {
      notBefore: hours(-1),
      notAfter: hours(1),
    })
    const registered = (await clientFor(suite.sandbox, identity).registerClient(registration, {
      clientUri,
      ...suite.trust,
    })) as { client_id: string }
    expect(suite.sandbox.requestCounts.registration).toBe(1)
    suite.sandbox.clearRequests()

    const later = clientFor(suite.sandbox, identity, { clientId: registered.client_id }, () =>
      hours(2),
    )
    const attempts = [
      () => later.registerClient(registration, { clientUri, ...suite.trust }),
      () =>
        later.cancelRegistration(
          {
            client_name: 'design-11 client',
            contacts: ['mailto:ops@example.test'],
            scope: 'system/*.rs',
          },
          { clientUri, ...suite.trust },
        ),
      () => later.requestBackendToken({ b2b, ...suite.trust }),
    ]
    for (const attempt of attempts) {
      expectChainRefusal(await failureOf(attempt), 'expired', identity.privateKey)
    }
    expect(sent()).toEqual([])
    expect(suite.sandbox.registrations.get(registered.client_id)?.metadata).toBeDefined()
  })
})

describe('DESIGN §2/§11: every input form of the chain is checked', () => {
  it('PEM strings instead of DER bytes: pathLenConstraint 0 exceeded is still path-length', async () => {
    const identity = suite.chains['pathLenConstraint 0 exceeded']
    const pem = {
      ...identity,
      certificateChain: identity.certificateChain.map((der) => encodePem(der, 'CERTIFICATE')),
    }
    const error = await failureOf(() =>
      clientFor(suite.sandbox, pem as unknown as Identity).registerClient(registration, {
        clientUri,
        ...suite.trust,
      }),
    )
    expectChainRefusal(error, 'path-length', identity.privateKey)
    expect(sent()).toEqual([])
  })

  it('a JwsSigner (HSM/KMS) as privateKey with a chain that breaks the name constraints: never asked to sign', async () => {
    const identity = suite.chains['a URI SAN outside the name constraints']
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
    const client = clientFor(suite.sandbox, {
      ...identity,
      privateKey: signer,
    } as unknown as Identity)
    const error = await failureOf(() =>
      client.requestBackendToken({ clientUri, b2b, ...suite.trust }),
    )
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
    const bad = suite.chains['a URI SAN outside the name constraints']
    const refused = await failureOf(() =>
      clientFor(suite.sandbox, {
        privateKey: signerOf(bad),
      } as unknown as Identity).requestBackendToken({ clientUri, b2b, ...suite.trust }),
    )
    expectChainRefusal(refused, 'name-constraints', bad.privateKey)
    expect(sent()).toEqual([])
    const { identity } = await trustedIdentity(suite.sandbox)
    const client = clientFor(suite.sandbox, {
      privateKey: signerOf(identity),
    } as unknown as Identity)
    const token = await client.requestBackendToken({ clientUri, b2b, ...suite.trust })
    expect(typeof token.access_token).toBe('string')
  })
})

describe('DESIGN §11: order', () => {
  it('the CA first and the leaf second: refused with a typed error, nothing sent', async () => {
    const good = await buildUntrustedGoodChain()
    const [leaf, ca] = good.certificateChain as [Uint8Array, Uint8Array]
    const swapped = { privateKey: good.privateKey, certificateChain: [ca, leaf] }
    const error = await failureOf(() =>
      clientFor(suite.sandbox, swapped).registerClient(registration, { clientUri, ...suite.trust }),
    )
    expect(error).toMatchObject({
      name: expect.stringMatching(/^(CertificateChainError|CryptoError)$/),
    })
    expect(sent()).toEqual([])
  })
})
