import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** `internal/bench`: bare imports in child processes resolve from here, like the bench's own. */
export const benchDirectory = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** The monorepo root. */
export const repositoryRoot = resolve(benchDirectory, '..', '..')

/** The published packages, in dependency order (`client` depends on all the others). */
export const publishedPackages = [
  'core',
  'smart',
  'udap',
  'crypto-node',
  'crypto-webcrypto',
  'client',
] as const

/** A published package's name. */
export type PublishedPackage = (typeof publishedPackages)[number]

/** The folder of a published package. */
export function packageDirectory(name: PublishedPackage): string {
  return resolve(repositoryRoot, 'packages', name)
}

/** A path relative to the repository root, for reports (`packages/core/src/index.ts`). */
export function repositoryRelative(path: string): string {
  const absolute = resolve(path)
  return absolute.startsWith(`${repositoryRoot}/`)
    ? absolute.slice(repositoryRoot.length + 1)
    : absolute
}
