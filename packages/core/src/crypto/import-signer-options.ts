import { readOptions } from '../checks/options-object.js'
import { ConfigurationError } from '../errors/configuration-error.js'
import type { ImportSignerOptions } from './backend.js'

/**
 * Checks the options of `importSigner` at run time, since JavaScript callers exist and a wrong
 * type would otherwise surface later as a `TypeError` or a malformed JWS header.
 *
 * @throws ConfigurationError on `options` (not a readable object), `profile`, `jwtAlgorithm`,
 *   `advertisedAlgorithms`, `kid` or `certificateChain`, naming what was expected.
 */
export function checkImportSignerOptions(options: unknown): ImportSignerOptions {
  const { profile, algorithm, advertisedAlgorithms, kid, certificateChain } = readOptions(
    options as Partial<Record<keyof ImportSignerOptions, unknown>>,
    'importSigner',
    { required: true },
  )
  if (profile !== 'smart' && profile !== 'udap') {
    throw new ConfigurationError({
      invalidAttribute: 'profile',
      invalidValue: profile,
      validValues: ['smart', 'udap'],
    })
  }
  if (algorithm !== undefined && typeof algorithm !== 'string') {
    throw new ConfigurationError({ invalidAttribute: 'jwtAlgorithm', invalidValue: algorithm })
  }
  if (
    advertisedAlgorithms !== undefined &&
    !(Array.isArray(advertisedAlgorithms) && advertisedAlgorithms.every(isString))
  ) {
    throw new ConfigurationError({
      invalidAttribute: 'advertisedAlgorithms',
      invalidValue: advertisedAlgorithms,
      message: 'advertisedAlgorithms must be an array of algorithm names',
    })
  }
  if (kid !== undefined && typeof kid !== 'string') {
    throw new ConfigurationError({ invalidAttribute: 'kid', invalidValue: kid })
  }
  if (
    certificateChain !== undefined &&
    !(
      Array.isArray(certificateChain) &&
      certificateChain.every((item) => item instanceof Uint8Array)
    )
  ) {
    throw new ConfigurationError({
      invalidAttribute: 'certificateChain',
      invalidValue: certificateChain,
      message: 'certificateChain must be an array of DER certificates (Uint8Array), leaf first',
    })
  }
  return { profile, algorithm, advertisedAlgorithms, kid, certificateChain } as ImportSignerOptions
}

function isString(value: unknown): value is string {
  return typeof value === 'string'
}
