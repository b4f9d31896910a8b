/**
 * Tabs of one origin in real headless Chromium (Debian's, never a downloaded one): a loopback
 * HTTP server serves an empty page that loads a script bundled by esbuild from the workspace's
 * sources (its exports as the global `fhirAuth`), and one fresh profile holds every tab, so the
 * tabs share the origin's storage (IndexedDB, localStorage) as the tabs of one browser window do.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromiumArguments, chromiumPath } from '@fhir-auth/test-utils/chromium'
import { build } from 'esbuild'
import { type BrowserContext, chromium, type Page } from 'playwright-core'

/** Tabs open on the page, and what closes them, the browser and the server. */
export interface BrowserTabs {
  readonly tabs: readonly Page[]
  /** The page's origin: `http://127.0.0.1:<port>` (a secure context). */
  readonly origin: string
  close(): Promise<void>
}

/**
 * Bundles `entry` (module source text resolved from this package, e.g. `export { indexedDbStore }
 * from '@fhir-auth/core'`) for the page, from the packages' TypeScript sources.
 */
export async function bundleForPage(entry: string): Promise<string> {
  const result = await build({
    stdin: { contents: entry, resolveDir: import.meta.dirname, loader: 'ts' },
    bundle: true,
    format: 'iife',
    globalName: 'fhirAuth',
    platform: 'browser',
    conditions: ['@fhir-auth/source'],
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  })
  const [output] = result.outputFiles
  if (output === undefined) throw new Error('esbuild wrote no bundle')
  return output.text
}

/** Serves `script` on a loopback page and opens `count` tabs of it in one fresh profile. */
export async function openBrowserTabs(script: string, count = 2): Promise<BrowserTabs> {
  const server = createServer((request, response) => {
    if (request.url === '/app.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' })
      response.end(script)
      return
    }
    response.writeHead(200, { 'content-type': 'text/html' })
    response.end('<!doctype html><title>tab</title><script src="/app.js"></script>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const profile = await mkdtemp(join(tmpdir(), 'fhir-auth-tabs-'))
  let context: BrowserContext | undefined
  const close = async () => {
    await context?.close()
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await rm(profile, { recursive: true, force: true })
  }
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: chromiumPath,
      args: [...chromiumArguments],
      timeout: 60_000,
    })
    const opened = context
    const tabs = await Promise.all(Array.from({ length: count }, () => opened.newPage()))
    await Promise.all(tabs.map((tab) => tab.goto(`${origin}/`)))
    return { tabs, origin, close }
  } catch (error) {
    await close()
    throw error
  }
}
