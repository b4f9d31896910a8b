/**
 * The `Logger` every demo client gets: the library's warnings appear in the transcript as
 * yellow lines where they happen, its errors as a short dim line (the refusal that follows
 * says the same in full), and info is dropped (the transcript already says what runs).
 */
import type { LogFields, Logger } from '@fhir-auth/core'
import type { Transcript } from './transcript.js'

/** A line the library logged. */
export interface LoggedLine {
  readonly level: 'info' | 'warn' | 'error'
  readonly message: string
}

/** A logger that writes into the transcript and keeps what it was told. */
export class DemoLogger implements Logger {
  readonly #transcript: Transcript
  readonly #lines: LoggedLine[] = []

  constructor(transcript: Transcript) {
    this.#transcript = transcript
  }

  /** Everything logged so far, oldest first. */
  get lines(): readonly LoggedLine[] {
    return this.#lines
  }

  info(message: string): void {
    this.#lines.push({ level: 'info', message })
  }

  warn(message: string): void {
    this.#lines.push({ level: 'warn', message })
    this.#transcript.warning(`logger.warn: ${message}`)
  }

  error(message: string, fields?: LogFields): void {
    this.#lines.push({ level: 'error', message })
    const event = typeof fields?.event === 'string' ? fields.event : 'error'
    this.#transcript.note(`logger.error (${event}): the library logs the failure below`)
  }
}
