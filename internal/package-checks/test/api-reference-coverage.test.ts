/**
 * What the API reference must cover and link to, checked on the sources (fast; the TypeDoc
 * build itself is api-docs.test.ts):
 *
 * - every public entry of every published package (its `exports`, except `./package.json` and the
 *   `./internal…` entries, which are not an API) is a TypeDoc entry point;
 * - every function and class `@fhir-auth/smart` exports has an `@example`;
 * - every `@see` link into this repository (`https://github.com/fhir-auth/fhir-auth/blob/main/…`)
 *   names a file that exists, and its `#anchor` a heading of that file.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..', '..')
const packagesDirectory = join(root, 'packages')
const publishedPackages = readdirSync(packagesDirectory).filter((name) =>
  existsSync(join(packagesDirectory, name, 'package.json')),
)

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
}

/** The source file of each public entry: `exports[entry]['@fhir-auth/source']`. */
function publicEntrySources(packageName: string): string[] {
  const manifest = readJson(join(packagesDirectory, packageName, 'package.json'))
  const exportsMap = manifest.exports as Record<string, Record<string, string> | string>
  return Object.entries(exportsMap)
    .filter(([entry]) => entry !== './package.json' && !entry.startsWith('./internal'))
    .map(([, target]) =>
      typeof target === 'string' ? target : (target['@fhir-auth/source'] ?? ''),
    )
    .map((source) => source.replace(/^\.\//, ''))
}

/** TypeDoc's entry points of a package: its own typedoc.json, else the root's package default. */
function typedocEntryPoints(packageName: string): string[] {
  const own = join(packagesDirectory, packageName, 'typedoc.json')
  if (existsSync(own)) return readJson(own).entryPoints as string[]
  const rootOptions = readJson(join(root, 'typedoc.json')).packageOptions as {
    entryPoints: string[]
  }
  return rootOptions.entryPoints
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

describe('API reference coverage', () => {
  it.each(publishedPackages)('every public entry of %s is a TypeDoc entry point', (packageName) => {
    expect(typedocEntryPoints(packageName).sort()).toEqual(publicEntrySources(packageName).sort())
  })

  it('every function and class @fhir-auth/smart exports has an @example', () => {
    const entry = join(packagesDirectory, 'smart', 'src', 'index.ts')
    const program = ts.createProgram([entry], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      customConditions: ['@fhir-auth/source'],
      noEmit: true,
    })
    const checker = program.getTypeChecker()
    const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry) as ts.SourceFile)
    const missing: string[] = []
    for (const exported of checker.getExportsOfModule(moduleSymbol as ts.Symbol)) {
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      if (!(symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Class))) continue
      const declaration = symbol.declarations?.[0]
      // Re-exports of core (the shared constant) are documented where they are defined.
      if (
        declaration === undefined ||
        !declaration.getSourceFile().fileName.includes('/smart/src/')
      ) {
        continue
      }
      const hasExample = ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'example')
      if (!hasExample) missing.push(exported.name)
    }
    expect(missing, `exported without an @example: ${missing.join(', ')}`).toEqual([])
  })

  it('every @see link into this repository resolves to a file and heading', () => {
    const link =
      /https:\/\/github\.com\/fhir-auth\/fhir-auth\/blob\/main\/([^\s#)`'"]+)(?:#([\w-]+))?/g
    const broken: string[] = []
    let links = 0
    for (const file of publishedPackages.flatMap((name) =>
      sourceFiles(join(packagesDirectory, name, 'src')),
    )) {
      for (const match of readFileSync(file, 'utf8').matchAll(link)) {
        links++
        const [, path, anchor] = match
        const where = `${relative(root, file)}: ${match[0]}`
        const target = join(root, path as string)
        if (!existsSync(target)) {
          broken.push(`${where} (no such file)`)
          continue
        }
        if (anchor === undefined) continue
        const headings = readFileSync(target, 'utf8')
          .split('\n')
          .filter((line) => /^#{1,6}\s/.test(line))
          .map((line) => headingAnchor(line.replace(/^#+/, '')))
        if (!headings.includes(anchor)) broken.push(`${where} (no heading #${anchor})`)
      }
    }
    expect(links).toBeGreaterThan(20)
    expect(broken, broken.join('\n')).toEqual([])
  })
})
