/**
 * Guards the bundle discipline: a browser bundle of the package entry must contain no pkijs or
 * asn1js code (they are loaded with `import()` on the first `loadPkcs12` call), so a SMART-only
 * app does not ship them. Runs in Node only (it drives esbuild).
 */
import { gzipSync } from 'node:zlib'
import { build, type Metafile } from 'esbuild'
import { describe, expect, it } from 'vitest'

const packageDirectory = new URL('..', import.meta.url).pathname
const lazyLibraries =
  /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(pkijs|asn1js|pvtsutils|pvutils|bytestreamjs)\//

async function bundle() {
  const result = await build({
    entryPoints: ['src/index.ts'],
    absWorkingDir: packageDirectory,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    splitting: true,
    minify: true,
    conditions: ['@fhir-auth/source'],
    outdir: 'bundle-out',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const outputs = Object.entries(result.metafile.outputs)
  const entry = outputs.find(([, output]) => output.entryPoint === 'src/index.ts')
  if (entry === undefined) throw new Error('no entry chunk')
  const textOf = (path: string) => {
    const file = result.outputFiles.find((output) => output.path.endsWith(path))
    if (file === undefined) throw new Error(`no output ${path}`)
    return file.text
  }
  return { outputs, entry, textOf }
}

/** The chunks the entry loads before any code runs: itself and its static imports. */
function staticClosure(outputs: [string, Metafile['outputs'][string]][], start: string): string[] {
  const seen = new Set<string>([start])
  const queue = [start]
  while (queue.length > 0) {
    const current = outputs.find(([path]) => path === queue.pop())
    for (const imported of current?.[1].imports ?? []) {
      if (imported.kind === 'import-statement' && !seen.has(imported.path)) {
        seen.add(imported.path)
        queue.push(imported.path)
      }
    }
  }
  return [...seen]
}

describe('browser bundle of @fhir-auth/crypto-webcrypto', () => {
  it('keeps pkijs and asn1js out of the entry chunk and its static imports', async () => {
    const { outputs, entry, textOf } = await bundle()
    const eager = staticClosure(outputs, entry[0])
    for (const path of eager) {
      const output = outputs.find(([candidate]) => candidate === path)?.[1]
      const libraries = Object.keys(output?.inputs ?? {}).filter((input) =>
        lazyLibraries.test(input),
      )
      expect(libraries, `${path} bundles ${libraries.join(', ')}`).toEqual([])
      // Class names pkijs registers at runtime survive minification as strings.
      expect(textOf(path)).not.toMatch(
        /AuthenticatedSafe|PKCS8ShroudedKeyBag|CertificateRevocationList/,
      )
    }
    const sizes = eager.map((path) => gzipSync(textOf(path)).length)
    const gzipBytes = sizes.reduce((total, size) => total + size, 0)
    console.info(
      `crypto-webcrypto browser bundle: entry ${sizes[0]} B gzip, with static imports ${gzipBytes} B gzip (${eager.length} chunks)`,
    )
    expect(gzipBytes).toBeLessThan(40_000)
  })

  it('still bundles pkijs, in a chunk loaded only by import()', async () => {
    const { outputs, entry } = await bundle()
    const lazy = outputs.filter(([, output]) =>
      Object.keys(output.inputs).some((input) => /node_modules\/.*pkijs\//.test(input)),
    )
    expect(lazy.length).toBeGreaterThan(0)
    const dynamicImports = entry[1].imports.filter((imported) => imported.kind === 'dynamic-import')
    expect(dynamicImports.length).toBeGreaterThan(0)
  })
})
