/**
 * Reading a PEM private key (PKCS#8, PKCS#1 RSA or SEC1 EC) with core's DER code: a chunk of its
 * own, loaded by `importSigner` only when a key comes as PEM.
 */
export { describePrivateKeyPem } from '@fhir-auth/core/private-keys'
