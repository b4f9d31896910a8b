import {
  type CryptoBackend,
  cryptoBackendSpecificationVersion,
  lazy,
  lazyImport,
} from '@fhir-auth/core/essentials'
import { subtleSource } from './subtle.js'

/** Options of {@link createWebCryptoBackend}. */
export interface WebCryptoBackendOptions {
  /**
   * The `SubtleCrypto` to use; default `globalThis.crypto.subtle`, looked up at first use. Pass
   * one for a runtime that keeps WebCrypto elsewhere, or a wrapper in tests.
   */
  readonly subtle?: SubtleCrypto | undefined
}

// Each capability is a chunk of its own, loaded on its first call: signing with a JWK or a
// CryptoKey loads no DER, certificate, CRL or chain code; verifying an ID token's signature
// loads no signing code; PKCS#12 (and with it pkijs) loads only when a file is opened.
// A chunk that fails to load is an `HttpError` (`network`), tried again on the next call.
const signingModule = lazyImport(() => import('./signer/import-signer.js'))
const verificationModule = lazyImport(() => import('./verify/verify-signature.js'))
const certificateModule = lazyImport(() => import('./certificates/certificate-services.js'))
const pkcs12Module = lazyImport(() => import('./pkcs12/load-pkcs12.js'))

/**
 * Creates a {@link CryptoBackend} on WebCrypto `SubtleCrypto`, for browsers, Deno, Bun, edge
 * runtimes and Node 20+. It imports no `node:*` module and uses no Node global.
 *
 * - Signing keys: PEM (PKCS#8, PKCS#1 RSA, SEC1 EC), private JWK, `CryptoKey` (also
 *   non-extractable) or a ready `JwsSigner`; keys are imported non-extractable, `sign` only.
 * - Certificates and chains: parsed and validated by core's X.509 code and path policy, so the
 *   verdicts are the same as `@fhir-auth/crypto-node`'s; signatures are checked with WebCrypto.
 * - PKCS#12: PBES2 files (AES-CBC with PBKDF2-HMAC-SHA-1/256) through pkijs, which is loaded
 *   only on the first `loadPkcs12` call. Legacy 3DES/RC2 files are refused with
 *   `pkcs12-unsupported-encryption` (WebCrypto has no 3DES); re-export them with AES or use
 *   `@fhir-auth/crypto-node`.
 *
 * Each backend keeps small bounded caches of parsed certificates, CRLs and imported public keys,
 * so validating the same UDAP chain again costs only the signature checks. Creating a backend
 * has no side effects and touches no global.
 *
 * @example
 * ```ts
 * import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
 *
 * const backend = createWebCryptoBackend()
 * const signer = await backend.importSigner(privateKeyPem, { profile: 'smart' })
 * signer.alg // 'RS384' for an RSA key, 'ES384' for a P-384 key
 * ```
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/crypto-backends.md
 */
export function createWebCryptoBackend(options: WebCryptoBackendOptions = {}): CryptoBackend {
  const subtle = subtleSource(options.subtle)
  // Per backend, made on first use: the verifier's key cache, the certificate parse caches.
  const verifier = lazy(() =>
    verificationModule().then(({ createSignatureVerifier }) => createSignatureVerifier(subtle)),
  )
  const verifySignature: CryptoBackend['verifySignature'] = async (check) =>
    (await verifier())(check)
  const certificates = lazy(() =>
    certificateModule().then(({ createCertificateServices }) =>
      createCertificateServices(subtle, verifySignature),
    ),
  )
  const backend: CryptoBackend = {
    name: 'webcrypto',
    specificationVersion: cryptoBackendSpecificationVersion,
    importSigner: async (key, signerOptions) =>
      (await signingModule()).importSigner(subtle, key, signerOptions),
    parseCertificate: async (certificate) => (await certificates()).parseCertificate(certificate),
    keyMatchesCertificate: async (key, certificate) =>
      (await certificates()).keyMatchesCertificate(key, certificate),
    verifyCertificateChain: async (params) => (await certificates()).verifyCertificateChain(params),
    loadPkcs12: async (data, password) =>
      (await pkcs12Module()).loadPkcs12(subtle(), data, password),
    verifySignature,
  }
  return Object.freeze(backend)
}

/**
 * A shared backend on `globalThis.crypto.subtle`. Building it does nothing at import time:
 * `SubtleCrypto` is looked up when a method first needs it.
 */
export const webCryptoBackend: CryptoBackend = /* @__PURE__ */ createWebCryptoBackend()
