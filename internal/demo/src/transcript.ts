/**
 * The demo's output: numbered sections, the library calls made, what went over the wire and
 * what came back, as aligned, optionally coloured lines. Every line passes the secret ledger's
 * scrub before it is written (see {@link SecretLedger}).
 */
import { fitToWidth } from './fit-width.js'
import type { SecretLedger } from './secret-ledger.js'
import type { TerminalStyle } from './terminal-style.js'

/** Where transcript text goes (standard output in `pnpm demo`, a buffer in tests). */
export type TextWriter = (text: string) => void

/**
 * One aligned `name  value` row. `continuation` lines continue the value in its column;
 * `children` are rows printed indented below it.
 */
export interface TranscriptRow {
  readonly name: string
  readonly value: string
  readonly continuation?: readonly string[]
  readonly children?: readonly TranscriptRow[]
}

const indentUnit = '  '

/** Writes the demo transcript. */
export class Transcript {
  readonly style: TerminalStyle
  readonly #write: TextWriter
  readonly #ledger: SecretLedger
  #lineCount = 0
  #closed = false

  readonly #width: number | undefined

  /**
   * @param width the terminal's width in columns: longer lines are wrapped to it; `undefined`
   *   (not a terminal) writes lines whole.
   */
  constructor(write: TextWriter, style: TerminalStyle, ledger: SecretLedger, width?: number) {
    this.#write = write
    this.style = style
    this.#ledger = ledger
    this.#width = width
  }

  /** How many lines have been written: the demo reports its output length. */
  get lineCount(): number {
    return this.#lineCount
  }

  /** The banner at the top. */
  title(text: string, subtitle?: string): void {
    this.#line(this.style.bold(text))
    if (subtitle !== undefined) this.#line(this.style.dim(subtitle))
  }

  /** A numbered section heading, preceded by a blank line. */
  section(number: number, title: string): void {
    this.#line('')
    this.#line(this.style.bold(this.style.cyan(`${String(number).padStart(2)}. ${title}`)))
  }

  /** The library (or sandbox) call about to run, as code. */
  call(code: string): void {
    this.#line(`${indentUnit}${this.style.magenta('▸')} ${this.style.bold(code)}`)
  }

  /** A request line: `→ POST http://…/token  form`. */
  request(method: string, url: string, detail?: string): void {
    const suffix = detail === undefined ? '' : `  ${this.style.dim(detail)}`
    this.#line(`${indentUnit}${this.style.blue('→')} ${method} ${url}${suffix}`)
  }

  /** A response line: `← 200 application/json`. */
  response(status: number, detail?: string): void {
    const painted = status < 300 ? this.style.green(String(status)) : this.style.red(String(status))
    const suffix = detail === undefined ? '' : `  ${this.style.dim(detail)}`
    this.#line(`${indentUnit}${this.style.blue('←')} ${painted}${suffix}`)
  }

  /** Aligned `name  value` rows under the previous line, with nested rows indented further. */
  rows(rows: readonly TranscriptRow[], depth = 2): void {
    const width = Math.max(0, ...rows.map((row) => row.name.length))
    const indent = indentUnit.repeat(depth)
    for (const row of rows) {
      const name = this.style.dim(row.name.padEnd(width))
      this.#line(`${indent}${name}  ${row.value}`.trimEnd())
      for (const line of row.continuation ?? [])
        this.#line(`${indent}${' '.repeat(width)}  ${line}`)
      if (row.children !== undefined && row.children.length > 0) this.rows(row.children, depth + 1)
    }
  }

  /** An explanation: why something happens, or what to notice. */
  note(text: string): void {
    this.#line(`${indentUnit}${this.style.dim(text)}`)
  }

  /** A check that held. */
  ok(text: string): void {
    this.#line(`${indentUnit}${this.style.green('✔')} ${text}`)
  }

  /** Something refused on purpose (the library or server doing its job). */
  refused(text: string): void {
    this.#line(`${indentUnit}${this.style.red('✘')} ${text}`)
  }

  /** A warning the library logged. */
  warning(text: string): void {
    this.#line(`${indentUnit}${this.style.yellow(`⚠ ${text}`)}`)
  }

  /** Something skipped, and why. */
  skipped(text: string): void {
    this.#line(`${indentUnit}${this.style.yellow('–')} ${text}`)
  }

  /** The closing line. */
  summary(text: string, passed: boolean): void {
    this.#line('')
    this.#line(this.style.bold(passed ? this.style.green(text) : this.style.red(text)))
  }

  /** Ignores every later write: work abandoned at the time limit must not print after the verdict. */
  close(): void {
    this.#closed = true
  }

  #line(text: string): void {
    if (this.#closed) return
    // Scrubbed whole, then wrapped: a secret split over two rows would escape the scrub.
    for (const row of fitToWidth(this.#ledger.scrub(text), this.#width)) {
      this.#lineCount++
      this.#write(`${row}\n`)
    }
  }
}
