import type { CryptoBackend, Logger } from '@fhir-auth/core'
import type { OptionSpec, ParsedFlags } from '../args.js'
import type { ExitCode } from '../exit-codes.js'
import type { CliIo } from '../io.js'
import type { SecretRedactor } from '../output/secret-redactor.js'
import type { Output } from '../output.js'

/** What every command gets from `run`: the streams, the writer and the run-wide settings. */
export interface CommandContext {
  readonly io: CliIo
  readonly output: Output
  /** Register every secret the command reads or receives, so stderr never shows it. */
  readonly secrets: SecretRedactor
  /** The library's logger for this run (warnings on stderr; more with `--verbose`). */
  readonly logger: Logger
  /** The Node crypto backend, shared by the client and PKCS#12 loading. */
  readonly crypto: CryptoBackend
  /** `--timeout`, when given. */
  readonly timeoutMs: number | undefined
  /** `--allow-insecure-localhost`. */
  readonly allowInsecureLocalhost: boolean
}

/** A positional argument, for `--help`. */
export interface PositionalSpec {
  readonly name: string
  readonly description: string
  readonly isRequired: boolean
  /** The last positional only: it takes every remaining argument. */
  readonly isVariadic?: boolean
}

/**
 * One `fhir-auth` command: its help text and options (one table serves both parsing and
 * `--help`), and what it does.
 */
export interface Command {
  readonly name: string
  /** One line for the command list. */
  readonly summary: string
  /** Usage lines after `fhir-auth <name> `, e.g. `<fhir-base> [--udap --trust-anchor <file>…]`. */
  readonly synopsis: readonly string[]
  readonly positionals: readonly PositionalSpec[]
  /** The command's own options; the global ones are added by `run`. */
  readonly options: readonly OptionSpec[]
  /** Paragraphs shown at the end of `--help` (output, secrets, examples). */
  readonly notes: readonly string[]
  /** Where to fix a library `ConfigurationError` attribute, when it differs from the default hints. */
  readonly attributeHints?: Readonly<Record<string, string>>
  /**
   * Runs the command and writes its result; an exit code when it is not success although
   * nothing threw (`doctor` after a failed check).
   *
   * @throws any fhir-auth error; `run` turns it into an exit code and an error line.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: most commands are `Promise<void>` and return nothing
  execute(flags: ParsedFlags, context: CommandContext): Promise<ExitCode | void>
}
