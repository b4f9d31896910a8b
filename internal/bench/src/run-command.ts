import { spawn } from 'node:child_process'

/** Where a command runs and how long it may take. */
export interface CommandOptions {
  readonly cwd: string
  /** Milliseconds before the command is killed; default 5 minutes. */
  readonly timeoutMs?: number
  readonly environment?: NodeJS.ProcessEnv
  /** Resolve with the exit status instead of rejecting when the command exits non-zero. */
  readonly acceptFailure?: boolean
}

/** What a finished command printed. */
export interface CommandOutput {
  readonly stdout: string
  readonly stderr: string
  /** 0, or the non-zero status of a command run with `acceptFailure`. */
  readonly exitCode: number
}

const defaultTimeoutMs = 300_000

/**
 * Runs a command without a shell and collects its output.
 *
 * @throws Error naming the command, its exit status and the end of its stderr when it fails
 *   (unless `acceptFailure`), cannot start, or runs past its time limit.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: CommandOptions,
): Promise<CommandOutput> {
  return new Promise((resolvePromise, rejectPromise) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.environment ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? defaultTimeoutMs,
    })
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk))
    child.on('error', (error) =>
      rejectPromise(new Error(`${command} could not start: ${error.message}`)),
    )
    child.on('close', (code, signal) => {
      const output = {
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        exitCode: code ?? -1,
      }
      if (code === 0 || (code !== null && options.acceptFailure === true)) {
        resolvePromise(output)
        return
      }
      const ending = (output.stderr || output.stdout).trim().split('\n').slice(-15).join('\n')
      rejectPromise(
        new Error(
          `${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`}) in ${options.cwd}:\n${ending}`,
        ),
      )
    })
  })
}
