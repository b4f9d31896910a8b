import type { CryptoBackend, PrivateKeyInput, SigningAlgorithm } from '@fhir-auth/core'

/** A leaf key as handed to {@link ExtraKeyForm.create}. */
export interface ExtraKeyFormSource {
  /** Unencrypted PKCS#8 PEM of the key. */
  readonly pkcs8Pem: string
  readonly keyType: 'rsa2048' | 'p256' | 'p384'
  /** The algorithm the suite will ask `importSigner` for with this key. */
  readonly algorithm: SigningAlgorithm
}

/**
 * A key form only some backends accept (a Node `KeyObject`, a WebCrypto `CryptoKey`), which the
 * suite then signs with like the portable forms.
 */
export interface ExtraKeyForm {
  /** Shown in the test name, e.g. `'KeyObject'`. */
  readonly name: string
  create(source: ExtraKeyFormSource): PrivateKeyInput | Promise<PrivateKeyInput>
}

/** Options of `describeBackendContract`. */
export interface BackendContractOptions {
  /**
   * Whether the backend opens legacy PKCS#12 files (pbeWithSHAAnd3-KeyTripleDES-CBC, SHA-1 MAC):
   * `'supported'` must open them; `'unsupported'` must reject them with `CryptoError`
   * `pkcs12-unsupported-encryption`.
   */
  readonly legacyPkcs12: 'supported' | 'unsupported'
  /** Extra key forms to sign with, beyond PEM, JWK and `JwsSigner`. */
  readonly extraKeyForms?: readonly ExtraKeyForm[]
}

/** What every case group receives: the backend (created once per suite) and the options. */
export interface ContractContext {
  backend(): CryptoBackend
  readonly options: BackendContractOptions
}
