/**
 * The rules scripts/check-packages.mjs applies to packed tarballs, tool reports, installed trees
 * and browser bundles, as pure functions so test/packaging-rules.test.ts can show that each one
 * catches what it guards against. Plain JavaScript because the root script runs on plain Node;
 * the types are in packaging-rules.d.mts.
 */
import { existsSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'

/** The Node versions CI tests on; every published `engines.node` says exactly this. */
export const expectedNodeRange = '>=20.19'

/**
 * The one Are-The-Types-Wrong finding an ESM-only package is expected to have: `require()` from
 * CommonJS reaches an ES module. Node 20.19+ loads it (`require(esm)`), and TypeScript under
 * `node16` from a CommonJS file asks for a dynamic `import()`.
 */
export const acceptedAttwProblemKinds = Object.freeze(['CJSResolvesToESM'])

/** Libraries a browser page must never download before it needs PKCS#12. */
export const lazyOnlyLibraries = Object.freeze(['pkijs', 'asn1js', 'node-forge'])

/** What is wrong with a packed tarball, given its file list and its packed package.json. */
export function tarballProblems(listing, manifest) {
  const problems = []
  for (const required of [
    'package/dist/index.js',
    'package/dist/index.d.ts',
    'package/README.md',
  ]) {
    if (!listing.includes(required)) problems.push(`missing ${required}`)
  }
  const sourceEntry = manifest.exports?.['.']?.['@fhir-auth/source']
  if (
    sourceEntry !== undefined &&
    !listing.includes(`package/${sourceEntry.replace(/^\.\//, '')}`)
  ) {
    problems.push(`the @fhir-auth/source condition points at ${sourceEntry}, which is not packed`)
  }
  if (manifest.engines?.node !== expectedNodeRange) {
    problems.push(
      `engines.node is ${JSON.stringify(manifest.engines?.node)}, expected "${expectedNodeRange}"`,
    )
  }
  const testFiles = listing.filter((path) => /\.test(-d)?\.ts$|__fixtures__/.test(path))
  if (testFiles.length > 0) problems.push(`ships test files: ${testFiles.join(', ')}`)
  const workspaceRanges = Object.entries(manifest.dependencies ?? {}).filter(([, range]) =>
    String(range).startsWith('workspace:'),
  )
  if (workspaceRanges.length > 0) {
    problems.push(
      `unresolved workspace ranges: ${workspaceRanges.map(([name]) => name).join(', ')}`,
    )
  }
  return problems
}

/** publint messages that fail `--strict`: everything but suggestions. */
export function blockingPublintMessages(messages) {
  return messages.filter((message) => message.type !== 'suggestion')
}

/** attw problems other than the accepted ESM-only one. */
export function blockingAttwProblems(problems) {
  return problems.filter((problem) => !acceptedAttwProblemKinds.includes(problem.kind))
}

/** Output files the entry chunk loads with static imports: what a page downloads first. */
export function staticallyLoadedOutputs(metafile, entryOutput) {
  const seen = new Set([entryOutput])
  const queue = [entryOutput]
  while (queue.length > 0) {
    const output = metafile.outputs[queue.pop()]
    for (const imported of output?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external && !seen.has(imported.path)) {
        seen.add(imported.path)
        queue.push(imported.path)
      }
    }
  }
  return [...seen]
}

/**
 * What is wrong with an esbuild browser build (metafile plus a reader for the emitted text): any
 * node-forge input, any `node:` import left in the output, or a lazy-only library in the part
 * loaded up front.
 */
export function browserBundleProblems(metafile, readOutput) {
  const outputs = Object.keys(metafile.outputs).filter((path) => path.endsWith('.js'))
  const entryOutput = outputs.find((path) => metafile.outputs[path].entryPoint !== undefined)
  const initial = entryOutput === undefined ? [] : staticallyLoadedOutputs(metafile, entryOutput)
  const inputsOf = (paths) => paths.flatMap((path) => Object.keys(metafile.outputs[path].inputs))
  const fromPackage = (name) => (input) => input.includes(`node_modules/${name}/`)
  const problems = []
  if (entryOutput === undefined) problems.push('no entry chunk')
  if (inputsOf(outputs).some(fromPackage('node-forge'))) problems.push('contains node-forge')
  const withNodeImports = outputs.filter((path) => /["']node:[\w/]+["']/.test(readOutput(path)))
  if (withNodeImports.length > 0) {
    problems.push(`imports node: modules in ${withNodeImports.join(', ')}`)
  }
  const eager = lazyOnlyLibraries.filter((name) => inputsOf(initial).some(fromPackage(name)))
  if (eager.length > 0) problems.push(`loads ${eager.join(', ')} up front (they must load lazily)`)
  return { problems, outputs, initial }
}

/** Every package in a node_modules tree, nested ones included, as paths relative to it. */
export function installedPackages(nodeModules) {
  const names = []
  const walk = (directory) => {
    if (!existsSync(directory)) return
    for (const entry of readdirSync(directory)) {
      if (entry.startsWith('.')) continue
      const path = join(directory, entry)
      if (entry.startsWith('@')) walk(path)
      else if (existsSync(join(path, 'package.json'))) {
        names.push(relative(nodeModules, path))
        walk(join(path, 'node_modules'))
      }
    }
  }
  walk(nodeModules)
  return names
}
