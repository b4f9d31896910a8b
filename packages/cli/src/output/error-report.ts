import { FhirAuthError } from '@fhir-auth/core'
import { causeLinks } from '../cause-chain.js'
import { type Output, oneLine } from '../output.js'
import { defaultAttributeHints } from './flag-hints.js'

/** The fields of an error that are safe and useful to show; never `invalidValue` (it may be a secret). */
const detailFields = [
  'code',
  'reason',
  'status',
  'error',
  'errorDescription',
  'errorUri',
  'invalidAttribute',
  'validValues',
  'endpoint',
  'url',
  'subject',
] as const

/** A secret-free summary of one error: its class, message and the fields in {@link detailFields}. */
interface ErrorSummary {
  readonly name: string
  readonly message: string
  readonly [field: string]: unknown
}

/**
 * Reports a failed command: one line `error: <message>` on stderr (plus a hint naming the flag
 * to fix when a `ConfigurationError` names a library attribute), the class, fields and `cause`
 * chain with `--verbose`, and with `--json` an `{"error": …}` document on stdout so scripts
 * get a machine-readable reason too. Everything passes the run's secret redactor.
 */
export function reportError(
  output: Output,
  error: unknown,
  attributeHints: Readonly<Record<string, string>> = defaultAttributeHints,
): void {
  const chain = causeLinks(error).map(summarise)
  const [first] = chain
  const message = first === undefined ? 'unknown failure' : first.message
  // One hint at most: a message that already names a flag (the library's advice, in flags)
  // gets no second one.
  const hint = namesFlag(message) ? undefined : attributeHint(error, attributeHints)
  output.stderr(`error: ${oneLine(message)}${hint === undefined ? '' : ` (${hint})`}\n`)
  if (output.isVerbose) output.stderr(verboseDetail(chain, error))
  if (output.isJson) output.errorDocument({ error: { ...first, causes: chain.slice(1) } })
}

/**
 * Library options as the CLI user writes them: the library's messages name its options
 * (`allowInsecureLocalhost`), a CLI user knows the flags.
 */
const optionFlags: ReadonlyArray<readonly [RegExp, string]> = [
  [/\ballowInsecureLocalhost\b/g, '--allow-insecure-localhost'],
  [/\bbasicAuthEncoding\b/g, '--basic-auth-encoding'],
]

function inFlags(message: string): string {
  return optionFlags.reduce((text, [option, flag]) => text.replace(option, flag), message)
}

function namesFlag(message: string): boolean {
  return /(^|[\s(])--[a-z]/.test(message)
}

function summarise(error: unknown): ErrorSummary {
  if (!(error instanceof Error)) return { name: typeof error, message: String(error) }
  const isOurs = FhirAuthError.isFhirAuthError(error)
  const summary: Record<string, unknown> = {
    name: error.name,
    // A foreign error is a bug or a runtime failure: say so instead of passing it off as ours.
    message: isOurs
      ? inFlags(error.message)
      : `unexpected failure (${error.name}): ${error.message}`,
  }
  const record = error as unknown as Record<string, unknown>
  for (const field of detailFields) {
    const value = record[field]
    if (typeof value === 'string' || typeof value === 'number') summary[field] = value
    else if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
      summary[field] = value
  }
  return summary as ErrorSummary
}

function attributeHint(
  error: unknown,
  hints: Readonly<Record<string, string>>,
): string | undefined {
  if (!FhirAuthError.isFhirAuthError(error) || error.code !== 'ERR_CONFIGURATION') return undefined
  const attribute = (error as unknown as Record<string, unknown>).invalidAttribute
  if (typeof attribute !== 'string' || attribute.startsWith('--')) return undefined
  return Object.hasOwn(hints, attribute) ? hints[attribute] : undefined
}

function verboseDetail(chain: readonly ErrorSummary[], error: unknown): string {
  const lines: string[] = []
  chain.forEach((summary, index) => {
    const code = typeof summary.code === 'string' ? ` (${summary.code})` : ''
    lines.push(`  ${index === 0 ? '' : 'caused by '}${summary.name}${code}`)
    if (index > 0) lines.push(`    message: ${oneLine(summary.message)}`)
    for (const field of detailFields) {
      const value = summary[field]
      if (field === 'code' || value === undefined) continue
      lines.push(`    ${field}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    }
  })
  // An unexpected error is a bug: its stack is what a bug report needs.
  if (error instanceof Error && !FhirAuthError.isFhirAuthError(error) && error.stack) {
    lines.push(...error.stack.split('\n').map((line) => `    ${line.trim()}`))
  }
  return `${lines.join('\n')}\n`
}
