/**
 * Signs arbitrary JWS for tests with node:crypto — including headers and algorithms the
 * library must refuse (`none`, `HS256`), which a conformant JWS library would not produce.
 */
import { createHmac, createPrivateKey, type KeyObject, sign } from 'node:crypto'

export type TestJwsAlgorithm = 'RS256' | 'RS384' | 'ES256' | 'ES384' | 'HS256' | 'none'

export function base64Url(bytes: Uint8Array | string): string {
  return Buffer.from(bytes).toString('base64url')
}

export function signTestJws(
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
  key: KeyObject | string,
  algorithm: TestJwsAlgorithm = 'RS256',
): string {
  const signingInput = `${base64Url(JSON.stringify({ alg: algorithm, ...header }))}.${base64Url(JSON.stringify(claims))}`
  return `${signingInput}.${base64Url(signature(signingInput, key, algorithm))}`
}

function signature(
  signingInput: string,
  key: KeyObject | string,
  algorithm: TestJwsAlgorithm,
): Uint8Array {
  const data = Buffer.from(signingInput)
  if (algorithm === 'none') return new Uint8Array()
  if (algorithm === 'HS256') {
    return createHmac('sha256', typeof key === 'string' ? key : 'shared-secret')
      .update(data)
      .digest()
  }
  const privateKey = typeof key === 'string' ? createPrivateKey(key) : key
  switch (algorithm) {
    case 'RS256':
      return sign('sha256', data, privateKey)
    case 'RS384':
      return sign('sha384', data, privateKey)
    case 'ES256':
      return sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' })
    case 'ES384':
      return sign('sha384', data, { key: privateKey, dsaEncoding: 'ieee-p1363' })
  }
}

/** Standard base64 of DER, as in `x5c`. */
export function x5cOf(chainDer: readonly Uint8Array[]): string[] {
  return chainDer.map((der) => Buffer.from(der).toString('base64'))
}

/** The decoded header and claims of a compact JWS (no verification). */
export function decodeTestJws(jws: string): {
  header: Record<string, unknown>
  claims: Record<string, unknown>
} {
  const [header, claims] = jws.split('.')
  return {
    header: JSON.parse(Buffer.from(header ?? '', 'base64url').toString('utf8')),
    claims: JSON.parse(Buffer.from(claims ?? '', 'base64url').toString('utf8')),
  }
}
