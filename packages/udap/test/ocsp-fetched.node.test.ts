/** Issue 30: revocation by OCSP with `openssl ocsp` as the responder, with crypto-node. */
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { describeOcspRevocation } from './support/ocsp-revocation-cases.js'

describeOcspRevocation('crypto-node', () => createNodeCryptoBackend())
