/**
 * Runs the tests twice in one Vitest run: in Node, and in real headless Chromium (Debian's
 * `chromium` package, driven by Playwright through Vitest browser mode). Both projects write
 * into the one `.vitest-report.json` the CI reads. Tests named `*.node.test.ts` need Node APIs
 * (esbuild, zlib) and run in Node only.
 *
 * Playwright never downloads a browser here: it launches the system Chromium (override the path
 * with CHROMIUM_PATH) with a fresh temporary profile (its own `--user-data-dir`, removed on close).
 */
import { playwright } from '@vitest/browser-playwright'
import { configDefaults, defineConfig } from 'vitest/config'
import { packageTestConfig } from '../../vitest.shared.js'

const shared = packageTestConfig(import.meta.dirname)
const nodeOnlyTests = 'test/**/*.node.test.ts'

export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    teardownTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'node', environment: 'node' } },
      {
        extends: true,
        test: {
          name: 'chromium',
          exclude: [...configDefaults.exclude, nodeOnlyTests],
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            connectTimeout: 60_000,
            provider: playwright({
              launchOptions: {
                executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
                timeout: 60_000,
                args: [
                  '--headless',
                  '--no-sandbox',
                  '--disable-gpu',
                  '--disable-background-networking',
                  '--disable-component-update',
                  '--disable-sync',
                  '--no-first-run',
                ],
              },
              actionTimeout: 10_000,
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
})
