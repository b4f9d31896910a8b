/**
 * `@fhir-auth/core/private-keys`: reading a PEM private key — PKCS#8, PKCS#1 RSA or SEC1 EC —
 * as its type, curve and PKCS#8 DER, and nothing else.
 *
 * Also in `@fhir-auth/core/backend`. This entry exists for bundles split per dynamic import: a
 * backend loads it when a key comes as PEM, so keys given as JWKs or `CryptoKey`s carry no DER
 * code, and PEM keys no certificate code (docs/adr/0012-browser-bytes-by-load-time.md).
 *
 * @packageDocumentation
 */

export { describePrivateKeyPem, type PrivateKeyDescription } from './x509/private-key.js'
