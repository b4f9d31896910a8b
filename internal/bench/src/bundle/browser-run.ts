/**
 * Runs a bundled app in real headless Chromium and records which of its chunks the browser
 * loaded. The app's `fetch` option is a relay: each request goes from the page to the
 * {@link FakeEhr} in Node and its answer comes back as a `Response`; the authorization step (the
 * user agent's trip to the server) goes the same way. The relay and the harness are page script
 * evaluated apart from the bundle, so none of their bytes is counted.
 */
import { chromiumArguments, chromiumPath } from '@fhir-auth/test-utils/chromium'
import { type Browser, chromium } from 'playwright-core'
import type { ChunkServer } from './chunk-server.js'
import type { ScriptCoverage } from './code-run.js'
import type { FakeEhr, RelayedRequest } from './fake-ehr.js'

/** Generous: a loaded machine. A run that takes longer has hung. */
const stepTimeoutMs = 60_000

/** Starts the browser every run of a measurement shares (each run has its own context). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumArguments],
    timeout: stepTimeoutMs,
  })
}

/** One run: which exported function of which entry chunk, with which arguments. */
export interface AppRun {
  /** The entry chunk's file name, as the chunk server serves it. */
  readonly entry: string
  /** The app function (it receives the harness first, then `arguments`); none: import only. */
  readonly exportName: string | undefined
  readonly arguments: readonly unknown[]
  readonly ehr: FakeEhr
}

/** What a run returned, which files the browser fetched for it (in order) and what of them ran. */
export interface AppRunResult {
  readonly value: unknown
  readonly loaded: readonly string[]
  /** V8's block coverage of every script of the run (the page's relay included). */
  readonly coverage: readonly ScriptCoverage[]
}

/**
 * The page side, as source text (not a function of this module: a transpiler's helpers would
 * not exist in the page). It imports the entry, builds the relaying `fetch` and `authorize`, and
 * calls the app.
 */
const pageScript = `async ({ entry, exportName, args }) => {
  const app = await import('/' + entry)
  if (exportName === undefined) return null
  const bodyText = (body) => {
    if (body === undefined || body === null) return ''
    if (typeof body === 'string') return body
    if (body instanceof URLSearchParams) return body.toString()
    throw new TypeError('the measurement relay carries text bodies only')
  }
  const fetch = async (url, init = {}) => {
    const answer = await globalThis.fakeEhrFetch({
      url: String(url),
      method: init.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: bodyText(init.body),
    })
    return new Response(answer.body, { status: answer.status, headers: answer.headers })
  }
  const authorize = (authorizationUrl) => globalThis.fakeEhrAuthorize(authorizationUrl)
  return app[exportName]({ fetch, authorize }, ...args)
}`

/**
 * Runs `run` in a fresh browser context (own cache and `sessionStorage`) on a page of `server`.
 *
 * @throws Error when the app fails, or when the fake EHR found a problem in its requests: such
 *   a run did not do what the figure claims, so it is not measured.
 */
export async function runAppInBrowser(
  browser: Browser,
  server: ChunkServer,
  run: AppRun,
): Promise<AppRunResult> {
  const context = await browser.newContext()
  try {
    context.setDefaultTimeout(stepTimeoutMs)
    const page = await context.newPage()
    await page.exposeFunction('fakeEhrFetch', (request: RelayedRequest) => run.ehr.handle(request))
    await page.exposeFunction('fakeEhrAuthorize', (url: string) => run.ehr.authorize(url))
    await page.goto(`${server.origin}/`)
    server.takeRequested()
    await page.coverage.startJSCoverage({ resetOnNavigation: false })
    const input = { entry: run.entry, exportName: run.exportName, args: run.arguments }
    let value: unknown
    try {
      value = await page.evaluate(`(${pageScript})(${JSON.stringify(input)})`)
    } catch (error) {
      const problems =
        run.ehr.problems.length > 0 ? `; fake EHR: ${run.ehr.problems.join('; ')}` : ''
      throw new Error(`${run.entry} failed in Chromium: ${(error as Error).message}${problems}`)
    }
    if (run.ehr.problems.length > 0) {
      throw new Error(`${run.entry}: fake EHR found ${run.ehr.problems.join('; ')}`)
    }
    const coverage = await page.coverage.stopJSCoverage()
    return { value, loaded: server.takeRequested(), coverage }
  } finally {
    await context.close()
  }
}
