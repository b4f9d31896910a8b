/**
 * Runs the demo the way `pnpm demo` does (Node with tsx and the source condition), as a child
 * process with its own environment, and collects what it printed.
 */
import { execFile } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The demo package's directory (the child's working directory). */
export const demoDirectory = join(dirname(fileURLToPath(import.meta.url)), '..')

/** What a demo process printed and how it ended. */
export interface DemoProcessResult {
  readonly exitCode: number | null
  readonly stdout: string
  readonly stderr: string
  readonly milliseconds: number
}

/** Generous: a loaded CI machine; the demo's own limit (60 s) is far above its ~3 s run. */
const processTimeoutMs = 25_000

/** Runs `src/main.ts` with `args`; `environment` is added to a copy of this process's. */
export function runDemoProcess(
  args: readonly string[],
  environment: Readonly<Record<string, string>> = {},
): Promise<DemoProcessResult> {
  const startedAt = performance.now()
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', '--conditions=@fhir-auth/source', 'src/main.ts', ...args],
      {
        cwd: demoDirectory,
        env: childEnvironment(environment),
        timeout: processTimeoutMs,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : null
        resolve({ exitCode, stdout, stderr, milliseconds: performance.now() - startedAt })
      },
    )
  })
}

/**
 * This process's environment plus `environment`, with colours off. FORCE_COLOR is removed rather
 * than emptied: Node 24 warns on stderr when NO_COLOR and any FORCE_COLOR are both set.
 */
function childEnvironment(environment: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...environment }
  if (environment.FORCE_COLOR === undefined) delete env.FORCE_COLOR
  return env
}
