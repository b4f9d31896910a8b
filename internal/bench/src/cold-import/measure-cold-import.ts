import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { packageOfModule } from '../bundle/third-party-modules.js'
import { type Distribution, summarize } from '../measurement/statistics.js'
import { runCommand } from '../run-command.js'
import { benchDirectory, repositoryRoot } from '../workspace-paths.js'

/** What a fresh process imported and how long it took. */
export interface ColdImportResult {
  readonly specifier: string
  /** The `import()` alone, timed inside the child. */
  readonly importMs: Distribution
  /** Spawn to exit, timed by the parent (process start-up included). */
  readonly processMs: Distribution
  readonly loaded: LoadedModules
}

/** The modules one import loads, from the resolve hook's log. */
export interface LoadedModules {
  /** JavaScript files (`file:` URLs). */
  readonly files: number
  /** `node:` built-in modules. */
  readonly builtins: readonly string[]
  /** Packages the files belong to: `@fhir-auth/*` for workspace packages, else npm names. */
  readonly packages: readonly string[]
}

const cold = resolve(benchDirectory, 'src/cold-import')
const childScript = join(cold, 'import-child.mjs')
const moduleLogRegistration = join(cold, 'register-module-log.mjs')

/**
 * Imports each specifier in `processesPerTarget` fresh `node` processes, the targets taking
 * turns (a, b, c, a, b, c…) so machine load falls on all of them alike, then once more per
 * target with a resolve hook that lists the modules loaded. Bare specifiers resolve from
 * `internal/bench` without the `@fhir-auth/source` condition, i.e. to the built `dist`.
 *
 * @throws Error when a child fails (for example, `dist` is missing: run the build).
 */
export async function measureColdImports(
  specifiers: readonly string[],
  processesPerTarget: number,
): Promise<readonly ColdImportResult[]> {
  const importSamples = new Map(specifiers.map((specifier) => [specifier, [] as number[]]))
  const processSamples = new Map(specifiers.map((specifier) => [specifier, [] as number[]]))
  for (let round = 0; round < processesPerTarget; round++) {
    // Rotate the starting target so none always runs first (right after the previous round).
    const order = specifiers.map(
      (_, index) => specifiers[(index + round) % specifiers.length] as string,
    )
    for (const specifier of order) {
      const started = performance.now()
      const { stdout } = await runNode([childScript, specifier], {})
      processSamples.get(specifier)?.push(performance.now() - started)
      const { importMs } = JSON.parse(stdout) as { importMs: number }
      importSamples.get(specifier)?.push(importMs)
    }
  }
  const results: ColdImportResult[] = []
  for (const specifier of specifiers) {
    results.push({
      specifier,
      importMs: summarize(importSamples.get(specifier) ?? []),
      processMs: summarize(processSamples.get(specifier) ?? []),
      loaded: await listLoadedModules(specifier),
    })
  }
  return results
}

async function listLoadedModules(specifier: string): Promise<LoadedModules> {
  const directory = await mkdtemp(join(tmpdir(), 'fhir-auth-bench-modules-'))
  const logFile = join(directory, 'modules.log')
  try {
    await runNode(['--import', moduleLogRegistration, childScript, specifier], {
      FHIR_AUTH_BENCH_MODULE_LOG: logFile,
    })
    const urls = new Set(
      (await readFile(logFile, 'utf8')).split('\n').filter((line) => line !== ''),
    )
    const files = [...urls].filter((url) => url.startsWith('file:'))
    // The child script itself is not part of the import.
    const imported = files.filter((url) => fileURLToPath(url) !== childScript)
    return {
      files: imported.length,
      builtins: [...urls].filter((url) => url.startsWith('node:')).sort(),
      packages: [...new Set(imported.map((url) => packageOfFile(fileURLToPath(url))))].sort(),
    }
  } finally {
    await rm(directory, { recursive: true, force: true })
  }
}

function packageOfFile(path: string): string {
  const workspacePackage = /\/packages\/([^/]+)\//.exec(path.slice(repositoryRoot.length))
  if (workspacePackage?.[1] !== undefined) return `@fhir-auth/${workspacePackage[1]}`
  return packageOfModule(path) ?? path
}

function runNode(args: readonly string[], extraEnvironment: Record<string, string>) {
  // A clean environment: no NODE_OPTIONS from tsx or the caller, no source condition.
  const { NODE_OPTIONS: _ignored, ...environment } = process.env
  return runCommand(process.execPath, args, {
    cwd: benchDirectory,
    timeoutMs: 60_000,
    environment: { ...environment, ...extraEnvironment },
  })
}
