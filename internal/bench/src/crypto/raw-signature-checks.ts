import { createPublicKey, verify } from 'node:crypto'
import type { VerificationAlgorithm } from '@fhir-auth/core'
import type { RequiredSignature } from './chain-fixture.js'

/** Verifies every required signature once; resolves true when all verify. */
export type RawSignatureChecks = () => Promise<boolean>

const hashes: Readonly<Record<VerificationAlgorithm, string>> = {
  RS256: 'SHA-256',
  RS384: 'SHA-384',
  RS512: 'SHA-512',
  PS256: 'SHA-256',
  PS384: 'SHA-384',
  PS512: 'SHA-512',
  ES256: 'SHA-256',
  ES384: 'SHA-384',
  ES512: 'SHA-512',
}

/**
 * The floor of chain validation on `node:crypto`: just the signature checks, keys created
 * beforehand, no parsing, no path or revocation policy. A backend's ratio to this is what its
 * parsing and policy cost.
 *
 * @throws Error for a PSS signature (the test PKI has none, and the floor would need options).
 */
export function rawNodeSignatureChecks(
  signatures: readonly RequiredSignature[],
): RawSignatureChecks {
  const checks = signatures.map((required) => {
    if (required.algorithm.startsWith('PS')) throw new Error('PSS is not part of the floor')
    const key = createPublicKey({
      key: Buffer.from(required.signer.publicKeySpki),
      format: 'der',
      type: 'spki',
    })
    const hash = hashes[required.algorithm].replace('-', '').toLowerCase()
    const keyWithEncoding = required.algorithm.startsWith('ES')
      ? ({ key, dsaEncoding: 'ieee-p1363' } as const)
      : key
    return () => verify(hash, required.signedBytes, keyWithEncoding, required.signature)
  })
  return async () => checks.every((check) => check())
}

/** The same floor on WebCrypto `subtle.verify`, keys imported beforehand. */
export async function rawWebCryptoSignatureChecks(
  signatures: readonly RequiredSignature[],
): Promise<RawSignatureChecks> {
  const { subtle } = globalThis.crypto
  const checks = await Promise.all(
    signatures.map(async (required) => {
      const hash = hashes[required.algorithm]
      const isEcdsa = required.algorithm.startsWith('ES')
      const importAlgorithm = isEcdsa
        ? { name: 'ECDSA', namedCurve: required.signer.publicKey.namedCurve ?? 'P-256' }
        : { name: 'RSASSA-PKCS1-v1_5', hash }
      const verifyAlgorithm = isEcdsa ? { name: 'ECDSA', hash } : { name: 'RSASSA-PKCS1-v1_5' }
      // Copies: WebCrypto's types want bytes backed by a plain ArrayBuffer.
      const signature = new Uint8Array(required.signature)
      const signedBytes = new Uint8Array(required.signedBytes)
      const key = await subtle.importKey(
        'spki',
        new Uint8Array(required.signer.publicKeySpki),
        importAlgorithm,
        false,
        ['verify'],
      )
      return () => subtle.verify(verifyAlgorithm, key, signature, signedBytes)
    }),
  )
  return async () => {
    let allVerified = true
    for (const check of checks) allVerified = (await check()) && allVerified
    return allVerified
  }
}
