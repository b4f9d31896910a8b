import type { CryptoBackend, Pkcs12Contents } from '@fhir-auth/core/essentials'
import { defaultCryptoModule } from './default-crypto/on-demand.js'

/**
 * Opens a PKCS#12 (`.p12` / `.pfx`) file with the given backend, or with this runtime's default
 * one (crypto-node in Node: PBES2/AES and legacy 3DES files; crypto-webcrypto elsewhere: PBES2
 * only). The result drops straight into a UDAP client configuration.
 *
 * @example
 * ```ts
 * const { privateKey, certificateChain } = await loadPkcs12(await readFile('client.p12'), password)
 * const client = new Client({ baseUrl, privateKey, certificateChain }, { protocol: 'udap' })
 * ```
 * @throws CryptoError `pkcs12-password`, `pkcs12-unsupported-encryption` or `pkcs12-invalid`;
 *   the password never appears in a message.
 * @see https://hl7.org/fhir/us/udap-security/STU2/general.html
 */
export async function loadPkcs12(
  data: Uint8Array,
  password: string,
  options?: { readonly crypto?: CryptoBackend | undefined },
): Promise<Pkcs12Contents> {
  const backend = options?.crypto ?? (await defaultCryptoModule()).createDefaultCryptoBackend()
  return backend.loadPkcs12(data, password)
}
