/**
 * Issue 30: CRLs fetched from the distribution points of the certificates that chain to an
 * anchor, with the WebCrypto backend in Node, the edge runtime and Chromium, against the
 * loopback server of the global setup; `fetched-revocation.node.test.ts` repeats it with
 * crypto-node.
 */
import { webCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { describeFetchedRevocation } from './support/fetched-revocation-cases.js'

describeFetchedRevocation('crypto-webcrypto', () => webCryptoBackend)
