/**
 * No import cycles inside any published package's sources (docs/adr/0015-types-live-low-no-import-cycles.md).
 *
 * Every import counts: `import`, `import type`, `export … from`, a lazy `import()` and a type
 * position `import('…').T`. A type-only cycle costs no bytes, but it still ties the files of the
 * circle into one unit nobody can read, test or move alone, and it is where value cycles (and
 * their load-order bugs) start. The rule that keeps the graph acyclic: a type lives in the
 * lowest file that uses it, and a lower file that needs something from above takes it as a
 * parameter or callback instead of importing it.
 *
 * The graph is the package's own files only: relative specifiers and the package's `#…` subpath
 * imports (every target of their `@fhir-auth/source` conditions). Imports of other packages are
 * layering, which package-boundaries.test.ts checks.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..', '..')
const packagesDirectory = join(root, 'packages')
const publishedPackages = readdirSync(packagesDirectory).filter((name) =>
  existsSync(join(packagesDirectory, name, 'package.json')),
)

type ImportGraph = ReadonlyMap<string, readonly string[]>

/**
 * The one import allowed to close a circle, left out of the graph: core's two signing entries
 * import each other for their side effects alone (`import './x.js'`, no names), so that whatever
 * reaches one entry reaches both and a split bundle loads their files as one chunk (ADR 0012).
 * Without a bare import from each to the other, the entry nothing reaches back gets a chunk of
 * its own or splits the files (ADR 0015 has the figures). Each entry must stay a bare import.
 */
const chunkPairings: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  core: [['internal-signing.ts', 'signing.ts']],
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** Every source file a `#…` subpath import of the manifest can resolve to, by specifier. */
function subpathImportTargets(packageDirectory: string): Map<string, string[]> {
  const manifestPath = join(packageDirectory, 'package.json')
  if (!existsSync(manifestPath)) return new Map()
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { imports?: unknown }
  const targets = new Map<string, string[]>()
  const sourcesOf = (condition: unknown): string[] => {
    if (typeof condition !== 'object' || condition === null) return []
    return Object.entries(condition).flatMap(([name, value]) =>
      name === '@fhir-auth/source' && typeof value === 'string'
        ? [resolve(packageDirectory, value)]
        : sourcesOf(value),
    )
  }
  for (const [specifier, conditions] of Object.entries(manifest.imports ?? {})) {
    targets.set(specifier, sourcesOf(conditions))
  }
  return targets
}

/** The file a relative specifier names: `./a.js` is `./a.ts`, a directory its `index.ts`. */
function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier)
  const candidates = [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.mjs$/, '.mts'),
    `${base}.ts`,
    join(base, 'index.ts'),
  ]
  return candidates.find((candidate) => candidate !== base && existsSync(candidate))
}

/** The package's own import graph: each source file to the source files it imports. */
function importGraph(
  packageDirectory: string,
  leftOut: readonly (readonly [string, string])[] = [],
): ImportGraph {
  const subpaths = subpathImportTargets(packageDirectory)
  const graph = new Map<string, string[]>()
  for (const file of sourceFiles(join(packageDirectory, 'src'))) {
    // Lexical, so specifiers in comments and strings are not imports; `import type`, `export …
    // from`, `import()` and type-position `import('…')` all are.
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    const targets = importedFiles.flatMap(({ fileName: specifier }) => {
      if (specifier.startsWith('#')) return subpaths.get(specifier) ?? []
      if (!specifier.startsWith('.')) return []
      const target = resolveRelative(file, specifier)
      return target === undefined ? [] : [target]
    })
    graph.set(
      file,
      [...new Set(targets)].filter(
        (target) => !leftOut.some(([from, to]) => file === from && target === to),
      ),
    )
  }
  return graph
}

/** The files a bare `import './x.js'` (no names) of `file` names. */
function bareImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest)
  return source.statements.flatMap((statement) =>
    ts.isImportDeclaration(statement) &&
    statement.importClause === undefined &&
    ts.isStringLiteral(statement.moduleSpecifier)
      ? [resolveRelative(file, statement.moduleSpecifier.text) ?? '']
      : [],
  )
}

/** The strongly connected components with a cycle (Tarjan), each sorted, in a stable order. */
function cyclicComponents(graph: ImportGraph): string[][] {
  const index = new Map<string, number>()
  const lowLink = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  const visit = (file: string): void => {
    index.set(file, index.size)
    lowLink.set(file, index.get(file) as number)
    stack.push(file)
    onStack.add(file)
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next)
        lowLink.set(file, Math.min(lowLink.get(file) as number, lowLink.get(next) as number))
      } else if (onStack.has(next)) {
        lowLink.set(file, Math.min(lowLink.get(file) as number, index.get(next) as number))
      }
    }
    if (lowLink.get(file) !== index.get(file)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop() as string
      onStack.delete(member)
      component.push(member)
    } while (member !== file)
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) {
      components.push(component.sort())
    }
  }
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file)
  return components.sort((a, b) => (a[0] as string).localeCompare(b[0] as string))
}

/** One shortest way round a component, from its first file back to it: `a > b > a`. */
function shortestCycle(graph: ImportGraph, component: readonly string[]): string[] {
  const start = component[0] as string
  const members = new Set(component)
  const cameFrom = new Map<string, string>()
  const queue = [start]
  for (const file of queue) {
    for (const next of graph.get(file) ?? []) {
      if (next === start) {
        const path = [start]
        for (let at = file; at !== start; at = cameFrom.get(at) as string) path.splice(1, 0, at)
        return [...path, start]
      }
      if (members.has(next) && !cameFrom.has(next)) {
        cameFrom.set(next, file)
        queue.push(next)
      }
    }
  }
  return [start]
}

/** A readable report: one line per component, its shortest cycle and its other members. */
function describeCycles(graph: ImportGraph, components: readonly string[][], from: string) {
  return components.map((component) => {
    const cycle = shortestCycle(graph, component)
    const others = component.filter((file) => !cycle.includes(file))
    const name = (file: string) => relative(from, file)
    return `${cycle.map(name).join(' > ')}${others.length > 0 ? ` (with ${others.map(name).join(', ')})` : ''}`
  })
}

describe('import cycles', () => {
  it.each(publishedPackages)('%s/src imports nothing that imports it back', (name) => {
    const packageDirectory = join(packagesDirectory, name)
    const source = join(packageDirectory, 'src')
    const leftOut = (chunkPairings[name] ?? []).map(
      ([from, to]) => [join(source, from), join(source, to)] as const,
    )
    const graph = importGraph(packageDirectory, leftOut)
    const cycles = describeCycles(graph, cyclicComponents(graph), source)
    expect(cycles, `import cycles in packages/${name}/src:\n${cycles.join('\n')}`).toEqual([])
  })

  it.each(Object.entries(chunkPairings))(
    '%s: each import left out is a bare one',
    (name, pairs) => {
      const source = join(packagesDirectory, name, 'src')
      for (const [from, to] of pairs) {
        expect(
          bareImports(join(source, from)),
          `${from} imports ${to} for its effects alone`,
        ).toContain(join(source, to))
      }
    },
  )

  describe('the graph walk', () => {
    const fixture = mkdtempSync(join(tmpdir(), 'import-cycles-'))
    afterAll(() => rmSync(fixture, { recursive: true, force: true }))
    const write = (files: Record<string, string>): string => {
      const directory = mkdtempSync(join(fixture, 'package-'))
      for (const [path, text] of Object.entries(files)) {
        const file = join(directory, 'src', path)
        mkdirSync(dirname(file), { recursive: true })
        writeFileSync(file, text)
      }
      writeFileSync(
        join(directory, 'package.json'),
        JSON.stringify({
          imports: { '#lazy': { node: { '@fhir-auth/source': './src/lazy/node.ts' } } },
        }),
      )
      return directory
    }
    const cyclesIn = (files: Record<string, string>): string[][] => {
      const directory = write(files)
      return cyclicComponents(importGraph(directory)).map((component) =>
        component.map((file) => relative(join(directory, 'src'), file)),
      )
    }

    it('finds a cycle through type-only imports, re-exports, lazy imports and subpath imports', () => {
      expect(
        cyclesIn({
          'a.ts': "import type { B } from './b.js'\nexport type A = B",
          'b.ts': "export * from './c/index.js'\nexport type B = string",
          'c/index.ts': "export const load = () => import('#lazy')",
          'lazy/node.ts': "import { type D } from '../d'\nexport type Lazy = D",
          'd.ts': "export type D = import('./a.js').A",
          'leaf.ts': "import type { A } from './a.js'\nexport type Leaf = A",
        }),
      ).toEqual([['a.ts', 'b.ts', 'c/index.ts', 'd.ts', 'lazy/node.ts']])
    })

    it('ignores specifiers in comments and other packages', () => {
      expect(
        cyclesIn({
          'a.ts':
            "// import { b } from './b.js'\nimport { x } from '@fhir-auth/core'\nexport const a = x",
          'b.ts': "import { a } from './a.js'\nexport const b = a",
        }),
      ).toEqual([])
    })
  })
})
