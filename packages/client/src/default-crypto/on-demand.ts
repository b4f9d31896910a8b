import { lazyImport } from '@fhir-auth/core/internal/checks'

/**
 * This runtime's default crypto backend module (`#default-crypto`: crypto-node on Node,
 * crypto-webcrypto elsewhere), loaded when a client first needs one and none was configured. A
 * chunk that fails to load is an `HttpError` (`network`), tried again on the next call.
 *
 * @internal
 */
export const defaultCryptoModule = lazyImport(() => import('#default-crypto'))
