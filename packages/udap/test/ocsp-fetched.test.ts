/**
 * Issue 30: revocation by OCSP with `openssl ocsp` as the responder, with the WebCrypto backend
 * in Node, the edge runtime and Chromium, against the responders of the global setup;
 * `ocsp-fetched.node.test.ts` repeats it with crypto-node.
 */
import { webCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { describeOcspRevocation } from './support/ocsp-revocation-cases.js'

describeOcspRevocation('crypto-webcrypto', () => webCryptoBackend)
