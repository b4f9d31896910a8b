/**
 * The demo as a function of its inputs (arguments, environment, output streams) returning the
 * exit status, so tests can run it in-process and `main.ts` stays a few lines of process glue.
 */
import { writeFile } from 'node:fs/promises'
import { parseDemoArguments, UsageError } from './cli-args.js'
import { DemoContext } from './demo-context.js'
import { describeFailure } from './failure-text.js'
import type { WalkProgress, WalkResult } from './flow.js'
import { helpText } from './help-text.js'
import { SecretLedger, secretsFileVariable } from './secret-ledger.js'
import { createTerminalStyle, shouldUseColour } from './terminal-style.js'
import { type TextWriter, Transcript } from './transcript.js'
import { readTrustFiles } from './trust-files.js'

/** What the demo reads and writes. */
export interface DemoIo {
  /** The arguments after the script name. */
  readonly argv: readonly string[]
  readonly environment: Readonly<Record<string, string | undefined>>
  readonly stdout: TextWriter
  readonly stderr: TextWriter
  /** Whether standard output is a terminal (colours by default). */
  readonly stdoutIsTerminal: boolean
  /** The terminal's width in columns; transcript lines are wrapped to it. Absent: not wrapped. */
  readonly columns?: number | undefined
}

/** Exit statuses: success, a failed flow (or start-up, or the time limit), a bad command line. */
export const exitStatus = { success: 0, failure: 1, usage: 2 } as const

const programName = 'fhir-auth demo'

/**
 * Runs the demo: `--help`, the sandbox walk, or the `--base-url` walk. Writes the transcript to
 * `stdout` and, on failure, exactly one line to `stderr`.
 *
 * @returns the exit status (see {@link exitStatus}).
 */
export async function runDemo(io: DemoIo): Promise<number> {
  let options: ReturnType<typeof parseDemoArguments>
  let trust: Awaited<ReturnType<typeof readTrustFiles>>
  try {
    options = parseDemoArguments(io.argv)
    if (options.help) {
      io.stdout(helpText)
      return exitStatus.success
    }
    trust = await readTrustFiles(options.trustAnchorFiles, options.crlFiles)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.stderr(`${programName}: ${error.message} (see --help)\n`)
    return exitStatus.usage
  }

  const ledger = new SecretLedger()
  const style = createTerminalStyle(
    shouldUseColour({
      noColorFlag: options.noColor,
      isTerminal: io.stdoutIsTerminal,
      environment: io.environment,
    }),
  )
  const transcript = new Transcript(io.stdout, style, ledger, io.columns)
  const context = new DemoContext(transcript, ledger)
  const progress: WalkProgress = { current: { number: 0, title: 'start-up' }, abandoned: false }
  const fail = (line: string) => {
    io.stderr(`${ledger.scrub(`${programName} ${line}`)}\n`)
    return exitStatus.failure
  }
  const startedAt = performance.now()
  try {
    // Loaded on demand: --help answers at once, and --base-url never loads the sandboxes.
    const { baseUrl } = options
    const walk =
      baseUrl === undefined
        ? import('./sandbox-walk.js').then(({ runSandboxWalk }) =>
            runSandboxWalk(context, progress),
          )
        : import('./remote-walk.js').then(({ runRemoteWalk }) =>
            runRemoteWalk(context, baseUrl, trust, progress),
          )
    const outcome = await withinTimeLimit(walk, options.timeoutSeconds * 1000)
    const seconds = ((performance.now() - startedAt) / 1000).toFixed(1)
    if (outcome === 'timed-out') {
      const where = progress.current
      progress.abandoned = true
      transcript.close()
      return fail(
        `timed out after ${options.timeoutSeconds} s${where === undefined ? '' : ` in ${describeSection(where)}`}`,
      )
    }
    transcript.summary(summaryLine(outcome, seconds), outcome.failures.length === 0)
    const secrets = ledger.entries.length
    const facts = [
      count(context.recorder.exchanges.length, 'HTTP exchange'),
      ...(secrets > 0 ? [`${count(secrets, 'secret value')} kept out of this transcript`] : []),
      count(transcript.lineCount + 1, 'line'),
    ]
    transcript.note(facts.join('; '))
    const [first] = outcome.failures
    if (first === undefined) return exitStatus.success
    return fail(`failed in ${describeSection(first)}: ${describeFailure(first.error)}`)
  } catch (error) {
    const where = progress.current
    return fail(
      `failed${where === undefined ? '' : ` in ${describeSection(where)}`}: ${describeFailure(error)}`,
    )
  } finally {
    await writeSecretsFile(io.environment[secretsFileVariable], ledger)
  }
}

function summaryLine(result: WalkResult, seconds: string): string {
  const { total, passed, skipped, failures } = result
  if (failures.length === 0 && skipped === 0) return `${total} flows, all passed in ${seconds} s`
  const parts = [`${passed} passed`]
  if (skipped > 0) parts.push(`${skipped} skipped`)
  if (failures.length > 0) parts.push(`${failures.length} failed`)
  const notRun = total - passed - skipped - failures.length
  if (notRun > 0) parts.push(`${notRun} not run`)
  return `${total} flows: ${parts.join(', ')} in ${seconds} s`
}

function count(amount: number, noun: string): string {
  return `${amount} ${noun}${amount === 1 ? '' : 's'}`
}

function describeSection(section: { readonly number: number; readonly title: string }): string {
  return section.number === 0 ? section.title : `section ${section.number} (${section.title})`
}

/** Resolves with the walk's result, or `'timed-out'` when the limit passes first. */
async function withinTimeLimit<T>(
  work: Promise<T>,
  milliseconds: number,
): Promise<T | 'timed-out'> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const limit = new Promise<'timed-out'>((resolve) => {
    timer = setTimeout(() => resolve('timed-out'), milliseconds)
  })
  try {
    return await Promise.race([work, limit])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * For tests only: with `FHIR_AUTH_DEMO_SECRETS_FILE` set, writes every secret the run used to
 * that file (owner-readable only), so a test can scan the output for them.
 */
async function writeSecretsFile(path: string | undefined, ledger: SecretLedger): Promise<void> {
  if (path === undefined || path === '') return
  await writeFile(path, JSON.stringify({ secrets: ledger.entries }), { mode: 0o600 })
}
