import type { ParsedCertificate, SignatureVerifier } from '@fhir-auth/core/backend'
import { normalizeEcdsaSignature } from '@fhir-auth/core/backend'
import {
  CryptoError,
  type JwsSigner,
  lazyImport,
  type PrivateKeyInput,
  randomBytes,
  type VerificationAlgorithm,
} from '@fhir-auth/core/essentials'
import type { SubtleSource } from '../subtle.js'
import { bufferSource, webCryptoError, webCryptoFailureName } from '../webcrypto-calls.js'
import { samePublicKey } from './public-key-match.js'
import { exportPublicMembers, publicMembersOfPem } from './public-members.js'

// The key forms are read by the signing chunk's code, loaded from there rather than imported:
// imported here too, they would be a chunk of their own that every signing app fetches. Its own
// loader, not backend.ts's: a module shared by both became a ninth chunk (+111 B gzip, measured).
const signingModule = lazyImport(() => import('../signer/import-signer.js'))

/**
 * True when a private key belongs to a certificate's public key.
 *
 * Keys whose public half can be read (PEM, JWK, an extractable `CryptoKey`) are compared member
 * by member. A non-extractable `CryptoKey` or a `JwsSigner` signs a random probe, which is then
 * verified with the certificate's key: that proves possession without exporting anything.
 *
 * @throws CryptoError `invalid-key` / `unsupported-key` for a key that cannot be read or used;
 *   `invalid-signature` when a `JwsSigner` fails to sign the probe.
 */
export async function keyMatchesCertificate(
  subtleSource: SubtleSource,
  verify: SignatureVerifier,
  key: PrivateKeyInput,
  parsed: ParsedCertificate,
): Promise<boolean> {
  const { readPrivateJwk, sortPrivateKey } = await signingModule()
  const sorted = sortPrivateKey(key)
  const certificateKey = parsed.publicKeyJwk
  switch (sorted.form) {
    case 'pem':
      return samePublicKey(await publicMembersOfPem(subtleSource(), sorted.pem), certificateKey)
    case 'jwk':
      readPrivateJwk(sorted.jwk)
      return samePublicKey(sorted.jwk, certificateKey)
    case 'crypto-key':
      if (sorted.key.extractable) {
        return samePublicKey(await exportPublicMembers(subtleSource(), sorted.key), certificateKey)
      }
      return probe(
        verify,
        parsed.publicKeySpki,
        await probeWithCryptoKey(subtleSource(), sorted.key),
      )
    case 'signer':
      return probe(verify, parsed.publicKeySpki, await probeWithSigner(sorted.signer))
  }
}

interface Probe {
  readonly algorithm: VerificationAlgorithm
  readonly data: Uint8Array
  readonly signature: Uint8Array
}

const rsaProbeAlgorithm: Readonly<Record<string, VerificationAlgorithm>> = Object.freeze({
  'SHA-256': 'RS256',
  'SHA-384': 'RS384',
  'SHA-512': 'RS512',
})

async function probeWithCryptoKey(subtle: SubtleCrypto, key: CryptoKey): Promise<Probe> {
  if (key.type !== 'private' || !key.usages.includes('sign')) {
    throw new CryptoError(
      'invalid-key',
      'a non-extractable CryptoKey can only be matched to a certificate when it is a private key with the "sign" usage',
    )
  }
  const algorithm = key.algorithm as Partial<RsaHashedKeyAlgorithm>
  const data = randomBytes(32)
  let verification: VerificationAlgorithm
  let parameters: AlgorithmIdentifier | EcdsaParams
  if (algorithm.name === 'ECDSA') {
    verification = 'ES256'
    parameters = { name: 'ECDSA', hash: 'SHA-256' }
  } else if (algorithm.name === 'RSASSA-PKCS1-v1_5') {
    const bound = rsaProbeAlgorithm[String(algorithm.hash?.name)]
    if (bound === undefined) {
      throw new CryptoError(
        'unsupported-key',
        `an RSA key bound to ${String(algorithm.hash?.name)} cannot be checked`,
      )
    }
    verification = bound
    parameters = { name: 'RSASSA-PKCS1-v1_5' }
  } else {
    throw new CryptoError(
      'unsupported-key',
      `a ${String(algorithm.name)} CryptoKey cannot be matched to a certificate; use RSASSA-PKCS1-v1_5 or ECDSA`,
    )
  }
  try {
    const signature = new Uint8Array(await subtle.sign(parameters, key, bufferSource(data)))
    return { algorithm: verification, data, signature }
  } catch (error) {
    throw webCryptoError(error, 'invalid-key', 'sign the key-match probe')
  }
}

const ecdsaLength: Readonly<Record<string, number>> = Object.freeze({ ES256: 32, ES384: 48 })

async function probeWithSigner(signer: JwsSigner): Promise<Probe> {
  const data = randomBytes(32)
  let signature: Uint8Array
  try {
    signature = await signer.sign(data)
  } catch (error) {
    throw new CryptoError(
      'invalid-signature',
      `the ${signer.alg} signer failed to sign the key-match probe (${webCryptoFailureName(error)})`,
    )
  }
  if (!(signature instanceof Uint8Array)) {
    throw new CryptoError('invalid-signature', 'the signer returned no signature bytes')
  }
  const componentLength = ecdsaLength[signer.alg]
  return {
    algorithm: signer.alg,
    data,
    signature:
      componentLength === undefined
        ? signature
        : normalizeEcdsaSignature(signature, componentLength),
  }
}

function probe(
  verify: SignatureVerifier,
  publicKeySpki: Uint8Array,
  made: Probe,
): Promise<boolean> {
  return verify({ ...made, publicKeySpki })
}
