/**
 * Each rule of scripts/check-packages.mjs catches what it guards against: these cases break one
 * rule at a time on hand-made inputs (tarball listings, tool reports, esbuild metafiles, a
 * node_modules tree), so a rule that silently stopped checking fails here.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  type BundleMetafile,
  blockingAttwProblems,
  blockingPublintMessages,
  browserBundleProblems,
  installedPackages,
  type PackedManifest,
  tarballProblems,
} from '../src/packaging-rules.mjs'

const goodListing = [
  'package/package.json',
  'package/README.md',
  'package/dist/index.js',
  'package/dist/index.d.ts',
  'package/src/index.ts',
]
const goodManifest: PackedManifest = {
  exports: { '.': { '@fhir-auth/source': './src/index.ts', default: './dist/index.js' } },
  engines: { node: '>=20.19' },
  dependencies: { '@fhir-auth/core': '^0.3.0' },
}

describe('tarballProblems', () => {
  it('accepts a complete tarball', () => {
    expect(tarballProblems(goodListing, goodManifest)).toEqual([])
  })

  it('requires dist entry, types and README', () => {
    const listing = goodListing.filter((path) => path !== 'package/README.md')
    expect(tarballProblems(listing, goodManifest)).toEqual(['missing package/README.md'])
    expect(
      tarballProblems(
        goodListing.filter((path) => path !== 'package/dist/index.d.ts'),
        goodManifest,
      ),
    ).toEqual(['missing package/dist/index.d.ts'])
  })

  it('requires the file the @fhir-auth/source condition names', () => {
    const listing = goodListing.filter((path) => path !== 'package/src/index.ts')
    expect(tarballProblems(listing, goodManifest)).toEqual([
      'the @fhir-auth/source condition points at ./src/index.ts, which is not packed',
    ])
  })

  it('requires engines.node to be exactly what CI tests', () => {
    expect(tarballProblems(goodListing, { ...goodManifest, engines: { node: '>=18' } })).toEqual([
      'engines.node is ">=18", expected ">=20.19"',
    ])
    expect(tarballProblems(goodListing, { ...goodManifest, engines: {} })).toHaveLength(1)
  })

  it('refuses tests and test fixtures', () => {
    const listing = [
      ...goodListing,
      'package/src/x509/der.test.ts',
      'package/src/x509/__fixtures__/a.ts',
    ]
    expect(tarballProblems(listing, goodManifest)).toEqual([
      'ships test files: package/src/x509/der.test.ts, package/src/x509/__fixtures__/a.ts',
    ])
  })

  it('refuses workspace: ranges left by a pack that did not rewrite them', () => {
    const manifest = { ...goodManifest, dependencies: { '@fhir-auth/core': 'workspace:^' } }
    expect(tarballProblems(goodListing, manifest)).toEqual([
      'unresolved workspace ranges: @fhir-auth/core',
    ])
  })
})

describe('tool reports', () => {
  it('publint --strict fails on warnings and errors, not on suggestions', () => {
    const messages = [
      { type: 'suggestion', code: 'USE_LICENSE' },
      { type: 'warning', code: 'FILE_NOT_PUBLISHED' },
      { type: 'error', code: 'FILE_DOES_NOT_EXIST' },
    ] as const
    expect(blockingPublintMessages(messages).map((message) => message.code)).toEqual([
      'FILE_NOT_PUBLISHED',
      'FILE_DOES_NOT_EXIST',
    ])
  })

  it('attw accepts only CJSResolvesToESM', () => {
    const problems = [
      { kind: 'CJSResolvesToESM', entrypoint: '.', resolutionKind: 'node16-cjs' },
      { kind: 'NoResolution', entrypoint: './internal', resolutionKind: 'node10' },
      { kind: 'FalseESM', entrypoint: '.', resolutionKind: 'node16-esm' },
    ]
    expect(blockingAttwProblems(problems).map((problem) => problem.kind)).toEqual([
      'NoResolution',
      'FalseESM',
    ])
  })
})

describe('browserBundleProblems', () => {
  const client = 'node_modules/@fhir-auth/client/dist/index.js'
  const pkijs = 'node_modules/pkijs/build/index.es.js'
  const lazyMetafile = (lazyInputs: Record<string, unknown>): BundleMetafile => ({
    outputs: {
      'bundle/entry.js': {
        entryPoint: 'entry.mjs',
        inputs: { [client]: {} },
        imports: [
          { path: 'bundle/shared.js', kind: 'import-statement' },
          { path: 'bundle/lazy.js', kind: 'dynamic-import' },
        ],
      },
      'bundle/shared.js': { inputs: { 'node_modules/@fhir-auth/core/dist/index.js': {} } },
      'bundle/lazy.js': { inputs: lazyInputs },
      'bundle/entry.js.map': { inputs: {} },
    },
  })
  const noNodeImports = () => 'export const x = 1'

  it('accepts heavy libraries behind a dynamic import', () => {
    const result = browserBundleProblems(lazyMetafile({ [pkijs]: {} }), noNodeImports)
    expect(result.problems).toEqual([])
    expect(result.initial.sort()).toEqual(['bundle/entry.js', 'bundle/shared.js'])
    expect(result.outputs).toHaveLength(3)
  })

  it('refuses pkijs in a chunk the entry imports statically', () => {
    const metafile = lazyMetafile({})
    const eager: BundleMetafile = {
      outputs: { ...metafile.outputs, 'bundle/shared.js': { inputs: { [pkijs]: {} } } },
    }
    expect(browserBundleProblems(eager, noNodeImports).problems).toEqual([
      'loads pkijs up front (they must load lazily)',
    ])
  })

  it('refuses node-forge anywhere, even lazily', () => {
    const metafile = lazyMetafile({ 'node_modules/node-forge/lib/forge.js': {} })
    expect(browserBundleProblems(metafile, noNodeImports).problems).toEqual(['contains node-forge'])
  })

  it('refuses a node: import left in the output', () => {
    const readOutput = (path: string) =>
      path === 'bundle/lazy.js' ? 'import{createHash as a}from"node:crypto";' : ''
    expect(browserBundleProblems(lazyMetafile({}), readOutput).problems).toEqual([
      'imports node: modules in bundle/lazy.js',
    ])
  })
})

describe('installedPackages', () => {
  const tree = mkdtempSync(join(tmpdir(), 'fhir-auth-installed-packages-'))
  afterAll(() => rmSync(tree, { recursive: true, force: true }))

  it('counts scoped, unscoped and nested packages, and nothing else', () => {
    const addPackage = (path: string) => {
      mkdirSync(join(tree, path), { recursive: true })
      writeFileSync(join(tree, path, 'package.json'), '{}')
    }
    addPackage('@fhir-auth/core')
    addPackage('pkijs')
    addPackage('pkijs/node_modules/asn1js')
    mkdirSync(join(tree, '.bin'))
    mkdirSync(join(tree, 'not-a-package'))
    expect(installedPackages(tree).sort()).toEqual([
      '@fhir-auth/core',
      'pkijs',
      join('pkijs', 'node_modules', 'asn1js'),
    ])
  })
})
