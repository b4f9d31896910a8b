/**
 * A readable, coloured transcript for the demo: numbered steps, what is sent, what comes back.
 * Every value passes through core's redaction first, so tokens, codes, verifiers, assertions and
 * secrets never reach the terminal.
 */
import { redactFields, redactUrl } from '@fhir-auth/core'

const useColour = process.stdout.isTTY && process.env.NO_COLOR === undefined
const paint = (code: number) => (text: string) => (useColour ? `\u001b[${code}m${text}\u001b[0m` : text)
export const bold = paint(1)
export const dim = paint(2)
export const green = paint(32)
export const red = paint(31)
export const cyan = paint(36)
export const yellow = paint(33)

let stepNumber = 0

/** Prints a step heading. */
export function step(title: string): void {
  stepNumber++
  console.log(`\n${bold(cyan(`${String(stepNumber).padStart(2, '0')}. ${title}`))}`)
}

/** Prints something the client sends (URL or parameters), redacted. */
export function sent(label: string, value: unknown): void {
  console.log(`  ${yellow('→')} ${label}: ${render(value)}`)
}

/** Prints something that came back, redacted. */
export function received(label: string, value: unknown): void {
  console.log(`  ${green('←')} ${label}: ${render(value)}`)
}

/** Prints a note. */
export function note(text: string): void {
  console.log(`  ${dim(text)}`)
}

/** Prints a success line. */
export function ok(text: string): void {
  console.log(`  ${green('✔')} ${text}`)
}

/** Prints an expected failure (the library refusing something). */
export function refused(text: string): void {
  console.log(`  ${red('✘')} ${text}`)
}

function render(value: unknown): string {
  if (typeof value === 'string') return /^https?:\/\//.test(value) ? redactUrl(value) : String(redactFields(value))
  return JSON.stringify(redactFields(value), null, 2).replace(/\n/g, '\n    ')
}
