import type { KeyObject } from 'node:crypto'
import type {
  CertificateInfo,
  CertificateInput,
  CryptoBackend,
  ImportSignerOptions,
  JwsSigner,
  PrivateKeyInput,
  SignatureCheck,
  VerifiedCertificateChain,
  VerifyCertificateChainParams,
} from '@fhir-auth/core'
import {
  BoundedCache,
  cachedParsers,
  cryptoBackendSpecificationVersion,
  toCertificateInfo,
  verifyCertificateChainWith,
} from '@fhir-auth/core/backend'
import { certificateInputDer } from './certificate-input.js'
import { keyMatchesNodeCertificate } from './key-match.js'
import { loadNodePkcs12, type NodePkcs12Contents } from './pkcs12/load-pkcs12.js'
import { importNodeSigner } from './signer.js'
import { verifyNodeSignature } from './verify-signature.js'

/**
 * The `node:crypto` backend. Its `loadPkcs12` is typed more precisely than the interface's:
 * the key comes back as a Node `KeyObject`.
 */
export interface NodeCryptoBackend extends CryptoBackend {
  readonly name: 'node'
  readonly specificationVersion: typeof cryptoBackendSpecificationVersion
  loadPkcs12(data: Uint8Array, password: string): Promise<NodePkcs12Contents>
}

// Sized for a client talking to a handful of servers: each UDAP chain holds 2–4 keys. Bounded so
// a long-running process cannot grow without limit.
const publicKeyCacheSize = 64

/**
 * Creates a {@link CryptoBackend} on `node:crypto`: native RSA and ECDSA signing
 * (`crypto.sign` on libuv's thread pool), certificates and CRLs parsed by core and checked
 * with core's path policy, and PKCS#12 (including the legacy 3DES encoding) through
 * node-forge, loaded only when a PKCS#12 file is opened.
 *
 * Each backend keeps its own small caches of parsed certificates, CRLs and public keys, so
 * validating the same UDAP chain again costs only the signature checks. Creating one has no
 * other effect.
 *
 * @example
 * ```ts
 * import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
 *
 * const crypto = createNodeCryptoBackend()
 * const signer = await crypto.importSigner(privateKeyPem, { profile: 'smart', kid: 'key-1' })
 * ```
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/crypto-backends.md
 */
export function createNodeCryptoBackend(): NodeCryptoBackend {
  const publicKeys = new BoundedCache<KeyObject>(publicKeyCacheSize)
  const { parseCertificate, parseCrl } = cachedParsers((input) =>
    certificateInputDer(input as CertificateInput),
  )
  const verifySignature = (check: SignatureCheck): Promise<boolean> =>
    verifyNodeSignature(check, publicKeys)

  return Object.freeze({
    name: 'node',
    specificationVersion: cryptoBackendSpecificationVersion,
    importSigner: (key: PrivateKeyInput, options: ImportSignerOptions): Promise<JwsSigner> =>
      importNodeSigner(key, options),
    parseCertificate: async (certificate: CertificateInput): Promise<CertificateInfo> =>
      toCertificateInfo(parseCertificate(certificate)),
    keyMatchesCertificate: async (
      key: PrivateKeyInput,
      certificate: CertificateInput,
    ): Promise<boolean> =>
      keyMatchesNodeCertificate(key, parseCertificate(certificate), publicKeys),
    verifyCertificateChain: (
      params: VerifyCertificateChainParams,
    ): Promise<VerifiedCertificateChain> =>
      verifyCertificateChainWith(params, { parseCertificate, parseCrl, verifySignature }),
    loadPkcs12: (data: Uint8Array, password: string): Promise<NodePkcs12Contents> =>
      loadNodePkcs12(data, password),
    verifySignature,
  } as const)
}

/**
 * A ready {@link createNodeCryptoBackend} instance for applications that need only one.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/crypto-backends.md
 */
export const nodeCryptoBackend: NodeCryptoBackend = createNodeCryptoBackend()
