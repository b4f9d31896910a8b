/** Where the CLI writes text: `process.stdout` / `process.stderr`, or a capture in tests. */
export interface OutputStream {
  write(text: string): unknown
  /** True when a person is watching (a terminal): progress lines are shown only then. */
  readonly isTTY?: boolean | undefined
}

/**
 * Everything the CLI touches outside itself, so `run` can be driven in-process: the three
 * standard streams and the environment (read for `--password-env` and `--client-secret-env`).
 *
 * Files named by flags are read from the file system directly; relative paths resolve against
 * the process's working directory.
 */
export interface CliIo {
  readonly stdout: OutputStream
  readonly stderr: OutputStream
  /** Read by `authorize` for the pasted redirect URL; nothing else reads it. */
  readonly stdin: AsyncIterable<string | Uint8Array>
  readonly env: Readonly<Record<string, string | undefined>>
}

/** The real process streams and environment, as the `fhir-auth` binary uses them. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
  }
}
