/**
 * The default crypto backend everywhere else (browsers, Deno, Bun, edge runtimes): WebCrypto,
 * with pkijs loaded only when a PKCS#12 file is opened.
 */
export { createWebCryptoBackend as createDefaultCryptoBackend } from '@fhir-auth/crypto-webcrypto'
