import type { CliIo } from './io.js'
import type { SecretRedactor } from './output/secret-redactor.js'

/** How a run writes: `--json` and `--verbose`, and the redactor every stderr line goes through. */
export interface OutputSettings {
  readonly json: boolean
  readonly verbose: boolean
  readonly redactor: SecretRedactor
}

/**
 * The CLI's only writer. stdout carries results and nothing else: with `--json` one compact
 * JSON document per line (a single line for every command except an interactive `authorize`,
 * which first writes the authorization request); without it, text for a person. Everything
 * else — progress, prompts, warnings, errors — goes to stderr, always redacted.
 *
 * Results may hold secrets the user asked for (the token response of `token`, the
 * registration response with a `client_secret`); they are written to stdout as received.
 */
export class Output {
  readonly #io: CliIo
  readonly #settings: OutputSettings

  constructor(io: CliIo, settings: OutputSettings) {
    this.#io = io
    this.#settings = settings
  }

  /** True with `--json`. */
  get isJson(): boolean {
    return this.#settings.json
  }

  /** True with `--verbose`. */
  get isVerbose(): boolean {
    return this.#settings.verbose
  }

  /**
   * Writes a command's result: `document` as one JSON line with `--json`, else the text
   * `human()` builds (called only when needed).
   */
  result(document: unknown, human: () => string): void {
    if (this.#settings.json) this.#io.stdout.write(`${JSON.stringify(document)}\n`)
    else this.#io.stdout.write(human())
  }

  /**
   * Writes the `--json` error document to stdout, redacted like stderr: unlike a result, it is
   * not something the user asked to see secrets in.
   */
  errorDocument(document: unknown): void {
    this.#io.stdout.write(`${this.#settings.redactor.redact(JSON.stringify(document))}\n`)
  }

  /** Writes text to stdout as it is (help and version output). */
  plain(text: string): void {
    this.#io.stdout.write(text)
  }

  /**
   * A progress line for a slow step (`… discovering https://…`), shown only to a person:
   * stderr must be a terminal and `--json` off, so scripts and logs never see it.
   */
  progress(text: string): void {
    if (this.#settings.json || this.#io.stderr.isTTY !== true) return
    this.#stderr(`… ${text}\n`)
  }

  /** A prompt on stderr (no newline), so stdout stays clean for the result. */
  prompt(text: string): void {
    this.#stderr(text)
  }

  /** A warning line on stderr: `warning: <text>`. */
  warning(text: string): void {
    this.#stderr(`warning: ${oneLine(text)}\n`)
  }

  /** A detail line on stderr, shown only with `--verbose`. */
  detail(text: string): void {
    if (this.#settings.verbose) this.#stderr(`${text}\n`)
  }

  /** Text on stderr as it is (after redaction): error reports and usage after a usage error. */
  stderr(text: string): void {
    this.#stderr(text)
  }

  #stderr(text: string): void {
    this.#io.stderr.write(this.#settings.redactor.redact(text))
  }
}

/** Collapses line breaks, so a message from a server cannot spread over several lines. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim()
}
