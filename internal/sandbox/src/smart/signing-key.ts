import { createPrivateKey, generateKeyPair, type JsonWebKey } from 'node:crypto'
import { promisify } from 'node:util'

const generateKeyPairAsync = promisify(generateKeyPair)

let generating: Promise<JsonWebKey> | undefined

/**
 * The provider's RSA signing key as a private JWK (RS256 ID tokens, `/jwks`).
 *
 * RSA-2048 generation costs ~100 ms, so one key is made per process and shared by every
 * sandbox started in it; that keeps a second start-up well under the 1 s budget. The key is
 * exported as PEM and re-imported before the JWK export: Node 20 can deadlock when a freshly
 * generated key is exported straight to JWK.
 */
export function providerSigningKey(): Promise<JsonWebKey> {
  generating ??= generate()
  return generating
}

async function generate(): Promise<JsonWebKey> {
  const { privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  })
  const jwk = createPrivateKey(privateKey).export({ format: 'jwk' })
  return { ...jwk, kid: 'sandbox-rs256', alg: 'RS256', use: 'sig' }
}
