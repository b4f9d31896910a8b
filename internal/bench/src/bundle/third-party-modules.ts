/**
 * Which npm packages a bundle's source modules come from, read from esbuild's metafile input
 * paths (`…/node_modules/.pnpm/pkijs@4.0.0_asn1js@4.0.0/node_modules/pkijs/build/index.js` is
 * package `pkijs`). Workspace packages resolve to `packages/*` and are not listed.
 */

/** The packages a SMART-only browser app must never load: PKCS#12 and Node-only code. */
export const forbiddenBrowserPackages: readonly string[] = Object.freeze([
  'pkijs',
  'asn1js',
  'node-forge',
])

const packageInPath = /node_modules\/((?:@[^/]+\/)?[^/@][^/]*)\//g

/** The npm package a module path belongs to (the innermost `node_modules`), or undefined. */
export function packageOfModule(modulePath: string): string | undefined {
  let name: string | undefined
  for (const match of modulePath.matchAll(packageInPath)) name = match[1]
  return name === '.pnpm' ? undefined : name
}

/** The distinct npm packages among module paths, sorted. */
export function packagesOfModules(modulePaths: Iterable<string>): readonly string[] {
  const names = new Set<string>()
  for (const path of modulePaths) {
    const name = packageOfModule(path)
    if (name !== undefined) names.add(name)
  }
  return [...names].sort()
}
