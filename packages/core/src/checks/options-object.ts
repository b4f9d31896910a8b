import { ConfigurationError, describeValue } from '../errors/configuration-error.js'
import { describeKind } from './describe-kind.js'

/** How {@link readOptions} treats an options object. */
export interface ReadOptionsRules {
  /** The accepted member names; any other own member is an "unknown attribute" error. */
  readonly known?: readonly string[] | undefined
  /**
   * What the error calls a member: `attribute` (default: configuration attributes, `Client`
   * options) or `option` (an operation's options: "unknown option", "valid options").
   */
  readonly noun?: 'attribute' | 'option' | undefined
  /** True when the call cannot go without an options object (the functional APIs). */
  readonly required?: boolean | undefined
  /** The error's `invalidAttribute` when the object itself is wrong; default `options`. */
  readonly attribute?: string | undefined
  /** What messages call the object; default `options of <operation>`. */
  readonly description?: string | undefined
}

/**
 * Reads an options object (or a configuration) a JavaScript caller passed, once: a
 * null-prototype copy of its own enumerable members, so inherited members (a polluted
 * `Object.prototype`, a prototype given on purpose) are never read and a getter runs only
 * here. `undefined` and `null` give `{}` unless `rules.required`.
 *
 * Unknown names are refused when `rules.known` is given — own members only, so `constructor`,
 * `__proto__` (as `JSON.parse` makes it) and `toString` are unknown like any other typo, which
 * must not silently turn a confidential client into a public one, nor `scope` for `scopes`
 * silently ask for the configured scopes.
 *
 * @param operation - the function or operation the object is for, named in messages.
 * @throws ConfigurationError on `options` (or `rules.attribute`) for anything but an object, or
 *   one whose members cannot be read (a throwing getter or Proxy trap); on the unknown member's
 *   name, with a message saying "unknown attribute" (or "unknown option", as `rules.noun` says)
 *   and `validValues` listing the known names.
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0008-small-client-decisions.md
 * @internal
 */
export function readOptions<T extends object>(
  value: T | null | undefined,
  operation: string,
  rules: ReadOptionsRules = {},
): Partial<T> {
  const where = rules.description ?? `options of ${operation}`
  if ((value === undefined || value === null) && rules.required !== true) return {}
  const copy: Record<string, unknown> = Object.create(null)
  const kind = describeKind(value)
  let names: string[] | undefined
  if (kind === 'an object') {
    try {
      names = Object.keys(value as object)
      for (const name of names) copy[name] = (value as Record<string, unknown>)[name]
    } catch {
      // A throwing getter or Proxy trap: the caller's error (it could quote anything) is dropped.
      names = undefined
    }
  }
  if (names === undefined) {
    throw new ConfigurationError({
      invalidAttribute: rules.attribute ?? 'options',
      invalidValue: kind,
      message: `${where} must be a readable object, not ${kind}`,
    })
  }
  const { known } = rules
  const unknown = known && names.find((name) => !known.includes(name))
  if (known !== undefined && unknown !== undefined) {
    const noun = rules.noun ?? 'attribute'
    throw new ConfigurationError({
      invalidAttribute: unknown,
      validValues: known,
      message: `unknown ${noun} ${describeValue(unknown)} in ${where}; valid ${noun}s: ${known.join(', ')}`,
    })
  }
  return copy as Partial<T>
}

/**
 * One key per member of an options type `T` (optional members included), for
 * {@link optionNames}; also types the parts several options types share, so that each part is
 * checked against the type it stands for.
 *
 * @internal
 */
export type OptionNameSet<T extends object> = { readonly [Name in keyof Required<T>]: 1 }

/**
 * The member names of an options type, for {@link readOptions}'s `known`: written once, next to
 * the type, as an object with one key per member. The compiler refuses a missing member (every
 * key of `T` is required) and, in the object written here, a member `T` does not have (an excess
 * property), so the names a caller is checked against cannot drift from the type a caller sees.
 *
 * @example
 * ```ts
 * const refreshOptionNames = optionNames<SessionRefreshOptions>({ scopes: 1, signal: 1 })
 * ```
 * @internal
 */
export function optionNames<T extends object>(members: OptionNameSet<T>): readonly string[] {
  return Object.freeze(Object.keys(members))
}
