import { base64Decode, type Jwk } from '@fhir-auth/core'
import { decodePemBlocks } from '@fhir-auth/core/backend'

/** The DER bytes of the first `label` block of a PEM text. */
export function pemBody(pem: string, label: string): Uint8Array<ArrayBuffer> {
  const [der] = decodePemBlocks(pem, label)
  if (der === undefined) throw new Error(`no ${label} block`)
  return der.slice()
}

/** Standard base64 to bytes (fixture PKCS#12 files). */
export function fromBase64(text: string): Uint8Array {
  const bytes = base64Decode(text)
  if (bytes === undefined) throw new Error('bad base64 fixture')
  return bytes
}

/** WebCrypto import parameters for a fixture key. */
export type KeyParameters = RsaHashedImportParams | EcKeyImportParams

export const rsaSha256: RsaHashedImportParams = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }
export const rsaSha384: RsaHashedImportParams = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-384' }
export const ecP256: EcKeyImportParams = { name: 'ECDSA', namedCurve: 'P-256' }
export const ecP384: EcKeyImportParams = { name: 'ECDSA', namedCurve: 'P-384' }

/** Imports a fixture PKCS#8 PEM key as a WebCrypto private key. */
export function importPrivateKey(
  pem: string,
  parameters: KeyParameters,
  extractable = false,
  usages: KeyUsage[] = ['sign'],
): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    'pkcs8',
    pemBody(pem, 'PRIVATE KEY'),
    parameters,
    extractable,
    usages,
  )
}

/**
 * The private JWK of a fixture key. Keys are imported from PEM before exporting (Node 20 can
 * deadlock exporting a freshly generated EC key as a JWK).
 */
export async function privateJwkOf(pem: string, parameters: KeyParameters): Promise<Jwk> {
  const key = await importPrivateKey(pem, parameters, true)
  return (await crypto.subtle.exportKey('jwk', key)) as Jwk
}

/** The public JWK of a fixture key (private members removed). */
export async function publicJwkOf(pem: string, parameters: KeyParameters): Promise<Jwk> {
  const { kty, n, e, crv, x, y } = await privateJwkOf(pem, parameters)
  return Object.fromEntries(
    Object.entries({ kty, n, e, crv, x, y }).filter(([, value]) => value !== undefined),
  ) as Jwk
}

/** Captures the rejection of a promise, failing the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected the promise to reject')
}
