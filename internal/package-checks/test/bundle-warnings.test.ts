/**
 * Bundlers read the published packages without a warning. esbuild reports "Ignoring this import
 * because … was marked as having no side effects" for a bare `import './file.js'` of a module that
 * the package's `sideEffects` declares free of effects: the import is then dropped (by webpack and
 * Rollup as well), so whatever it was meant to do does not happen reliably. Every entry point of
 * every published package is bundled here from its sources, the way `examples/browser-spa` bundles
 * them, and esbuild must not warn.
 *
 * @see https://esbuild.github.io/api/#ignore-annotations
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { publishedPackages } from './support/fresh-build.js'

const root = join(import.meta.dirname, '..', '..', '..')

/** The source file behind each export of a package (its `@fhir-auth/source` condition). */
function sourceEntryPoints(name: string): string[] {
  const directory = join(root, 'packages', name)
  const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
    exports: Record<string, { '@fhir-auth/source'?: string } | string>
  }
  return Object.values(manifest.exports).flatMap((target) =>
    typeof target === 'object' && target['@fhir-auth/source'] !== undefined
      ? [join(directory, target['@fhir-auth/source'])]
      : [],
  )
}

describe('published packages bundle without esbuild warnings', () => {
  it.each(publishedPackages)('@fhir-auth/%s', async (name) => {
    const entryPoints = sourceEntryPoints(name)
    expect(entryPoints.length).toBeGreaterThan(0)
    const result = await build({
      entryPoints,
      bundle: true,
      write: false,
      outdir: join(root, '.tmp', 'bundle-warnings'),
      format: 'esm',
      splitting: true,
      platform: 'node',
      conditions: ['@fhir-auth/source'],
      // Each package's own files; the other workspace packages get their own case.
      packages: 'external',
      logLevel: 'silent',
    })
    expect(result.warnings.map((warning) => warning.text)).toEqual([])
  })
})
