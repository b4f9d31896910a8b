/**
 * The Vitest projects of the portable packages (core, smart, udap, crypto-webcrypto): one run of
 * a package's tests in three runtimes, so its single `.vitest-report.json` holds all of them, and
 * `scripts/summarize-tests.mjs` checks each project ran its tests (a browser that fails to launch
 * leaves its project empty, which fails the summary).
 *
 * - `node`: Node, every test file.
 * - `edge`: Vercel's edge runtime (`environment: 'edge-runtime'`): the globals of
 *   `@edge-runtime/vm` (its own fetch, Request/Response, WebCrypto, TextEncoder, URL, and the
 *   `EdgeRuntime` marker) replace Node's. Vitest still loads modules with Node, so importing a
 *   `node:` module from any test or source file fails the transform in this project. Node's other
 *   globals (`Buffer`, `setImmediate`, `process`) stay visible, because the edge primitives are
 *   built on them; the `chromium` project catches library code that relies on them.
 * - `chromium`: real headless Chromium (Debian's `chromium` package) through Vitest browser mode
 *   and Playwright. Playwright never downloads a browser: it launches the system Chromium
 *   (override with CHROMIUM_PATH) with a fresh temporary profile.
 *
 * Package configs import this file by its path (`../../internal/test-utils/src/vitest/…`), like
 * `vitest.shared.ts`: Vitest bundles a config's relative imports but loads package imports with
 * Node itself, which cannot load TypeScript on Node 20.
 *
 * Test files named `*.node.test.ts` need Node (node:http servers, node:crypto keys to cross-check
 * against OpenSSL, node:util inspect, esbuild) and run in the `node` project only.
 */
import { playwright } from '@vitest/browser-playwright'
import { configDefaults, type Plugin, type TestProjectInlineConfiguration } from 'vitest/config'
import { chromiumArguments, chromiumPath } from '../chromium.js'

/** The glob of the Node-only test files. */
export const nodeOnlyTests = '**/*.node.test.ts'

const portableExclude = [...configDefaults.exclude, nodeOnlyTests]

/**
 * Fails the transform of any workspace file (test or source) that imports a Node built-in, for
 * the edge project: edge functions have no `node:` modules. Dependencies in node_modules, the
 * Node-side global setup files and the modules they import (which run in Node too) are exempt.
 */
function refuseNodeBuiltins(): Plugin {
  const nodeImport = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]node:[\w/]+['"]/
  const globalSetupModules = new Set<string>()
  return {
    name: 'fhir-auth:edge-refuses-node-builtins',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (importer === undefined) return null
      if (!importer.includes('.global-setup.') && !globalSetupModules.has(importer)) return null
      const resolved = await this.resolve(source, importer, { skipSelf: true })
      if (resolved) globalSetupModules.add(resolved.id)
      return resolved
    },
    transform(code, id) {
      if (id.includes('/node_modules/') || id.includes('.global-setup.')) return null
      if (globalSetupModules.has(id)) return null
      const found = nodeImport.exec(code)
      if (found)
        this.error(`${id} imports a Node built-in (${found[0]}), which edge runtimes do not have`)
      return null
    },
  }
}

/**
 * The `node`, `edge` and `chromium` projects, each extending the package's shared config.
 *
 * @example
 * ```ts
 * // packages/<name>/vitest.config.ts
 * const shared = packageTestConfig(import.meta.dirname)
 * export default defineConfig({
 *   ...shared,
 *   test: { ...shared.test, teardownTimeout: 30_000, projects: runtimeProjects() },
 * })
 * ```
 */
export function runtimeProjects(): TestProjectInlineConfiguration[] {
  return [
    { extends: true, test: { name: 'node', environment: 'node' } },
    {
      extends: true,
      plugins: [refuseNodeBuiltins()],
      test: {
        name: 'edge',
        environment: 'edge-runtime',
        exclude: portableExclude,
      },
    },
    {
      extends: true,
      test: {
        name: 'browser',
        exclude: portableExclude,
        browser: {
          enabled: true,
          headless: true,
          screenshotFailures: false,
          connectTimeout: 60_000,
          provider: playwright({
            launchOptions: {
              executablePath: chromiumPath,
              timeout: 60_000,
              args: [...chromiumArguments],
            },
            actionTimeout: 10_000,
          }),
          // Vitest names a project per instance; named here `chromium` (not `browser (chromium)`).
          instances: [{ browser: 'chromium', name: 'chromium' }],
        },
      },
    },
  ]
}
