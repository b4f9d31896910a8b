/**
 * End to end in real headless Chromium: the built page, served from the registered redirect
 * URI, launches against the SMART sandbox with authorize-POST, comes back with a code and
 * shows the patient. Nothing is mocked: the browser talks to the sandbox directly.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { type SmartSandbox, startSmartSandbox } from '@fhir-auth/sandbox'
import type { Metafile } from 'esbuild'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSpa } from '../scripts/build.js'
import { type SpaServer, serveSpa } from '../scripts/serve.js'
import { pendingAuthorizationKey } from '../src/pending-authorization.js'

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
const stepTimeoutMs = 10_000
/** Packages that only UDAP / PKCS#12 need; a SMART page must not download them. */
const pkiPackages =
  /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(pkijs|asn1js|node-forge|@peculiar)\//

let outdir: string
let metafile: Metafile
let sandbox: SmartSandbox
let spa: SpaServer
let browser: Browser

beforeAll(async () => {
  outdir = await mkdtemp(join(tmpdir(), 'browser-spa-'))
  let fhirBaseUrl = ''
  let redirectUri = ''
  ;[{ metafile }, sandbox, spa, browser] = await Promise.all([
    buildSpa(outdir),
    startSmartSandbox(),
    serveSpa(outdir, () => ({
      fhirBaseUrl,
      clientId: 'spa',
      redirectUri,
      scopes: ['launch/patient', 'patient/Patient.rs', 'openid', 'fhirUser'],
      allowInsecureLocalhost: true,
    })),
    // A fresh temporary profile per launch; no browser download: Debian's chromium.
    chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, timeout: 20_000 }),
  ])
  fhirBaseUrl = sandbox.fhirBaseUrl
  redirectUri = `${spa.origin}/`
  sandbox.addClient({
    client_id: 'spa',
    token_endpoint_auth_method: 'none',
    redirect_uris: [redirectUri],
  })
})

afterAll(async () => {
  await browser?.close()
  await spa?.close()
  await sandbox?.close()
  if (outdir) await rm(outdir, { recursive: true, force: true })
})

/** A new page in its own context (own cookies and sessionStorage), with timeouts on everything. */
async function newPage(): Promise<Page> {
  const context = await browser.newContext()
  context.setDefaultTimeout(stepTimeoutMs)
  context.setDefaultNavigationTimeout(stepTimeoutMs)
  return context.newPage()
}

/** Where {@link recordTokenResponses} keeps the token response bodies inside the page. */
const recordedTokenResponses = '__recordedTokenResponses'

/**
 * Wraps the page's `fetch` (in every document it loads) to keep a copy of each token endpoint
 * response in a page variable, so the test knows the token and can look for it in the DOM and
 * storage. In-page, because reading bodies through the DevTools protocol proved unreliable
 * after the cross-site round trip on a loaded machine.
 */
async function recordTokenResponses(page: Page): Promise<void> {
  await page.addInitScript(
    ([tokenEndpoint, variable]) => {
      const bodies: string[] = []
      Reflect.set(window, variable ?? '', bodies)
      const originalFetch = window.fetch.bind(window)
      window.fetch = async (input, init) => {
        const response = await originalFetch(input, init)
        const url = input instanceof Request ? input.url : String(input)
        if (url === tokenEndpoint) bodies.push(await response.clone().text())
        return response
      }
    },
    [sandbox.endpoints.token, recordedTokenResponses],
  )
}

async function text(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).textContent()) ?? ''
}

describe('standalone launch in headless Chromium', () => {
  it('POSTs to the authorize endpoint, comes back and shows the patient and scope, not the token', async () => {
    const page = await newPage()
    await recordTokenResponses(page)

    await page.goto(`${spa.origin}/`)
    await page.locator('#status', { hasText: 'Ready.' }).waitFor()
    await page.click('#launch')
    await page.locator('#status', { hasText: 'Signed in.' }).waitFor()

    expect(await text(page, '#patient')).toBe('patient-1')
    expect((await text(page, '#scope')).split(' ')).toEqual(
      expect.arrayContaining(['launch/patient', 'patient/Patient.rs']),
    )
    // The real browser sent the form: a POST to /auth carrying PKCE and aud.
    const authorize = sandbox.requests.find((request) => request.path === '/auth')
    expect(authorize?.method).toBe('POST')
    expect(authorize?.form).toMatchObject({
      client_id: 'spa',
      code_challenge_method: 'S256',
      aud: sandbox.fhirBaseUrl,
      redirect_uri: `${spa.origin}/`,
    })
    // The token is in neither the page nor its storage, and the code left the address bar.
    const recorded: string[] = await page.evaluate(
      (variable) => Reflect.get(window, variable),
      recordedTokenResponses,
    )
    expect(recorded).toHaveLength(1)
    const { access_token: accessToken } = JSON.parse(recorded[0] ?? '') as { access_token: string }
    expect(accessToken.length).toBeGreaterThan(20)
    expect(await page.content()).not.toContain(accessToken)
    expect(await page.evaluate(() => JSON.stringify(sessionStorage))).toBe('{}')
    expect(new URL(page.url()).search).toBe('')
    // The page that did the exchange downloaded SMART code only: no chunk with PKI code.
    const scripts = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => new URL(entry.name))
        .filter((url) => url.origin === location.origin && url.pathname.endsWith('.js'))
        .map((url) => url.pathname),
    )
    expect(scripts).toContain('/app.js')
    for (const script of scripts) expect(pkiInputs(script)).toEqual([])
    await page.context().close()
  })

  it('refuses a callback whose state does not match the one this tab stored', async () => {
    const page = await newPage()
    await page.goto(`${spa.origin}/`)
    await page.locator('#status', { hasText: 'Ready.' }).waitFor()
    await page.evaluate(
      ([key]) =>
        sessionStorage.setItem(
          key ?? '',
          JSON.stringify({ state: 'mine', codeVerifier: 'v'.repeat(43) }),
        ),
      [pendingAuthorizationKey],
    )
    const tokenRequestsBefore = tokenRequestCount()

    await page.goto(`${spa.origin}/?code=stolen-code&state=forged`)
    await page.locator('#status', { hasText: 'Launch failed' }).waitFor()

    expect(await text(page, '#status')).toContain('does not match a launch started in this tab')
    expect(await text(page, '#patient')).toBe('–')
    expect(tokenRequestCount()).toBe(tokenRequestsBefore)
    await page.context().close()
  })

  it('refuses a callback when this tab never started a launch', async () => {
    const page = await newPage()
    await page.goto(`${spa.origin}/?code=stolen-code&state=whatever`)
    await page.locator('#status', { hasText: 'Launch failed' }).waitFor()

    expect(await text(page, '#status')).toContain('does not match a launch started in this tab')
    await page.context().close()
  })
})

describe('the bundle', () => {
  it('keeps pkijs, asn1js and node-forge out of the code the page loads up front', () => {
    const initial = staticClosure('app.js')

    expect(initial.length).toBeGreaterThan(0)
    expect(initial.flatMap((output) => pkiInputs(output))).toEqual([])
    // …while the lazily loaded PKCS#12 chunk does hold pkijs: the check can see it.
    const allPki = Object.values(metafile.outputs).flatMap((output) =>
      Object.keys(output.inputs).filter((input) => pkiPackages.test(input)),
    )
    expect(allPki.length).toBeGreaterThan(0)
  })

  it('stays small: the up-front JavaScript is under 30 KB gzip', async () => {
    let gzipBytes = 0
    let minifiedBytes = 0
    for (const output of staticClosure('app.js')) {
      const code = await readFile(join(outdir, output))
      minifiedBytes += code.length
      gzipBytes += gzipSync(code, { level: 9 }).length
    }
    console.log(`browser-spa up-front JS: ${minifiedBytes} B minified, ${gzipBytes} B gzip`)

    expect(gzipBytes).toBeLessThan(30_000)
  })
})

function tokenRequestCount(): number {
  return sandbox.requests.filter((request) => request.path === '/token').length
}

/** Metafile output key for a path relative to `outdir` (esbuild keys are cwd-relative). */
function outputKey(pathInOutdir: string): string {
  return relative(process.cwd(), join(outdir, pathInOutdir.replace(/^\//, '')))
}

/** The PKI package inputs bundled into one output file. */
function pkiInputs(pathInOutdir: string): string[] {
  const output = metafile.outputs[outputKey(pathInOutdir)]
  if (output === undefined) throw new Error(`no build output ${pathInOutdir}`)
  return Object.keys(output.inputs).filter((input) => pkiPackages.test(input))
}

/** `entry` and every chunk it imports statically (what the browser loads before running it). */
function staticClosure(entry: string): string[] {
  const seen = new Set<string>()
  const visit = (key: string): void => {
    if (seen.has(key)) return
    seen.add(key)
    for (const imported of metafile.outputs[key]?.imports ?? []) {
      if (imported.kind === 'import-statement') visit(imported.path)
    }
  }
  visit(outputKey(entry))
  return [...seen].map((key) => relative(outdir, join(process.cwd(), key)))
}
