import { readFileSync } from 'node:fs'

/**
 * This package's version, read from its `package.json` (one directory above both `src/` and
 * `dist/`, so the same code works from sources and from the build).
 */
export function packageVersion(): string {
  const manifest: unknown = JSON.parse(
    readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  )
  const version = (manifest as { version?: unknown } | null)?.version
  return typeof version === 'string' ? version : 'unknown'
}
