import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { type CliIo, run } from '../../src/index.js'

/** What one CLI run produced. */
export interface CliResult {
  readonly exitCode: number
  readonly stdout: string
  readonly stderr: string
}

/** Options of a captured run. */
export interface CaptureOptions {
  readonly env?: Readonly<Record<string, string | undefined>>
  readonly stdin?: AsyncIterable<string | Uint8Array>
  /** Pretend stderr is a terminal (progress lines appear only then). */
  readonly stderrIsTty?: boolean
}

/** An in-memory `CliIo` whose output the test can read, and wait for, while the run goes on. */
export function captureIo(options: CaptureOptions = {}) {
  let stdout = ''
  let stderr = ''
  const waiters: Array<() => void> = []
  const io: CliIo = {
    stdout: {
      write(text: string) {
        stdout += text
        for (const waiter of waiters.splice(0)) waiter()
        return true
      },
      isTTY: false,
    },
    stderr: {
      write(text: string) {
        stderr += text
        return true
      },
      isTTY: options.stderrIsTty ?? false,
    },
    stdin: options.stdin ?? emptyInput(),
    env: options.env ?? {},
  }
  return {
    io,
    stdout: () => stdout,
    stderr: () => stderr,
    /** Resolves with the first complete stdout line once it has been written. */
    async firstStdoutLine(): Promise<string> {
      while (!stdout.includes('\n')) await new Promise<void>((resolve) => waiters.push(resolve))
      return stdout.slice(0, stdout.indexOf('\n'))
    },
  }
}

/** Runs the CLI in-process with captured streams. */
export async function runCli(
  argv: readonly string[],
  options: CaptureOptions = {},
): Promise<CliResult> {
  const capture = captureIo(options)
  const exitCode = await run(argv, capture.io)
  return { exitCode, stdout: capture.stdout(), stderr: capture.stderr() }
}

/** A stdin the test feeds later: the run blocks on it until `send` is called. */
export function pendingInput() {
  let send: (text: string) => void = () => undefined
  const text = new Promise<string>((resolve) => {
    send = resolve
  })
  async function* lines(): AsyncGenerator<string> {
    yield await text
  }
  return { input: lines(), send: (value: string) => send(value) }
}

async function* emptyInput(): AsyncGenerator<string> {}

const packageDirectory = join(import.meta.dirname, '..', '..')

/** A real `fhir-auth` process on the sources (tsx, source condition), as a user's shell starts it. */
export function spawnCli(
  argv: readonly string[],
  options: {
    readonly env?: Readonly<Record<string, string>>
    readonly onStdout?: (text: string, stdin: NodeJS.WritableStream) => void
  } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=@fhir-auth/source', 'src/main.ts', ...argv],
      { cwd: packageDirectory, env: { ...process.env, ...options.env }, stdio: 'pipe' },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
      options.onStdout?.(stdout, child.stdin)
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
    })
    if (options.onStdout === undefined) child.stdin.end()
    child.on('error', reject)
    child.on('close', (code) => resolve({ exitCode: code ?? -1, stdout, stderr }))
  })
}

/** The stderr lines that are not empty. */
export function stderrLines(result: CliResult): string[] {
  return result.stderr.split('\n').filter((line) => line.trim() !== '')
}

/** The most recent recorded request to a path (ES2022 has no `findLast`). */
export function lastRequestTo<Request extends { readonly path: string }>(
  requests: readonly Request[],
  path: string,
): Request | undefined {
  return requests.filter((request) => request.path === path).at(-1)
}
