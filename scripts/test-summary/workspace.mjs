// The workspace as the test summary sees it: which packages there are, which of them test, and
// which hold test files without a way to run them.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

/**
 * @typedef {object} WorkspacePackage
 * @property {string} name the package name (`@fhir-auth/core`)
 * @property {string} directory absolute path
 * @property {string} path path relative to the workspace root (`packages/core`)
 * @property {boolean} tests whether `package.json` has a `test` script
 * @property {string[]} testFiles test files found under `src/` and `test/` (relative paths)
 */

/**
 * The package directories of `pnpm-workspace.yaml` (its `packages:` list of `dir/*` globs), in
 * the order listed, each with its package name and whether it has a `test` script.
 *
 * @param {string} root
 * @returns {WorkspacePackage[]}
 */
export function workspacePackages(root) {
  const packages = []
  for (const pattern of workspaceGlobs(root)) {
    const group = join(root, pattern.replace(/\/\*$/, ''))
    if (!existsSync(group)) continue
    const directories = pattern.endsWith('/*')
      ? readdirSync(group)
          .sort()
          .map((entry) => join(group, entry))
      : [group]
    for (const directory of directories) {
      const manifestFile = join(directory, 'package.json')
      if (!existsSync(manifestFile)) continue
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'))
      packages.push({
        name: manifest.name ?? relative(root, directory),
        directory,
        path: relative(root, directory),
        tests: typeof manifest.scripts?.test === 'string',
        testFiles: testFilesUnder(directory).map((file) => relative(root, file)),
      })
    }
  }
  return packages
}

/** The entries of the `packages:` list in pnpm-workspace.yaml (plain `- dir/*` lines). */
function workspaceGlobs(root) {
  const lines = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8').split('\n')
  const globs = []
  let inPackages = false
  for (const line of lines) {
    if (/^\S/.test(line)) inPackages = /^packages:\s*$/.test(line)
    const entry = inPackages && /^\s+-\s*['"]?([^'"#\s]+)['"]?/.exec(line)
    if (entry) globs.push(entry[1])
  }
  return globs
}

/** `*.test.ts` / `*.test.mjs` files under `src/` and `test/` (not in node_modules). */
function testFilesUnder(directory) {
  const found = []
  const walk = (folder) => {
    if (!existsSync(folder)) return
    for (const entry of readdirSync(folder)) {
      if (entry === 'node_modules' || entry.startsWith('.')) continue
      const path = join(folder, entry)
      if (statSync(path).isDirectory()) walk(path)
      else if (/\.test\.[cm]?[jt]sx?$/.test(entry)) found.push(path)
    }
  }
  walk(join(directory, 'src'))
  walk(join(directory, 'test'))
  return found
}
