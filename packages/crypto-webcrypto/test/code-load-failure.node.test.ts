/**
 * Each capability of the backend is a chunk loaded on its first call. A chunk that cannot be
 * loaded (in a browser, one a deployment replaced) rejects with an `HttpError` (`network`), not
 * the platform's `TypeError` (core's `lazyImport` tests show the next call loading it again). One case per place that loads
 * code. Node only: the failing chunk is a module mock.
 */
import { generateKeyPairSync, sign } from 'node:crypto'
import type { CryptoBackend } from '@fhir-auth/core'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  caCertificate as anchor,
  caCertificate,
  caCrl,
  clientEc256Certificate,
  clientEc256Key,
  ec256Aes128Pkcs12,
  fixturePassword,
} from './fixtures/webcrypto-fixtures.js'
import { ecP256, fromBase64, importPrivateKey, privateJwkOf } from './helpers/keys.js'

/** The import that fails, as Chromium rejects it. */
const chunkGone = () =>
  Promise.reject(
    new TypeError('Failed to fetch dynamically imported module: https://app.example/chunk.js'),
  )

let mocked: string | undefined

afterEach(() => {
  if (mocked !== undefined) vi.doUnmock(mocked)
  mocked = undefined
  vi.resetModules()
})

/** A fresh backend from a fresh copy of the package in which `path` cannot load. */
async function backendWithout(path: string): Promise<CryptoBackend> {
  vi.resetModules()
  mocked = path
  vi.doMock(path, chunkGone)
  const { createWebCryptoBackend } = await import('../src/index.js')
  return createWebCryptoBackend()
}

const cases: readonly {
  readonly part: string
  readonly path: string
  readonly run: (backend: CryptoBackend) => Promise<unknown>
}[] = [
  {
    part: 'signing (a JWK)',
    path: '../src/signer/import-signer.js',
    run: async (backend) =>
      backend.importSigner(await privateJwkOf(clientEc256Key, ecP256), { profile: 'smart' }),
  },
  {
    part: 'PEM keys',
    path: '../src/signer/pem-key.js',
    run: (backend) => backend.importSigner(clientEc256Key, { profile: 'smart' }),
  },
  {
    part: "a CryptoKey's description",
    path: '../src/signer/crypto-key-description.js',
    run: async (backend) =>
      backend.importSigner(await importPrivateKey(clientEc256Key, ecP256), { profile: 'smart' }),
  },
  {
    part: 'signature verification',
    path: '../src/verify/verify-signature.js',
    run: (backend) =>
      backend.verifySignature({
        alg: 'ES256',
        publicKey: new Uint8Array(1),
        data: new Uint8Array(1),
        signature: new Uint8Array(64),
      } as unknown as Parameters<CryptoBackend['verifySignature']>[0]),
  },
  {
    part: 'certificates',
    path: '../src/certificates/certificate-services.js',
    run: (backend) => backend.parseCertificate(caCertificate),
  },
  {
    part: 'key-to-certificate matching (the signing chunk it reads keys with)',
    path: '../src/signer/import-signer.js',
    run: async (backend) =>
      backend.keyMatchesCertificate(
        await privateJwkOf(clientEc256Key, ecP256),
        clientEc256Certificate,
      ),
  },
  {
    part: 'PKCS#12',
    path: '../src/pkcs12/load-pkcs12.js',
    run: (backend) => backend.loadPkcs12(fromBase64(ec256Aes128Pkcs12), fixturePassword),
  },
  {
    part: "PKCS#12's pkijs (a chunk of its own in browser bundles)",
    path: 'pkijs',
    run: (backend) => backend.loadPkcs12(fromBase64(ec256Aes128Pkcs12), fixturePassword),
  },
  {
    part: 'a chain whose signatures cannot be checked (not "untrusted")',
    path: '../src/verify/verify-signature.js',
    run: (backend) =>
      backend.verifyCertificateChain({
        chain: [clientEc256Certificate],
        trustAnchors: [anchor],
        crls: [caCrl],
        at: new Date(),
      }),
  },
  {
    part: 'an ID token whose signature cannot be checked (not IdTokenError signature)',
    path: '../src/verify/verify-signature.js',
    run: async (backend) => {
      const { verifyIdToken } = await import('@fhir-auth/core/oidc')
      const { token, jwk } = signedIdToken()
      return verifyIdToken(token, {
        issuer: 'https://as.example',
        clientId: 'app',
        algorithms: ['ES256'],
        keys: { candidates: async () => [jwk] } as never,
        crypto: backend,
        now: new Date(),
      })
    },
  },
]

/** An ES256 ID token that verifies, and its public JWK. */
function signedIdToken() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const now = Math.floor(Date.now() / 1000)
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const claims = { iss: 'https://as.example', sub: 's', aud: 'app', exp: now + 300, iat: now }
  const input = `${part({ alg: 'ES256', kid: 'k' })}.${part(claims)}`
  const signature = sign('sha256', Buffer.from(input), {
    key: privateKey,
    dsaEncoding: 'ieee-p1363',
  })
  return {
    token: `${input}.${signature.toString('base64url')}`,
    jwk: { ...publicKey.export({ format: 'jwk' }), kid: 'k' },
  }
}

describe('a capability whose chunk cannot be loaded', () => {
  it.each(cases)('$part: HttpError (network)', async ({ path, run }) => {
    const backend = await backendWithout(path)
    const error: unknown = await run(backend).then(
      () => 'resolved',
      (caught: unknown) => caught,
    )
    const { HttpError } = await import('@fhir-auth/core')
    expect(HttpError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({
      reason: 'network',
      message: 'fhir-auth could not load its code (network error)',
    })
  })
})
