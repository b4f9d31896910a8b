/**
 * The demo's command line: no options runs the full walk against the local sandboxes;
 * `--base-url` points it at a real server (discovery only).
 */

/** The parsed command line. */
export interface DemoArguments {
  readonly help: boolean
  /** A real FHIR server's base URL; `undefined` runs the sandbox walk. */
  readonly baseUrl: string | undefined
  /** UDAP trust anchor files (PEM), in the order given. */
  readonly trustAnchorFiles: readonly string[]
  /** CRL files (PEM or DER), in the order given. */
  readonly crlFiles: readonly string[]
  readonly noColor: boolean
  /** The time limit for the whole run. */
  readonly timeoutSeconds: number
}

/** A command line the demo cannot run with; the message says what to change. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/** The default time limit: the sandbox walk takes a few seconds, a slow real server longer. */
export const defaultTimeoutSeconds = 60

const valueOptions = new Set(['--base-url', '--trust-anchor', '--crl', '--timeout'])

/**
 * Parses `argv` (without `node` and the script). Accepts `--name value` and `--name=value`;
 * a leading `--` (as some package managers pass it) is ignored.
 *
 * @throws UsageError for an unknown option, a missing value, a base URL that is not an
 *   absolute http(s) URL, trust inputs without `--base-url`, or a time limit that is not a
 *   positive number.
 */
export function parseDemoArguments(argv: readonly string[]): DemoArguments {
  let help = false
  let noColor = false
  let baseUrl: string | undefined
  let timeoutSeconds = defaultTimeoutSeconds
  const trustAnchorFiles: string[] = []
  const crlFiles: string[] = []
  const words = argv[0] === '--' ? argv.slice(1) : [...argv]
  for (let index = 0; index < words.length; index++) {
    const word = words[index] ?? ''
    const [name = '', inlineValue] = word.startsWith('--') ? splitOnce(word, '=') : [word]
    if (name === '--help' || name === '-h') {
      help = true
      continue
    }
    if (name === '--no-color' || name === '--no-colour') {
      noColor = true
      continue
    }
    if (!valueOptions.has(name)) {
      throw new UsageError(
        word.startsWith('-') ? `unknown option ${word}` : `unexpected argument ${word}`,
      )
    }
    let value = inlineValue
    if (value === undefined) {
      const next = words[index + 1]
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${name} needs a value`)
      value = next
      index++
    }
    if (name === '--base-url') baseUrl = checkBaseUrl(value)
    else if (name === '--trust-anchor') trustAnchorFiles.push(value)
    else if (name === '--crl') crlFiles.push(value)
    else timeoutSeconds = checkTimeout(value)
  }
  if (baseUrl === undefined && trustAnchorFiles.length + crlFiles.length > 0) {
    throw new UsageError(
      '--trust-anchor and --crl apply to --base-url (the sandbox walk brings its own trust)',
    )
  }
  return { help, baseUrl, trustAnchorFiles, crlFiles, noColor, timeoutSeconds }
}

function splitOnce(word: string, separator: string): [string, string | undefined] {
  const at = word.indexOf(separator)
  return at < 0 ? [word, undefined] : [word.slice(0, at), word.slice(at + 1)]
}

function checkBaseUrl(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new UsageError(`--base-url must be an absolute URL, got ${JSON.stringify(value)}`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`--base-url must be an http(s) URL, got ${JSON.stringify(value)}`)
  }
  return value
}

function checkTimeout(value: string): number {
  const seconds = Number(value)
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(
      `--timeout must be a positive number of seconds, got ${JSON.stringify(value)}`,
    )
  }
  return seconds
}
