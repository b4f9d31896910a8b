/**
 * Signs arbitrary JWS for tests with WebCrypto — including headers and algorithms the library
 * must refuse (`none`, `HS256`), which a conformant JWS library would not produce. Portable: no
 * Node API, so the tests that use it run in every runtime.
 */

export type TestJwsAlgorithm = 'RS256' | 'RS384' | 'ES256' | 'ES384' | 'HS256' | 'none'

function bytesOf(value: Uint8Array | string): Uint8Array {
  return typeof value === 'string' ? new TextEncoder().encode(value) : value
}

/** Standard base64 with the platform's `btoa`. */
function base64(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

export function base64Url(value: Uint8Array | string): string {
  return base64(bytesOf(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

function pemBody(pem: string): Uint8Array<ArrayBuffer> {
  const body = pem.replace(/-----(BEGIN|END) [^-]+-----/g, '').replace(/\s+/g, '')
  return Uint8Array.from(atob(body), (character) => character.charCodeAt(0))
}

/**
 * Signs `header` (with `alg` set) and `claims`. `key` is a PKCS#8 PEM, or for HS256 the shared
 * secret itself.
 */
export async function signTestJws(
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
  key: string,
  algorithm: TestJwsAlgorithm = 'RS256',
): Promise<string> {
  return signTestJwsText(header, JSON.stringify(claims), key, algorithm)
}

/**
 * Signs `header` and a claims set given as JSON text, for claims `JSON.stringify` cannot write
 * (a number such as `1e400`, which parses to Infinity).
 */
export async function signTestJwsText(
  header: Record<string, unknown>,
  claimsJson: string,
  key: string,
  algorithm: TestJwsAlgorithm = 'RS256',
): Promise<string> {
  const signingInput = `${base64Url(JSON.stringify({ alg: algorithm, ...header }))}.${base64Url(claimsJson)}`
  return `${signingInput}.${base64Url(await signature(signingInput, key, algorithm))}`
}

async function signature(
  signingInput: string,
  key: string,
  algorithm: TestJwsAlgorithm,
): Promise<Uint8Array> {
  const data = new TextEncoder().encode(signingInput)
  if (algorithm === 'none') return new Uint8Array()
  if (algorithm === 'HS256') {
    const secret = await crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(key),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    )
    return new Uint8Array(await crypto.subtle.sign('HMAC', secret, data))
  }
  const hash = `SHA-${algorithm.slice(2)}`
  if (algorithm.startsWith('RS')) {
    const privateKey = await crypto.subtle.importKey(
      'pkcs8',
      pemBody(key),
      { name: 'RSASSA-PKCS1-v1_5', hash },
      false,
      ['sign'],
    )
    return new Uint8Array(await crypto.subtle.sign('RSASSA-PKCS1-v1_5', privateKey, data))
  }
  // ES256 and ES384 may sign with a key on either curve (the library must refuse such mixes).
  for (const namedCurve of ['P-256', 'P-384', 'P-521']) {
    const privateKey = await crypto.subtle
      .importKey('pkcs8', pemBody(key), { name: 'ECDSA', namedCurve }, false, ['sign'])
      .catch(() => undefined)
    if (privateKey !== undefined)
      return new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash }, privateKey, data))
  }
  throw new Error(`the test key cannot sign ${algorithm}`)
}

/** Standard base64 of DER, as in `x5c`. */
export function x5cOf(chainDer: readonly Uint8Array[]): string[] {
  return chainDer.map(base64)
}
