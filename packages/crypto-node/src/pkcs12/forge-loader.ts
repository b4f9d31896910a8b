import { CryptoError } from '@fhir-auth/core'
import { lazy } from '@fhir-auth/core/backend'
import type { ForgeApi } from './forge-api.js'

/**
 * node-forge (about 30 ms to load and a large module graph) is needed only to open PKCS#12
 * files, so it is imported on first use: importing this package, signing and chain
 * validation never load it. A failed load is tried again on the next call.
 *
 * @throws CryptoError `pkcs12-unsupported-encryption` when node-forge cannot be loaded.
 * @internal
 */
export const loadForge: () => Promise<ForgeApi> = lazy(() =>
  import('node-forge').then(
    (module: unknown) => {
      // node-forge is CommonJS: its API is the default export of the ESM namespace.
      const api = (module as { default?: unknown }).default ?? module
      return api as ForgeApi
    },
    () => {
      throw new CryptoError(
        'pkcs12-unsupported-encryption',
        'node-forge, which opens PKCS#12 files, could not be loaded; is it installed?',
      )
    },
  ),
)
