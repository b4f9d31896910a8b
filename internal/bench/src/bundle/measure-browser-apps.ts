/**
 * What SMART browser apps download, measured as issue 16 asks: each app bundled with esbuild
 * (browser, ESM, minified, split per dynamic import), run in headless Chromium against a fake EHR
 * through its `fetch` option, and the chunks the browser actually fetched during the run gzipped
 * one by one and summed, with the per-source breakdown from the metafile.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto'
import type { JWK } from 'jose'
import type { Browser } from 'playwright-core'
import { type AppRun, launchChromium, runAppInBrowser } from './browser-run.js'
import { type BrowserAppBundle, buildBrowserApp, type LibrarySource } from './build-browser-app.js'
import { staticClosure } from './chunk-graph.js'
import { type ChunkGroup, chunkGroup } from './chunk-group.js'
import { serveChunks } from './chunk-server.js'
import { type CodeRun, codeRun } from './code-run.js'
import { FakeEhr, type GrantSeen } from './fake-ehr.js'

/** The measured apps. */
export type BrowserAppId = 'asymmetric' | 'public' | 'publicWithoutOpenid' | 'clientImport'

/** One app's figures. */
export interface BrowserAppMeasurement {
  readonly id: BrowserAppId
  /** What the app does, for reports. */
  readonly description: string
  /** Every chunk the browser fetched during the run. */
  readonly loaded: ChunkGroup
  /** The entry chunk and its static imports: what loads before the app can start. */
  readonly upFront: ChunkGroup
  /** File names in the order the browser fetched them. */
  readonly loadOrder: readonly string[]
  /** How much of the loaded code the run executed: the floors structure cannot go below. */
  readonly ran: CodeRun
}

/** The scopes of the usual launch: the ID token is validated. */
export const launchScopesWithOpenid: readonly string[] = Object.freeze([
  'launch/patient',
  'patient/*.rs',
  'openid',
  'fhirUser',
])
/** The same launch without OpenID Connect: no ID token, no validation code. */
export const launchScopesWithoutOpenid: readonly string[] = Object.freeze([
  'launch/patient',
  'patient/*.rs',
])

interface AppPlan {
  readonly id: BrowserAppId
  readonly description: string
  readonly entry: string
  readonly exportName: string | undefined
  readonly arguments: readonly unknown[]
  readonly clientKey?: JWK | undefined
  /** Checks the run did every flow; returns what is wrong. */
  readonly check: (value: unknown, ehr: FakeEhr) => string | undefined
}

/**
 * Measures every app. One Chromium serves all runs, each in a fresh context (empty cache, own
 * `sessionStorage`); each entry is bundled on its own, as an app would be.
 *
 * @throws Error when a bundle fails, a run fails, or a run did not do all its flows.
 */
export async function measureBrowserApps(
  librarySource: LibrarySource = 'sources',
): Promise<readonly BrowserAppMeasurement[]> {
  const plans = appPlans()
  const bundles = new Map<string, BrowserAppBundle>()
  for (const entry of new Set(plans.map((plan) => plan.entry))) {
    bundles.set(entry, await buildBrowserApp(entry, librarySource))
  }
  const browser = await launchChromium()
  try {
    const measurements: BrowserAppMeasurement[] = []
    for (const plan of plans) {
      measurements.push(
        await measureApp(browser, bundles.get(plan.entry) as BrowserAppBundle, plan),
      )
    }
    return measurements
  } finally {
    await browser.close()
  }
}

async function measureApp(
  browser: Browser,
  bundle: BrowserAppBundle,
  plan: AppPlan,
): Promise<BrowserAppMeasurement> {
  const files = new Map([...bundle.chunks.values()].map((chunk) => [chunk.name, chunk.contents]))
  const server = await serveChunks(files)
  try {
    const ehr = new FakeEhr(plan.clientKey)
    const run: AppRun = {
      entry: bundle.chunks.get(bundle.entryOutput)?.name ?? '',
      exportName: plan.exportName,
      arguments: plan.arguments,
      ehr,
    }
    const { value, loaded, coverage } = await runAppInBrowser(browser, server, run)
    const wrong = plan.check(value, ehr)
    if (wrong !== undefined) throw new Error(`${plan.id}: the run did not do its flows: ${wrong}`)
    const loadedPaths = loaded.map((name) => {
      const path = bundle.pathsByName.get(name)
      if (path === undefined) throw new Error(`${plan.id}: the browser asked for ${name}, no chunk`)
      return path
    })
    const upFrontPaths = staticClosure(bundle.metafile, bundle.entryOutput)
    const missing = [...upFrontPaths].filter((path) => !loadedPaths.includes(path))
    if (missing.length > 0) {
      throw new Error(`${plan.id}: static imports not fetched: ${missing.join(', ')}`)
    }
    return {
      id: plan.id,
      description: plan.description,
      loaded: chunkGroup(bundle.metafile, bundle.chunks, loadedPaths),
      upFront: chunkGroup(bundle.metafile, bundle.chunks, upFrontPaths),
      loadOrder: loaded,
      ran: codeRun(coverage, loaded),
    }
  } finally {
    await server.close()
  }
}

function appPlans(): readonly AppPlan[] {
  const { privateJwk, publicJwk } = es384ClientKey()
  const grants = (ehr: FakeEhr, expected: readonly GrantSeen[]) =>
    ehr.grants.join() === expected.join() ? undefined : `grants ${ehr.grants.join(', ')}`
  return [
    {
      id: 'asymmetric',
      description:
        'asymmetric SMART app (ES384 JWK): authorizationUrl → requestAccessToken → refreshToken → requestBackendToken',
      entry: 'asymmetric-app.ts',
      exportName: 'runAsymmetricApp',
      arguments: [privateJwk],
      clientKey: publicJwk,
      check: (value, ehr) => {
        const tokens = value as Record<string, unknown> | null
        if (typeof tokens?.backendAccessToken !== 'string') return 'no backend token'
        return grants(ehr, ['authorization_code', 'refresh_token', 'client_credentials'])
      },
    },
    {
      id: 'public',
      description: `public SMART app, scopes ${launchScopesWithOpenid.join(' ')}: beginAuthorization → completeAuthorization (ID token validated) → session.fetch`,
      entry: 'public-app.ts',
      exportName: 'runPublicApp',
      arguments: [launchScopesWithOpenid],
      check: (value, ehr) => {
        const run = value as { patientStatus?: unknown; subject?: unknown } | null
        if (run?.patientStatus !== 200) return `Patient read answered ${run?.patientStatus}`
        if (run.subject !== 'user-1' || ehr.idTokensIssued !== 1) return 'no validated ID token'
        return grants(ehr, ['authorization_code'])
      },
    },
    {
      id: 'publicWithoutOpenid',
      description: `public SMART app, scopes ${launchScopesWithoutOpenid.join(' ')} (no openid): beginAuthorization → completeAuthorization → session.fetch`,
      entry: 'public-app.ts',
      exportName: 'runPublicApp',
      arguments: [launchScopesWithoutOpenid],
      check: (value, ehr) => {
        const run = value as { patientStatus?: unknown; subject?: unknown } | null
        if (run?.patientStatus !== 200) return `Patient read answered ${run?.patientStatus}`
        if (run.subject !== undefined || ehr.idTokensIssued !== 0) return 'an ID token was issued'
        return grants(ehr, ['authorization_code'])
      },
    },
    {
      id: 'clientImport',
      description: "import { Client } from '@fhir-auth/client', nothing run",
      entry: 'client-import.ts',
      exportName: undefined,
      arguments: [],
      check: (_value, ehr) => (ehr.grants.length === 0 ? undefined : 'requests were made'),
    },
  ]
}

/**
 * A P-384 key for this run as a private JWK (the app's `privateKey`) and its public half (the
 * fake EHR's registered key). Exported as PEM first and re-imported: Node 20 can deadlock
 * exporting a freshly generated EC key straight to JWK.
 */
function es384ClientKey(): { privateJwk: JWK; publicJwk: JWK } {
  const pem = generateKeyPairSync('ec', { namedCurve: 'P-384' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString()
  const privateKey = createPrivateKey(pem)
  return {
    privateJwk: privateKey.export({ format: 'jwk' }) as JWK,
    publicJwk: createPublicKey(privateKey).export({ format: 'jwk' }) as JWK,
  }
}
