import { CryptoError } from '@fhir-auth/core'
import type { ForgeApi } from './forge-api.js'

let forgePromise: Promise<ForgeApi> | undefined

/**
 * node-forge (about 30 ms to load and a large module graph) is needed only to open PKCS#12
 * files, so it is imported on first use: importing this package, signing and chain
 * validation never load it.
 *
 * @throws CryptoError `pkcs12-unsupported-encryption` when node-forge cannot be loaded.
 * @internal
 */
export function loadForge(): Promise<ForgeApi> {
  forgePromise ??= import('node-forge').then(
    (module: unknown) => {
      // node-forge is CommonJS: its API is the default export of the ESM namespace.
      const api = (module as { default?: unknown }).default ?? module
      return api as ForgeApi
    },
    () => {
      forgePromise = undefined
      throw new CryptoError(
        'pkcs12-unsupported-encryption',
        'node-forge, which opens PKCS#12 files, could not be loaded; is it installed?',
      )
    },
  )
  return forgePromise
}
