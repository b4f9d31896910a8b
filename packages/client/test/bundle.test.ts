/**
 * What a browser bundle of the client loads together (ADR 0012): an app importing `Client`
 * bundled from the sources as the bench bundles apps (esbuild, browser, ESM, split per dynamic
 * import), and the chunks read from the metafile. The byte figures themselves are the bench's
 * (internal/package-checks/test/browser-budgets.test.ts); this guards the grouping.
 */
import { build, type Metafile } from 'esbuild'
import { beforeAll, describe, expect, it } from 'vitest'

const packageDirectory = new URL('..', import.meta.url).pathname

type Outputs = Metafile['outputs']
let outputs: Outputs = {}
let texts = new Map<string, string>()

beforeAll(async () => {
  const result = await build({
    stdin: { contents: "export { Client } from './src/index.ts'", resolveDir: packageDirectory },
    absWorkingDir: packageDirectory,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    splitting: true,
    minify: true,
    conditions: ['@fhir-auth/source'],
    outdir: 'bundle-out',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  outputs = result.metafile.outputs
  texts = new Map(
    result.outputFiles.map((file) => [file.path.slice(packageDirectory.length), file.text]),
  )
}, 60_000)

/** The output path of the chunk that `entryPoint` (an `import()` target) starts. */
function chunkOf(entryPoint: string): string | undefined {
  return Object.keys(outputs).find((path) => outputs[path]?.entryPoint === entryPoint)
}

/** A chunk and every chunk it imports statically: what loads with it. */
function staticClosure(start: string): string[] {
  const seen = new Set([start])
  for (const path of seen) {
    for (const imported of outputs[path]?.imports ?? []) {
      if (imported.kind === 'import-statement') seen.add(imported.path)
    }
  }
  return [...seen]
}

describe('browser bundle of @fhir-auth/client', () => {
  it('loads SMART backend services with the signing code, in one chunk', () => {
    const signing = chunkOf('src/smart/smart-signing.ts')
    expect(signing).toBeDefined()
    expect(Object.keys(outputs[signing as string]?.inputs ?? {})).toEqual(
      expect.arrayContaining(['src/smart/smart-signing.ts', 'src/smart/backend-token.ts']),
    )
    expect(chunkOf('src/smart/backend-token.ts')).toBeUndefined()
  })

  it('wires ID token validation in the chunk that validates, not up front', () => {
    const upFront = staticClosure(chunkOf('<stdin>') as string)
    const validator = chunkOf('src/identity/id-token-validator.ts') as string
    // The wiring's member names survive minification.
    expect(upFront.filter((path) => texts.get(path)?.includes('fallbackIssuer'))).toEqual([])
    expect(texts.get(validator)).toContain('fallbackIssuer')
  })

  it('carries no store code for an app that uses no store: backend tokens keep theirs in memory', () => {
    // Any use of core's memoryStore puts it up front: the client's index re-exports it.
    const withMemoryStore = Object.keys(outputs).filter(
      (path) =>
        (outputs[path]?.inputs['../core/src/stores/memory-store.ts']?.bytesInOutput ?? 0) > 0,
    )
    expect(withMemoryStore).toEqual([])
  })

  it('has no default launch store: a page does not outlive the redirect (Node keeps one per process)', () => {
    const inputs = Object.values(outputs).flatMap((output) => Object.keys(output.inputs))
    // The launch code is bundled (its dynamic import is a chunk), with the browser's variant.
    expect(chunkOf('src/launch/authorization-flow.ts')).toBeDefined()
    expect(inputs).not.toContain('src/default-launch-store/node.ts')
  })

  it('loads revocation (RFC 7009) with the SMART request path, never up front, and carries no ClientDirectory for an app importing Client', () => {
    const upFront = staticClosure(chunkOf('<stdin>') as string)
    const smart = staticClosure(chunkOf('src/smart/smart-protocol.ts') as string)
    const withRevocation = Object.keys(outputs).filter(
      (path) => (outputs[path]?.inputs['../smart/src/revocation.ts']?.bytesInOutput ?? 0) > 0,
    )
    expect(withRevocation).toHaveLength(1)
    expect(smart).toContain(withRevocation[0])
    expect(upFront).not.toContain(withRevocation[0])
    const inputs = Object.values(outputs).flatMap((output) => Object.keys(output.inputs))
    expect(inputs.filter((path) => path.startsWith('src/directory/'))).toEqual([])
  })
})
