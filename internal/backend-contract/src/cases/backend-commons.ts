import {
  base64Decode,
  CertificateChainError,
  ConfigurationError,
  type JwsSigner,
} from '@fhir-auth/core'
import { cryptoBackendSpecificationVersion } from '@fhir-auth/core/backend'
import { testPki } from '@fhir-auth/test-pki'
import { describe, expect, it } from 'vitest'
import { pkcs12ChainOrder } from '../fixtures/pkcs12-chain-order.js'
import type { ContractContext } from '../support/contract-context.js'
import { cryptoRejection, rejection } from '../support/errors.js'

const leaf = testPki.leaves['rsa-client']
const anchor = testPki.authorities['rsa-root']

/** A signer that can sign nothing: adoption rules are judged on `alg`, `kid` and the chain. */
function readySigner(alg: string, extras: Partial<JwsSigner> = {}): JwsSigner {
  return {
    alg: alg as JwsSigner['alg'],
    sign: () => Promise.reject(new Error('not used by these cases')),
    ...extras,
  }
}

/**
 * What every backend shares through `@fhir-auth/core/backend`, pinned so that two backends can
 * no longer answer the same input differently: the contract version, adoption of a ready
 * `JwsSigner`, the checks on `verifyCertificateChain`'s parameters, and the PKCS#12 chain order.
 */
export function describeBackendCommons(context: ContractContext): void {
  describe('what every backend shares', () => {
    it(`states specificationVersion ${cryptoBackendSpecificationVersion}`, () => {
      expect(context.backend().specificationVersion).toBe(cryptoBackendSpecificationVersion)
    })

    describe('a ready JwsSigner', () => {
      it("keeps the signer's own kid and chain, and fills in the options' when it has none", async () => {
        const backend = context.backend()
        const own = readySigner('ES256', {
          kid: 'own-kid',
          certificateChain: [leaf.certificateDer],
        })
        const kept = await backend.importSigner(own, {
          profile: 'udap',
          kid: 'option-kid',
          certificateChain: [anchor.der],
        })
        expect(kept.kid).toBe('own-kid')
        expect(kept.certificateChain).toEqual([leaf.certificateDer])
        const filled = await backend.importSigner(readySigner('ES256'), {
          profile: 'udap',
          kid: 'option-kid',
          certificateChain: [anchor.der],
        })
        expect(filled.alg).toBe('ES256')
        expect(filled.kid).toBe('option-kid')
        expect(filled.certificateChain).toEqual([anchor.der])
      })

      it('refuses an alg that is not a signing algorithm with CryptoError unsupported-key', async () => {
        await cryptoRejection(
          () => context.backend().importSigner(readySigner('HS256'), { profile: 'udap' }),
          'unsupported-key',
        )
      })

      it('refuses a key family the profile does not allow (SMART, ES256) with unsupported-key', async () => {
        await cryptoRejection(
          () => context.backend().importSigner(readySigner('ES256'), { profile: 'smart' }),
          'unsupported-key',
        )
      })

      it('refuses RS256 under SMART with CryptoError algorithm-mismatch', async () => {
        await cryptoRejection(
          () => context.backend().importSigner(readySigner('RS256'), { profile: 'smart' }),
          'algorithm-mismatch',
        )
      })

      it('refuses an alg the server does not advertise with CryptoError no-common-algorithm', async () => {
        await cryptoRejection(
          () =>
            context.backend().importSigner(readySigner('ES384'), {
              profile: 'udap',
              advertisedAlgorithms: ['RS256', 'ES256'],
            }),
          'no-common-algorithm',
        )
      })
    })

    describe('verifyCertificateChain parameters', () => {
      const valid = {
        chain: leaf.chainDer,
        trustAnchors: leaf.trustAnchorsDer,
        crls: leaf.crlsDer,
        at: testPki.referenceTime,
      }
      for (const [attribute, params] of [
        ['params', undefined],
        ['params', 'chain'],
        ['chain', { ...valid, chain: 'not an array' }],
        ['trustAnchors', { ...valid, trustAnchors: undefined }],
        ['crls', { ...valid, crls: {} }],
        ['at', { ...valid, at: new Date(Number.NaN) }],
        ['at', { ...valid, at: '2030-01-01' }],
      ] as const) {
        it(`refuses a wrong ${attribute} (${kindOf(params, attribute)}) with ConfigurationError on ${attribute}`, async () => {
          const error = await rejection(() =>
            context.backend().verifyCertificateChain(params as never),
          )
          // A caller's wrong type is a configuration mistake, never a verdict on a chain.
          expect(error).toBeInstanceOf(ConfigurationError)
          expect(error).not.toBeInstanceOf(CertificateChainError)
          expect((error as ConfigurationError).invalidAttribute).toBe(attribute)
        })
      }
    })

    describe('loadPkcs12 chain order', () => {
      it('returns leaf, intermediate, root whatever the bag order, without certificates off that path', async () => {
        const contents = await context
          .backend()
          .loadPkcs12(bytes(pkcs12ChainOrder.pkcs12Base64), pkcs12ChainOrder.password)
        const chain = contents.certificateChain.map((der) => [...der])
        expect(chain).toEqual(pkcs12ChainOrder.expectedChainBase64.map((der) => [...bytes(der)]))
        for (const offPath of pkcs12ChainOrder.offPathBase64) {
          expect(chain).not.toContainEqual([...bytes(offPath)])
        }
      })
    })
  })
}

function kindOf(params: unknown, attribute: string): string {
  if (attribute === 'params') return typeof params === 'string' ? 'a string' : 'undefined'
  const value = (params as Record<string, unknown>)[attribute]
  if (value instanceof Date) return 'an invalid Date'
  return value === undefined ? 'undefined' : typeof value
}

function bytes(base64: string): Uint8Array {
  const decoded = base64Decode(base64)
  if (decoded === undefined) throw new Error('the fixture holds invalid base64')
  return decoded
}
