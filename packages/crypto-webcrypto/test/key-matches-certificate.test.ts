import type { CryptoError, JwsSigner } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import { createWebCryptoBackend } from '../src/index.js'
import {
  clientEc256Certificate,
  clientEc256Key,
  clientEc256Sec1,
  clientEc384Certificate,
  clientEc384Key,
  clientRsaCertificate,
  clientRsaKey,
  clientRsaPkcs1,
} from './fixtures/webcrypto-fixtures.js'
import {
  ecP256,
  ecP384,
  importPrivateKey,
  privateJwkOf,
  rejectionOf,
  rsaSha256,
  rsaSha384,
} from './helpers/keys.js'

const backend = createWebCryptoBackend()

describe('keyMatchesCertificate', () => {
  it.each([
    ['PKCS#8 RSA', clientRsaKey, clientRsaCertificate],
    ['PKCS#1 RSA', clientRsaPkcs1, clientRsaCertificate],
    ['SEC1 P-256', clientEc256Sec1, clientEc256Certificate],
    ['PKCS#8 P-384', clientEc384Key, clientEc384Certificate],
  ])('matches a %s PEM key to its certificate only', async (_, pem, certificate) => {
    expect(await backend.keyMatchesCertificate(pem, certificate)).toBe(true)
    const others = [clientRsaCertificate, clientEc256Certificate, clientEc384Certificate].filter(
      (other) => other !== certificate,
    )
    for (const other of others) expect(await backend.keyMatchesCertificate(pem, other)).toBe(false)
  })

  it('matches private JWKs by their public members', async () => {
    const rsa = await privateJwkOf(clientRsaKey, rsaSha256)
    const ec = await privateJwkOf(clientEc384Key, ecP384)
    expect(await backend.keyMatchesCertificate(rsa, clientRsaCertificate)).toBe(true)
    expect(await backend.keyMatchesCertificate(ec, clientEc384Certificate)).toBe(true)
    expect(await backend.keyMatchesCertificate(ec, clientEc256Certificate)).toBe(false)
  })

  it('matches extractable and non-extractable CryptoKeys', async () => {
    const extractable = await importPrivateKey(clientEc256Key, ecP256, true)
    const hidden = await importPrivateKey(clientEc256Key, ecP256, false)
    const hiddenRsa = await importPrivateKey(clientRsaKey, rsaSha384, false)
    expect(await backend.keyMatchesCertificate(extractable, clientEc256Certificate)).toBe(true)
    expect(await backend.keyMatchesCertificate(hidden, clientEc256Certificate)).toBe(true)
    expect(await backend.keyMatchesCertificate(hidden, clientEc384Certificate)).toBe(false)
    expect(await backend.keyMatchesCertificate(hiddenRsa, clientRsaCertificate)).toBe(true)
    expect(await backend.keyMatchesCertificate(hiddenRsa, clientEc256Certificate)).toBe(false)
  })

  it('matches a JwsSigner by signing a probe', async () => {
    const signer = await backend.importSigner(clientEc384Key, { profile: 'smart' })
    expect(await backend.keyMatchesCertificate(signer, clientEc384Certificate)).toBe(true)
    expect(await backend.keyMatchesCertificate(signer, clientRsaCertificate)).toBe(false)
  })

  it('accepts a JwsSigner that returns DER ECDSA signatures', async () => {
    const inner = await backend.importSigner(clientEc256Key, { profile: 'udap' })
    const derSigner: JwsSigner = {
      alg: 'ES256',
      sign: async (input) => joseToDer(await inner.sign(input)),
    }
    expect(await backend.keyMatchesCertificate(derSigner, clientEc256Certificate)).toBe(true)
  })

  it('reports a failing JwsSigner as invalid-signature', async () => {
    const failing: JwsSigner = {
      alg: 'RS256',
      sign: async () => {
        throw new Error('HSM offline')
      },
    }
    const error = await rejectionOf(backend.keyMatchesCertificate(failing, clientRsaCertificate))
    expect((error as CryptoError).reason).toBe('invalid-signature')
  })

  it('refuses a verify-only CryptoKey it cannot probe', async () => {
    const publicKey = await crypto.subtle.importKey(
      'spki',
      new Uint8Array((await backend.parseCertificate(clientEc256Certificate)).publicKeySpki),
      ecP256,
      false,
      ['verify'],
    )
    const error = await rejectionOf(
      backend.keyMatchesCertificate(publicKey, clientEc256Certificate),
    )
    expect((error as CryptoError).reason).toBe('invalid-key')
  })

  it('refuses a certificate that does not parse', async () => {
    const error = await rejectionOf(backend.keyMatchesCertificate(clientRsaKey, 'nope'))
    expect((error as CryptoError).reason).toBe('invalid-certificate')
  })
})

/** Encodes a JOSE r‖s signature as DER, as many HSMs return it. */
function joseToDer(signature: Uint8Array): Uint8Array {
  const half = signature.length / 2
  const integer = (bytes: Uint8Array) => {
    let start = 0
    while (start < bytes.length - 1 && bytes[start] === 0) start++
    const trimmed = bytes.subarray(start)
    const padded = (trimmed[0] ?? 0) & 0x80 ? [0, ...trimmed] : [...trimmed]
    return [0x02, padded.length, ...padded]
  }
  const body = [...integer(signature.subarray(0, half)), ...integer(signature.subarray(half))]
  return new Uint8Array([0x30, body.length, ...body])
}
