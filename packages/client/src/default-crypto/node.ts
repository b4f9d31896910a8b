/**
 * The default crypto backend where the `node` export condition applies: native `node:crypto`
 * signing, node-forge only when a PKCS#12 file is opened.
 */
export { createNodeCryptoBackend as createDefaultCryptoBackend } from '@fhir-auth/crypto-node'
