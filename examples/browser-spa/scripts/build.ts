/**
 * Bundles the page with esbuild: `src/app.ts` → `<outdir>/app.js` (+ lazily loaded chunks),
 * and copies `index.html`. Run `npx -y pnpm@10 build` (writes `dist/`).
 */
import { copyFile, mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, type Metafile } from 'esbuild'

const sourceDirectory = join(import.meta.dirname, '..', 'src')

/** Where the bundle went and what esbuild put in each output file. */
export interface SpaBuild {
  readonly outdir: string
  readonly metafile: Metafile
}

/**
 * Builds the single-page app into `outdir`.
 *
 * - `splitting` + ESM: code that the library loads with `import()` only for UDAP or PKCS#12
 *   (pkijs, asn1js) lands in separate chunks that this SMART-only page never downloads;
 * - `conditions: ['@fhir-auth/source']`: inside this monorepo, bundle the workspace packages'
 *   TypeScript sources. An app using the published packages leaves it out.
 */
export async function buildSpa(outdir: string): Promise<SpaBuild> {
  await mkdir(outdir, { recursive: true })
  const result = await build({
    entryPoints: [join(sourceDirectory, 'app.ts')],
    outdir,
    bundle: true,
    format: 'esm',
    splitting: true,
    platform: 'browser',
    target: 'es2022',
    conditions: ['@fhir-auth/source'],
    minify: true,
    sourcemap: true,
    metafile: true,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  })
  await copyFile(join(sourceDirectory, 'index.html'), join(outdir, 'index.html'))
  return { outdir, metafile: result.metafile }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const outdir = resolve(import.meta.dirname, '..', 'dist')
  await buildSpa(outdir)
  console.log(`built ${outdir}`)
}
