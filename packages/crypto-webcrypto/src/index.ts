/**
 * `@fhir-auth/crypto-webcrypto`: a fhir-auth `CryptoBackend` on WebCrypto `SubtleCrypto`, for
 * browsers, Deno, Bun, edge runtimes and Node. pkijs (PKCS#12 only) is loaded on demand, so a
 * bundle that never opens a PKCS#12 file contains none of it.
 *
 * @packageDocumentation
 */
export {
  createWebCryptoBackend,
  type WebCryptoBackendOptions,
  webCryptoBackend,
} from './backend.js'
