/**
 * `@fhir-auth/crypto-node`: the fhir-auth crypto backend for Node.js — native RSA and ECDSA
 * signing on `node:crypto`, X.509 chains and CRLs checked with core's path policy, and
 * PKCS#12 files (modern and legacy 3DES) through node-forge, loaded only when needed.
 *
 * @packageDocumentation
 */

export { createNodeCryptoBackend, type NodeCryptoBackend, nodeCryptoBackend } from './backend.js'
export type { NodePkcs12Contents } from './pkcs12/load-pkcs12.js'
