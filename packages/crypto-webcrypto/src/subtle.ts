import { ConfigurationError } from '@fhir-auth/core/essentials'

/** Returns the `SubtleCrypto` a backend works with, looked up when first needed. */
export type SubtleSource = () => SubtleCrypto

/**
 * Resolves `SubtleCrypto` lazily: the given one, else `globalThis.crypto.subtle`. Looking it up
 * at call time (not at import) keeps the package free of import-time side effects and lets a
 * test or a polyfill install `crypto` after the module loaded.
 *
 * @throws ConfigurationError `subtle` when no `SubtleCrypto` exists, e.g. a browser page served
 *   over plain http (WebCrypto exists only in secure contexts).
 * @see https://www.w3.org/TR/WebCryptoAPI/#crypto-interface
 */
export function subtleSource(given: SubtleCrypto | undefined): SubtleSource {
  return () => {
    const subtle = given ?? (globalThis.crypto as Crypto | undefined)?.subtle
    if (subtle === undefined) {
      throw new ConfigurationError({
        invalidAttribute: 'subtle',
        message:
          'WebCrypto SubtleCrypto is not available here (browsers offer it only on https or localhost pages); pass { subtle } to createWebCryptoBackend or use @fhir-auth/crypto-node',
      })
    }
    return subtle
  }
}
