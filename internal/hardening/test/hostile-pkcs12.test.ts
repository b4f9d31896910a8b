/**
 * Hostile PKCS#12 files: the test PKI's modern (PBES2/AES) and legacy (3DES) files damaged at
 * random, opened with the right or a wrong password, through both backends' `loadPkcs12` and
 * through `loadPkcs12` of `@fhir-auth/client`. Every case ends in the contents or a
 * `CryptoError`, and neither the password nor the private key reaches the error.
 */
import { loadPkcs12 } from '@fhir-auth/client'
import type { CryptoBackend } from '@fhir-auth/core'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { testPki } from '@fhir-auth/test-pki'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import {
  countHandWrittenCases,
  expectTypedOutcome,
  mutatedBytes,
  named,
  OutcomeTally,
  printCaseLedger,
  propertySettings,
  wrongTypeInputs,
} from '../src/index.js'

/** PKCS#12 key derivation is slow by design (and node-forge is pure JavaScript): a wide margin. */
const marginMs = 15_000
const leaf = testPki.leaves['ec-p256-client']
const rsaLeaf = testPki.leaves['rsa-client']
const files = [
  named('ec modern', { name: 'ec modern', bytes: leaf.pkcs12, key: leaf.privateKeyPkcs8Pem }),
  named('ec legacy', { name: 'ec legacy', bytes: leaf.pkcs12Legacy, key: leaf.privateKeyPkcs8Pem }),
  named('rsa modern', {
    name: 'rsa modern',
    bytes: rsaLeaf.pkcs12,
    key: rsaLeaf.privateKeyPkcs8Pem,
  }),
]
const backends = [
  named('node', { name: 'node', crypto: createNodeCryptoBackend() as CryptoBackend }),
  named('webcrypto', { name: 'webcrypto', crypto: createWebCryptoBackend() }),
]

afterAll(() => printCaseLedger('hostile-pkcs12'))

/** The right password most of the time, so damage past the MAC check is reached too. */
const password = fc.oneof(
  { weight: 3, arbitrary: fc.constant(leaf.pkcs12Password) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 8, maxLength: 24 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', 'udap-tes', 'udap-test ', 'UDAP-TEST', '\u0000udap-test'),
  },
)

describe.each(backends)('the $name backend over damaged PKCS#12 files', (backend) => {
  it('loadPkcs12: the key and chain, or CryptoError without the password or the key', async () => {
    const tally = new OutcomeTally()
    const input = fc.constantFrom(...files).chain((file) =>
      fc.record({
        file: fc.constant(file),
        bytes: fc.oneof(
          { weight: 6, arbitrary: mutatedBytes(file.bytes) },
          { weight: 1, arbitrary: fc.constant(file.bytes) },
        ),
        password,
      }),
    )
    await fc.assert(
      fc.asyncProperty(input, async ({ file, bytes, password: candidate }) => {
        const outcome = tally.record(
          await expectTypedOutcome(() => backend.crypto.loadPkcs12(bytes, candidate), {
            maxElapsedMs: marginMs,
            secrets: { password: candidate },
            privateKeyPems: [file.key],
          }),
        )
        if (outcome.kind === 'typed-error') expect(outcome.error.name).toBe('CryptoError')
        else {
          const contents = outcome.value as Awaited<ReturnType<CryptoBackend['loadPkcs12']>>
          expect(contents.certificateChain.length).toBeGreaterThan(0)
        }
      }),
      propertySettings(`${backend.name} loadPkcs12 damaged`, backend.name === 'node' ? 100 : 150),
    )
    expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
    expect(tally.successes, tally.summary()).toBeGreaterThan(0)
    console.info(`[hardening] ${backend.name} loadPkcs12 damaged: ${tally.summary()}`)
  })

  it('loadPkcs12: values of the wrong type for the file or the password give a typed error', async () => {
    countHandWrittenCases(`${backend.name} loadPkcs12 wrong types`, 2 * wrongTypeInputs.length)
    const tally = new OutcomeTally()
    for (const value of wrongTypeInputs) {
      for (const [data, secret] of [
        [value, leaf.pkcs12Password],
        [leaf.pkcs12, value],
      ] as const) {
        const outcome = tally.record(
          await expectTypedOutcome(
            () => backend.crypto.loadPkcs12(data as Uint8Array, secret as string),
            { maxElapsedMs: marginMs, privateKeyPems: [leaf.privateKeyPkcs8Pem] },
          ),
        )
        if (outcome.kind === 'typed-error') {
          expect(['CryptoError', 'ConfigurationError']).toContain(outcome.error.name)
        }
      }
    }
    expect(tally.typedErrors, tally.summary()).toBe(2 * wrongTypeInputs.length)
  })
})

describe('loadPkcs12 of @fhir-auth/client', () => {
  it('opens the test file with the default backend and refuses a wrong password without quoting it', async () => {
    countHandWrittenCases('client loadPkcs12', 2)
    const wrongPassword = 'not-the-password-9f3c'
    const opened = await expectTypedOutcome(() => loadPkcs12(leaf.pkcs12, leaf.pkcs12Password), {
      maxElapsedMs: marginMs,
    })
    expect(opened.kind).toBe('success')
    const refused = await expectTypedOutcome(() => loadPkcs12(leaf.pkcs12, wrongPassword), {
      maxElapsedMs: marginMs,
      secrets: { password: wrongPassword },
      privateKeyPems: [leaf.privateKeyPkcs8Pem],
    })
    expect(refused.kind === 'typed-error' && refused.error.name).toBe('CryptoError')
  })
})
