import { wrongType } from './wrong-type.js'

/**
 * An optional scope list: absent (`undefined` or `null`) stays `undefined`; otherwise it must be
 * an array of strings, returned as given (blank entries included).
 *
 * @throws ConfigurationError on `attribute` for anything else.
 * @internal
 */
export function optionalScopes(value: unknown, attribute: string): readonly string[] | undefined {
  if (value === undefined || value === null) return undefined
  if (Array.isArray(value) && value.every((scope) => typeof scope === 'string')) return value
  const kind = Array.isArray(value) ? 'an array with an entry that is not a string' : undefined
  throw wrongType(attribute, 'an array of strings', value, false, kind)
}
