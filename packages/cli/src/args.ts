import { parseArgs } from 'node:util'
import { ConfigurationError, describeValue } from '@fhir-auth/core'

/** The protocols a command speaks; `--udap` selects UDAP, SMART is the default. */
export type CliProtocol = 'smart' | 'udap'

/** One command-line option, as parsed and as shown in `--help`. */
export interface OptionSpec {
  /** The long name without dashes, e.g. `base-url`. */
  readonly name: string
  readonly kind: 'string' | 'boolean'
  /** May be given more than once (values are kept in order). */
  readonly repeatable?: boolean
  /** A one-letter alias, e.g. `h` for `--help`. */
  readonly short?: string
  /** The value's placeholder in help text, e.g. `file`. */
  readonly valueName?: string
  readonly description: string
  /** The protocol the option belongs to; absent when it applies to both. */
  readonly protocol?: CliProtocol
}

/** Options every command takes. */
export const globalOptions: readonly OptionSpec[] = [
  {
    name: 'json',
    kind: 'boolean',
    description: 'machine output: one JSON document per line on stdout',
  },
  {
    name: 'verbose',
    kind: 'boolean',
    description: 'error detail (class, code, reason, status, cause chain) and library logs',
  },
  {
    name: 'timeout',
    kind: 'string',
    valueName: 'ms',
    description: 'time limit per HTTP request in milliseconds (default 10000)',
  },
  {
    name: 'allow-insecure-localhost',
    kind: 'boolean',
    description: 'permit plain HTTP to loopback hosts (development and tests only)',
  },
  { name: 'help', kind: 'boolean', short: 'h', description: 'show this help' },
]

/** Errors made by {@link usageError}; weak, so nothing outlives its run. */
const usageErrors = new WeakSet<object>()

/**
 * A command-line problem (unknown, missing, repeated or conflicting flags): a
 * `ConfigurationError` whose `invalidAttribute` is the flag (`--scope`), after which `run`
 * prints the command's usage. A flag whose *value* cannot be used (a missing file) is a plain
 * `ConfigurationError` on the flag instead: the usage would not help there.
 */
export function usageError(flag: string, message: string): ConfigurationError {
  const error = new ConfigurationError({ invalidAttribute: flag, message })
  usageErrors.add(error)
  return error
}

/** True for an error made by {@link usageError}. */
export function isUsageError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && usageErrors.has(error)
}

/**
 * The options and positional arguments of one command line, read through typed accessors.
 * Absent options read as `undefined`, `false` or `[]`.
 */
export class ParsedFlags {
  readonly positionals: readonly string[]
  readonly #values: ReadonlyMap<string, readonly string[] | true>

  constructor(
    values: ReadonlyMap<string, readonly string[] | true>,
    positionals: readonly string[],
  ) {
    this.#values = values
    this.positionals = positionals
  }

  /** True when the option was given. */
  has(name: string): boolean {
    return this.#values.has(name)
  }

  /** The names of every option given, in no particular order. */
  names(): string[] {
    return [...this.#values.keys()]
  }

  /** A boolean option. */
  flag(name: string): boolean {
    return this.#values.get(name) === true
  }

  /** A single-valued string option. */
  string(name: string): string | undefined {
    const value = this.#values.get(name)
    return value === undefined || value === true ? undefined : value[0]
  }

  /** Every value of a repeatable string option, in command-line order. */
  strings(name: string): readonly string[] {
    const value = this.#values.get(name)
    return value === undefined || value === true ? [] : value
  }

  /**
   * A string option the command cannot do without.
   *
   * @throws ConfigurationError on `--<name>` (a usage error) when it is absent or blank.
   */
  requireString(name: string, why?: string): string {
    const value = this.string(name)
    if (value !== undefined && value.trim() !== '') return value
    throw usageError(`--${name}`, `--${name} is required${why === undefined ? '' : ` ${why}`}`)
  }
}

/**
 * Parses a command's arguments against its option specs (plus {@link globalOptions}).
 *
 * Messages never echo a value. An unknown option, a value for a boolean option, a string option
 * at the end of the line (no value), a single-valued option given twice, and more positional
 * arguments than `maximumPositionals` are all refused. A string option takes the next argument
 * as its value whatever it starts with (`--state -Xy…`), as `--state=-Xy…` does.
 *
 * @throws ConfigurationError on the offending flag (a usage error, exit code 2).
 */
export function parseFlags(
  argv: readonly string[],
  specs: readonly OptionSpec[],
  maximumPositionals: number,
): ParsedFlags {
  const byName = new Map(specs.map((spec) => [spec.name, spec]))
  const { tokens } = parseArgs({
    args: [...argv],
    options: Object.fromEntries(
      specs.map((spec) => [
        spec.name,
        spec.short === undefined ? { type: spec.kind } : { type: spec.kind, short: spec.short },
      ]),
    ),
    strict: false,
    allowPositionals: true,
    tokens: true,
  })
  const values = new Map<string, string[] | true>()
  const positionals: string[] = []
  for (const token of tokens) {
    if (token.kind === 'positional') {
      positionals.push(token.value)
      continue
    }
    if (token.kind !== 'option') continue
    // parseArgs names a known short option by its long name, an unknown one by its letter.
    const spec = byName.get(token.name)
    if (spec === undefined) throw usageError(token.rawName, `unknown option ${token.rawName}`)
    const flag = `--${spec.name}`
    if (spec.kind === 'boolean') {
      if (token.value !== undefined) throw usageError(flag, `${flag} takes no value`)
      values.set(spec.name, true)
      continue
    }
    // A flag that takes a value takes the next argument, whatever it starts with: `state`,
    // verifiers and tokens are base64url and start with "-" about one time in 64.
    const value = token.value
    if (value === undefined) throw usageError(flag, `${flag} needs a value`)
    const previous = values.get(spec.name)
    if (previous !== undefined && previous !== true) {
      if (spec.repeatable !== true) throw usageError(flag, `${flag} may be given only once`)
      previous.push(value)
    } else {
      values.set(spec.name, [value])
    }
  }
  if (positionals.length > maximumPositionals) {
    const extra = positionals[maximumPositionals] ?? ''
    throw usageError(
      '--',
      `unexpected argument ${describeValue(extra)}${maximumPositionals === 0 ? ': this command takes options only' : ''}`,
    )
  }
  return new ParsedFlags(values, positionals)
}

/**
 * Refuses options that belong to the other protocol (`--kid` with `--udap`, `--cancel`
 * without it), so a mistyped command line never runs half of what the user meant.
 *
 * @throws ConfigurationError on the first such flag (a usage error).
 */
export function checkProtocolOptions(
  flags: ParsedFlags,
  specs: readonly OptionSpec[],
  protocol: CliProtocol,
): void {
  for (const spec of specs) {
    if (spec.protocol === undefined || spec.protocol === protocol || !flags.has(spec.name)) continue
    throw usageError(
      `--${spec.name}`,
      spec.protocol === 'udap'
        ? `--${spec.name} is a UDAP option: add --udap`
        : `--${spec.name} is a SMART option and cannot be used with --udap`,
    )
  }
}

/**
 * Reads `--timeout`: a positive whole number of milliseconds.
 *
 * @throws ConfigurationError on `--timeout` (a usage error).
 */
export function readTimeout(flags: ParsedFlags): number | undefined {
  const text = flags.string('timeout')
  if (text === undefined) return undefined
  const value = Number(text)
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value <= 0) {
    throw usageError('--timeout', `--timeout must be a positive whole number of milliseconds`)
  }
  return value
}

/**
 * Scopes from repeatable `--scope` values; each value may also hold several space-separated
 * scopes. No `--scope` at all is `undefined` (the library then applies its own rules); an
 * explicitly empty one (`--scope ''`) is refused rather than read as "no scopes", which would
 * silently request the library's deprecated `system/*.rs` fallback.
 *
 * @throws ConfigurationError on `--scope` (a usage error) for a blank value.
 */
export function readScopes(flags: ParsedFlags): readonly string[] | undefined {
  const values = flags.strings('scope')
  if (values.some((value) => value.trim() === '')) {
    throw usageError(
      '--scope',
      '--scope is empty: give at least one scope, e.g. --scope system/Patient.rs',
    )
  }
  const scopes = values.flatMap((value) => value.split(/\s+/).filter(Boolean))
  return scopes.length === 0 ? undefined : scopes
}

/**
 * Refuses options that only mean something together with another one (`--kid` without `--key`).
 *
 * @throws ConfigurationError on the first such flag (a usage error).
 */
export function checkOnlyWith(
  flags: ParsedFlags,
  dependents: readonly string[],
  owner: string,
): void {
  for (const flag of dependents) {
    if (flags.has(flag)) throw usageError(`--${flag}`, `--${flag} is only used with --${owner}`)
  }
}

/**
 * Refuses two options that exclude each other.
 *
 * @throws ConfigurationError on the second flag (a usage error).
 */
export function checkExclusive(flags: ParsedFlags, first: string, second: string): void {
  if (flags.has(first) && flags.has(second)) {
    throw usageError(`--${second}`, `--${first} and --${second} cannot be used together`)
  }
}
