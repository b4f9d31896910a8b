/**
 * Test-only: keys, signatures and signature checks on WebCrypto, the one crypto API that Node,
 * edge runtimes and browsers share, so the core tests that need real signatures run in all of
 * them. WebCrypto is an implementation independent of core's parsers, which makes it a fair
 * cross-check for them.
 */
import type { SignatureCheck, VerificationAlgorithm } from '../../crypto/backend.js'

/** The JOSE names of the signatures these helpers make and check: those a backend verifies. */
export type TestSignatureAlgorithm = VerificationAlgorithm

const curves = ['P-256', 'P-384', 'P-521'] as const
export type TestCurve = (typeof curves)[number]

/** Decodes the first PEM block with plain `atob`, independent of the PEM code under test. */
export function pemBytes(pem: string): Uint8Array<ArrayBuffer> {
  const body = (pem.split(/-----END [^-]+-----/)[0] ?? '')
    .replace(/-----BEGIN [^-]+-----/, '')
    .replace(/\s+/g, '')
  return Uint8Array.from(atob(body), (character) => character.charCodeAt(0))
}

/** A copy backed by a plain ArrayBuffer, as WebCrypto's TypeScript signatures want. */
export function bufferOf(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes)
}

function hashOf(algorithm: TestSignatureAlgorithm): string {
  return `SHA-${algorithm.slice(2)}`
}

function keyAlgorithm(algorithm: TestSignatureAlgorithm, curve?: TestCurve) {
  if (algorithm.startsWith('RS')) return { name: 'RSASSA-PKCS1-v1_5', hash: hashOf(algorithm) }
  if (algorithm.startsWith('PS')) return { name: 'RSA-PSS', hash: hashOf(algorithm) }
  return { name: 'ECDSA', namedCurve: curve ?? 'P-256' }
}

function signatureParameters(algorithm: TestSignatureAlgorithm) {
  if (algorithm.startsWith('RS')) return { name: 'RSASSA-PKCS1-v1_5' }
  // RFC 7518 §3.5: the salt is as long as the hash.
  if (algorithm.startsWith('PS'))
    return { name: 'RSA-PSS', saltLength: Number(algorithm.slice(2)) / 8 }
  return { name: 'ECDSA', hash: hashOf(algorithm) }
}

/**
 * Imports a key for `algorithm`. An EC key must name its curve on import, and ECDSA may pair any
 * hash with any curve, so each curve is tried in turn (the wrong ones fail to import).
 */
async function importKey(
  format: 'pkcs8' | 'spki',
  der: Uint8Array,
  algorithm: TestSignatureAlgorithm,
): Promise<CryptoKey> {
  const usage: KeyUsage = format === 'pkcs8' ? 'sign' : 'verify'
  if (!algorithm.startsWith('ES'))
    return crypto.subtle.importKey(format, bufferOf(der), keyAlgorithm(algorithm), false, [usage])
  for (const curve of curves) {
    try {
      return await crypto.subtle.importKey(
        format,
        bufferOf(der),
        keyAlgorithm(algorithm, curve),
        false,
        [usage],
      )
    } catch {
      // Not this curve: try the next one.
    }
  }
  throw new Error(`no WebCrypto curve imports this ${format} key`)
}

/** Signs `data` with a PKCS#8 PEM key; ECDSA signatures come out as JOSE r‖s. */
export async function signWithPem(
  pkcs8Pem: string,
  algorithm: TestSignatureAlgorithm,
  data: Uint8Array,
): Promise<Uint8Array> {
  const key = await importKey('pkcs8', pemBytes(pkcs8Pem), algorithm)
  return new Uint8Array(
    await crypto.subtle.sign(signatureParameters(algorithm), key, bufferOf(data)),
  )
}

/** Checks RS*, PS* and ES* (r‖s) signatures against an SPKI, like a backend's verifySignature. */
export async function verifyWithWebCrypto(check: SignatureCheck): Promise<boolean> {
  const key = await importKey('spki', check.publicKeySpki, check.algorithm)
  return crypto.subtle.verify(
    signatureParameters(check.algorithm),
    key,
    bufferOf(check.signature),
    bufferOf(check.data),
  )
}

/** DER length octets. */
function derLength(length: number): number[] {
  if (length < 0x80) return [length]
  const octets: number[] = []
  for (let rest = length; rest > 0; rest >>= 8) octets.unshift(rest & 0xff)
  return [0x80 | octets.length, ...octets]
}

/** One DER INTEGER for an unsigned big-endian value. */
function derUnsignedInteger(value: Uint8Array): number[] {
  let start = 0
  while (start < value.length - 1 && value[start] === 0) start++
  const digits = [...value.subarray(start)]
  if ((digits[0] ?? 0) & 0x80) digits.unshift(0)
  return [0x02, ...derLength(digits.length), ...digits]
}

/** Converts a JOSE r‖s ECDSA signature to the DER `Ecdsa-Sig-Value` X.509 and HSMs use. */
export function ecdsaJoseToDer(signature: Uint8Array): Uint8Array {
  const half = signature.length / 2
  const body = [
    ...derUnsignedInteger(signature.subarray(0, half)),
    ...derUnsignedInteger(signature.subarray(half)),
  ]
  return Uint8Array.from([0x30, ...derLength(body.length), ...body])
}

/** A generated key pair, exportable, with its public key as SPKI DER and JWK. */
export interface GeneratedKeyPair {
  readonly privateKey: CryptoKey
  readonly publicKey: CryptoKey
  readonly spki: Uint8Array
  readonly pkcs8: Uint8Array
  readonly publicJwk: JsonWebKey
}

/**
 * Exports a public key as a JWK from a re-imported copy: Node 20 can deadlock (rarely, during GC)
 * when a freshly generated EC key is exported as a JWK.
 */
async function exportJwkSafely(
  publicKey: CryptoKey,
  parameters: RsaHashedImportParams | EcKeyImportParams,
): Promise<JsonWebKey> {
  const spki = await crypto.subtle.exportKey('spki', publicKey)
  const copy = await crypto.subtle.importKey('spki', spki, parameters, true, ['verify'])
  return crypto.subtle.exportKey('jwk', copy)
}

/** Generates an RSA 2048 key pair (for the RS and PS algorithms) or an EC one (ES, on `curve`). */
export async function generateTestKeyPair(
  algorithm: TestSignatureAlgorithm,
  curve: TestCurve = 'P-256',
): Promise<GeneratedKeyPair> {
  const parameters = algorithm.startsWith('ES')
    ? keyAlgorithm(algorithm, curve)
    : {
        ...keyAlgorithm(algorithm),
        modulusLength: 2048,
        publicExponent: Uint8Array.of(1, 0, 1),
      }
  const pair = (await crypto.subtle.generateKey(parameters, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  return {
    privateKey: pair.privateKey,
    publicKey: pair.publicKey,
    spki: new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey)),
    pkcs8: new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey)),
    publicJwk: await exportJwkSafely(pair.publicKey, parameters),
  }
}

/** Signs with a generated key; ECDSA signatures come out as JOSE r‖s. */
export async function signWithKey(
  key: CryptoKey,
  algorithm: TestSignatureAlgorithm,
  data: Uint8Array,
): Promise<Uint8Array> {
  return new Uint8Array(
    await crypto.subtle.sign(signatureParameters(algorithm), key, bufferOf(data)),
  )
}
