import { createPrivateKey, sign } from 'node:crypto'
import { pkcs8Der, type SigningKey } from './signing-keys.js'

/** A baseline signer: the platform API called directly, with nothing around it. */
export type RawSign = (input: Uint8Array<ArrayBuffer>) => Promise<Uint8Array>

/**
 * Signs with `node:crypto` directly, the way crypto-node does it (callback `crypto.sign` on
 * libuv's thread pool; ECDSA as JOSE `r‖s`), so the ratio shows only the backend's own cost.
 */
export function rawNodeSigner(key: SigningKey): RawSign {
  const privateKey = createPrivateKey(key.privateKeyPem)
  const signingKey =
    key.algorithm === 'ES384'
      ? ({ key: privateKey, dsaEncoding: 'ieee-p1363' } as const)
      : privateKey
  return (input) =>
    new Promise((resolvePromise, rejectPromise) => {
      sign('sha384', input, signingKey, (error, signature) => {
        if (error) rejectPromise(error)
        else resolvePromise(signature)
      })
    })
}

/** Signs with WebCrypto `subtle.sign` directly, key imported once. */
export async function rawWebCryptoSigner(key: SigningKey): Promise<RawSign> {
  const { subtle } = globalThis.crypto
  const algorithm =
    key.algorithm === 'ES384'
      ? { import: { name: 'ECDSA', namedCurve: 'P-384' }, sign: { name: 'ECDSA', hash: 'SHA-384' } }
      : {
          import: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-384' },
          sign: { name: 'RSASSA-PKCS1-v1_5' },
        }
  const cryptoKey = await subtle.importKey(
    'pkcs8',
    pkcs8Der(key.privateKeyPem),
    algorithm.import,
    false,
    ['sign'],
  )
  return async (input) => new Uint8Array(await subtle.sign(algorithm.sign, cryptoKey, input))
}
