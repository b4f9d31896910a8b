import type { ImportSignerOptions, SigningAlgorithm } from '@fhir-auth/core'
import type { TestLeaf } from '@fhir-auth/test-pki'
import { describe, expect, it } from 'vitest'
import type { ContractContext } from '../support/contract-context.js'
import { cryptoRejection, jwtAlgorithmRejection } from '../support/errors.js'
import { keyLeaves } from '../support/leaf-keys.js'

interface SelectionCase {
  readonly title: string
  readonly leaf: TestLeaf
  readonly options: ImportSignerOptions
  readonly expected: SigningAlgorithm
}

const selections: readonly SelectionCase[] = [
  {
    title: 'SMART: RSA → RS384',
    leaf: keyLeaves.rsa,
    options: { profile: 'smart' },
    expected: 'RS384',
  },
  {
    title: 'SMART: P-384 → ES384',
    leaf: keyLeaves.p384,
    options: { profile: 'smart' },
    expected: 'ES384',
  },
  {
    title: 'UDAP: RSA → RS256',
    leaf: keyLeaves.rsa,
    options: { profile: 'udap' },
    expected: 'RS256',
  },
  {
    title: 'UDAP: RSA → RS256 when the server lists both',
    leaf: keyLeaves.rsa,
    options: { profile: 'udap', advertisedAlgorithms: ['ES256', 'RS384', 'RS256'] },
    expected: 'RS256',
  },
  {
    title: 'UDAP: RSA → RS384 when the server only advertises RS384',
    leaf: keyLeaves.rsa,
    options: { profile: 'udap', advertisedAlgorithms: ['RS384'] },
    expected: 'RS384',
  },
  {
    title: 'UDAP: P-256 → ES256',
    leaf: keyLeaves.p256,
    options: { profile: 'udap' },
    expected: 'ES256',
  },
  {
    title: 'UDAP: P-384 → ES384',
    leaf: keyLeaves.p384,
    options: { profile: 'udap' },
    expected: 'ES384',
  },
  {
    title: 'UDAP: an explicit RS384 for an RSA key',
    leaf: keyLeaves.rsa,
    options: { profile: 'udap', algorithm: 'RS384' },
    expected: 'RS384',
  },
]

/** The algorithm selection table of DESIGN.md §4, as every backend must apply it. */
export function describeAlgorithmSelection(context: ContractContext): void {
  describe('algorithm selection', () => {
    for (const { title, leaf, options, expected } of selections) {
      it(title, async () => {
        const signer = await context.backend().importSigner(leaf.privateKeyPkcs8Pem, options)
        expect(signer.alg).toBe(expected)
      })
    }

    it('SMART: refuses a P-256 key with CryptoError unsupported-key', async () => {
      await cryptoRejection(
        () =>
          context.backend().importSigner(keyLeaves.p256.privateKeyPkcs8Pem, { profile: 'smart' }),
        'unsupported-key',
      )
    })

    it('refuses an explicit algorithm the key cannot make with ConfigurationError jwtAlgorithm', async () => {
      const backend = context.backend()
      const rsaAsEs384 = await jwtAlgorithmRejection(() =>
        backend.importSigner(keyLeaves.rsa.privateKeyPkcs8Pem, {
          profile: 'smart',
          algorithm: 'ES384',
        }),
      )
      expect(rsaAsEs384.validValues).toEqual(['RS384'])
      const p384AsEs256 = await jwtAlgorithmRejection(() =>
        backend.importSigner(keyLeaves.p384.privateKeyPkcs8Pem, {
          profile: 'udap',
          algorithm: 'ES256',
        }),
      )
      expect(p384AsEs256.validValues).toEqual(['ES384'])
    })

    it('refuses RS256 under SMART, which allows only RS384 for RSA keys', async () => {
      const error = await jwtAlgorithmRejection(() =>
        context
          .backend()
          .importSigner(keyLeaves.rsa.privateKeyPkcs8Pem, { profile: 'smart', algorithm: 'RS256' }),
      )
      expect(error.validValues).toEqual(['RS384'])
    })

    it('refuses with CryptoError no-common-algorithm when the server advertises none the key can make', async () => {
      const backend = context.backend()
      await cryptoRejection(
        () =>
          backend.importSigner(keyLeaves.p256.privateKeyPkcs8Pem, {
            profile: 'udap',
            advertisedAlgorithms: ['RS256', 'RS384'],
          }),
        'no-common-algorithm',
      )
      await cryptoRejection(
        () =>
          backend.importSigner(keyLeaves.rsa.privateKeyPkcs8Pem, {
            profile: 'udap',
            advertisedAlgorithms: ['ES256'],
          }),
        'no-common-algorithm',
      )
    })
  })
}
