import { ConfigurationError, describeValue, type ImportSignerOptions } from '@fhir-auth/core'

/**
 * Checks `importSigner` options at run time. JavaScript callers exist, and a wrong type would
 * otherwise surface later as a `TypeError` or as a malformed JWS header.
 *
 * @throws ConfigurationError on `options`, `profile` (`smart` or `udap`), `jwtAlgorithm`,
 *   `advertisedAlgorithms`, `kid` or `certificateChain`, naming what was expected.
 */
export function checkSignerOptions(options: unknown): ImportSignerOptions {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError({
      invalidAttribute: 'options',
      invalidValue: describeValue(options),
      message: `importSigner needs an options object with a profile, not ${describeValue(options)}`,
    })
  }
  const candidate = options as Partial<Record<keyof ImportSignerOptions, unknown>>
  const { profile, algorithm, advertisedAlgorithms, kid, certificateChain } = candidate
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
    !(
      Array.isArray(advertisedAlgorithms) &&
      advertisedAlgorithms.every((name) => typeof name === 'string')
    )
  ) {
    throw new ConfigurationError({
      invalidAttribute: 'advertisedAlgorithms',
      invalidValue: advertisedAlgorithms,
      message: 'advertisedAlgorithms must be an array of JWS algorithm names',
    })
  }
  if (kid !== undefined && typeof kid !== 'string') {
    throw new ConfigurationError({ invalidAttribute: 'kid', invalidValue: kid })
  }
  if (
    certificateChain !== undefined &&
    !(Array.isArray(certificateChain) && certificateChain.every((der) => der instanceof Uint8Array))
  ) {
    throw new ConfigurationError({
      invalidAttribute: 'certificateChain',
      invalidValue: certificateChain,
      message: 'certificateChain must be an array of DER certificates (Uint8Array), leaf first',
    })
  }
  return options as ImportSignerOptions
}
