import { execFile } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const packageDirectory = fileURLToPath(new URL('..', import.meta.url))
const sourceDirectory = join(packageDirectory, 'src')

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(directory, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(directory, entry.name)]
        : [],
  )
}

describe('node-forge is loaded lazily', () => {
  it('is imported at run time by one dynamic import only; other mentions are type-only', () => {
    const runtimeImports: string[] = []
    for (const file of sourceFiles(sourceDirectory)) {
      const text = readFileSync(file, 'utf8')
      for (const match of text.matchAll(
        /^\s*import\s+(?!type\b)[^;]*?from\s+['"]node-forge['"]/gm,
      )) {
        runtimeImports.push(`${relative(packageDirectory, file)}: ${match[0].trim()}`)
      }
      if (/\bimport\(\s*['"]node-forge['"]\s*\)/.test(text)) {
        runtimeImports.push(`${relative(packageDirectory, file)}: dynamic`)
      }
      if (/\brequire\(\s*['"]node-forge['"]\s*\)/.test(text)) {
        runtimeImports.push(`${relative(packageDirectory, file)}: require`)
      }
    }
    expect(runtimeImports).toEqual(['src/pkcs12/forge-loader.ts: dynamic'])
  })

  it('is not in the module graph after importing the package and signing, but is after opening a PKCS#12', async () => {
    // A fresh Node process, so nothing this test runner loaded interferes. tsx runs the
    // TypeScript sources; the source condition resolves workspace packages to src/.
    const script = `
      import { createRequire } from 'node:module'
      import { readFileSync } from 'node:fs'
      const require = createRequire(import.meta.url)
      const forgeLoaded = () => Object.keys(require.cache).some((path) => path.includes('node-forge'))
      const { nodeCryptoBackend } = await import(${JSON.stringify(join(sourceDirectory, 'index.ts'))})
      const key = readFileSync(${JSON.stringify(join(packageDirectory, 'test/fixtures/pkcs12/ec-leaf.key'))}, 'utf8')
      const signer = await nodeCryptoBackend.importSigner(key, { profile: 'udap' })
      await signer.sign(new Uint8Array([1, 2, 3]))
      const afterSigning = forgeLoaded()
      const p12 = readFileSync(${JSON.stringify(join(packageDirectory, 'test/fixtures/pkcs12/ec-modern.p12'))})
      await nodeCryptoBackend.loadPkcs12(new Uint8Array(p12), 'udap-test')
      console.log(JSON.stringify({ afterSigning, afterPkcs12: forgeLoaded() }))
    `
    const tsx = createRequire(import.meta.url).resolve('tsx')
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=@fhir-auth/source', '--import', tsx, '--input-type=module', '--eval', script],
      { cwd: packageDirectory, timeout: 30_000 },
    )
    expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '')).toEqual({
      afterSigning: false,
      afterPkcs12: true,
    })
  })
})
