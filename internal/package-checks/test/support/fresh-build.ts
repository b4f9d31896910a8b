/**
 * The packaging checks read `dist`. CI builds before it tests; locally, a missing or stale build
 * (a source file newer than `dist/index.js`) is rebuilt through turbo first, so the checks never
 * judge old output.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { runCommand } from './run-command.js'

export const publishedPackages = [
  'core',
  'smart',
  'udap',
  'crypto-node',
  'crypto-webcrypto',
  'store-redis',
  'client',
  'cli',
  'web',
] as const

function newestSourceTime(directory: string): number {
  return readdirSync(directory).reduce((newest, entry) => {
    const path = join(directory, entry)
    const stats = statSync(path)
    const time = stats.isDirectory() ? newestSourceTime(path) : stats.mtimeMs
    return Math.max(newest, time)
  }, 0)
}

function isStale(root: string, name: string): boolean {
  const output = join(root, 'packages', name, 'dist', 'index.js')
  if (!existsSync(output)) return true
  return newestSourceTime(join(root, 'packages', name, 'src')) > statSync(output).mtimeMs
}

export async function ensureFreshBuild(root: string): Promise<void> {
  if (!publishedPackages.some((name) => isStale(root, name))) return
  const filters = publishedPackages.flatMap((name) => ['--filter', `@fhir-auth/${name}`])
  const build = await runCommand('pnpm', ['exec', 'turbo', 'run', 'build', ...filters], {
    cwd: root,
    timeoutMs: 240_000,
  })
  if (build.exitCode !== 0)
    throw new Error(`build failed before the packaging checks\n${build.output}`)
}
