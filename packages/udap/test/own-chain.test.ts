/**
 * DESIGN §11: before signing with its own chain, the client checks it with the path policy
 * minus trust and revocation. Every path-rule fixture goes through `prepareUdapSigner` with the
 * WebCrypto backend (Node, edge runtime, Chromium); `own-chain.node.test.ts` repeats it with
 * crypto-node.
 */
import { webCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { describeOwnChainChecks } from './support/own-chain-cases.js'

describeOwnChainChecks('crypto-webcrypto', () => webCryptoBackend)
