/**
 * Two tabs of one origin in real headless Chromium share one SMART session through
 * `client.sessions({ store: indexedDbStore() })` (the guide's `tabSession`, support/
 * tab-session.ts), against the oidc-provider sandbox, which rotates refresh tokens and revokes
 * the whole grant when a spent one comes back. One tab saves the session, both open its id, and over three expiry windows (moved by the tabs' injected
 * clocks) both make 10 concurrent `session.fetch`/`session.accessToken` calls: exactly one
 * refresh per window, no refresh token sent twice (no `invalid_grant`), no failed call. Counts
 * on the server, not timings.
 */
import type { Client, ClientConfigInput, Session } from '@fhir-auth/client'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { refreshRequests, signIn } from '../fleet/support/session-fleet-setup.js'
import {
  appClient,
  appConfig,
  type SmartFixture,
  startSmartFixture,
} from '../smart/support/smart-fixture.js'
import { type BrowserTabs, bundleForPage, openBrowserTabs } from './support/browser-tabs.js'
import type { tabSession } from './support/tab-session.js'

/** What the page's bundle exposes. */
declare const fhirAuth: { Client: typeof Client; tabSession: typeof tabSession }

/** What a tab keeps between two `evaluate` calls. */
interface TabApp {
  readonly client: Client
  /** How far the tab's clock runs ahead of the real one. */
  offsetMs: number
  session?: Session | undefined
  /** The `event` of every warning the library logged. */
  readonly warnings: string[]
}
declare const window: Window & { app: TabApp }

const resource = 'Patient/patient-3'
const concurrentCalls = 10
/** Access tokens live 120 s and are renewed 60 s before expiry: each window is 70 s later. */
const lifetimeSeconds = 120
const windowStepMs = 70_000

let fixture: SmartFixture
let browser: BrowserTabs
let tabs: readonly [Page, Page]

/** Runs in a tab: a public `Client` with the tab's clock and a warning log. */
function setUpInTab(config: ClientConfigInput) {
  const warnings: string[] = []
  const tab = { offsetMs: 0, warnings } as Partial<TabApp> & { offsetMs: number }
  const client = new fhirAuth.Client(config, {
    clientType: 'public',
    timeoutMs: 8_000,
    now: () => new Date(Date.now() + tab.offsetMs),
    logger: {
      info() {},
      error() {},
      warn: (_message, fields) => void warnings.push(String(fields?.event)),
    },
  })
  window.app = Object.assign(tab, { client }) as TabApp
}

/** Runs in a tab: the shared session; `serialized` is the tab's own sign-in, if any. */
async function openInTab(serialized: string | undefined): Promise<boolean> {
  const { client } = window.app
  const signedIn = serialized === undefined ? undefined : client.resumeSession(serialized)
  window.app.session = await fhirAuth.tabSession(client, signedIn)
  return window.app.session !== undefined
}

/** Runs in a tab: `calls` concurrent calls (fetch and accessToken, alternately) at `offsetMs`. */
async function callInTab({
  offsetMs,
  calls,
  path,
}: {
  offsetMs: number
  calls: number
  path: string
}) {
  const app = window.app
  app.offsetMs = offsetMs
  const session = app.session as Session
  return Promise.all(
    Array.from({ length: calls }, async (_, call) => {
      try {
        if (call % 2 === 1) return { token: await session.accessToken() }
        const response = await session.fetch(path)
        return response.ok
          ? { token: session.tokens.accessToken }
          : { failure: `FHIR answered ${response.status}` }
      } catch (error) {
        return { failure: error instanceof Error ? `${error.name}: ${error.message}` : 'thrown' }
      }
    }),
  )
}

beforeAll(async () => {
  ;[fixture, browser] = await Promise.all([
    startSmartFixture({
      standalonePatient: 'patient-3',
      accessTokenLifetimeSeconds: lifetimeSeconds,
    }),
    bundleForPage(
      "export { Client } from '@fhir-auth/client'\nexport { tabSession } from './tab-session.js'",
    ).then(openBrowserTabs),
  ])
  tabs = browser.tabs as [Page, Page]
  const config = appConfig(fixture, 'public')
  await Promise.all(tabs.map((tab) => tab.evaluate(setUpInTab, config)))
  // The user signs in once (in Node: the sandbox's login is scripted); the tab keeps the session.
  const signedIn = await signIn(fixture, appClient(fixture, 'public'))
  expect(await tabs[0].evaluate(openInTab, signedIn.tokens.serialize())).toBe(true)
  // The id reaches the other tab's localStorage later: the tab opens the session once it has it.
  await tabs[1].waitForFunction(() => localStorage.getItem('session-id') !== null)
  expect(await tabs[1].evaluate(openInTab, undefined)).toBe(true)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await fixture?.sandbox.close()
})

/** The refresh tokens the sandbox was sent, in order. */
function refreshTokensSent(): string[] {
  return fixture.sandbox.requests
    .filter((request) => request.path === '/token' && request.form?.grant_type === 'refresh_token')
    .map((request) => request.form?.refresh_token ?? '')
}

describe(`two Chromium tabs × ${concurrentCalls} concurrent calls on one stored session`, () => {
  let lastToken: string | undefined

  for (const expiryWindow of [1, 2, 3]) {
    it(`expiry window ${expiryWindow}: exactly 1 refresh, every call succeeds`, async () => {
      const before = refreshRequests(fixture)
      const results = await Promise.all(
        tabs.map((tab) =>
          tab.evaluate(callInTab, {
            offsetMs: expiryWindow * windowStepMs,
            calls: concurrentCalls,
            path: resource,
          }),
        ),
      )
      expect(refreshRequests(fixture) - before).toBe(1)
      const all = results.flat()
      expect(all.filter((result) => 'failure' in result)).toEqual([])
      expect(all).toHaveLength(2 * concurrentCalls)
      const tokens = new Set(all.map((result) => ('token' in result ? result.token : undefined)))
      expect(tokens.size).toBe(1)
      expect([...tokens][0]).not.toBe(lastToken)
      lastToken = [...tokens][0]
      // No refresh token was sent twice: a rotating server never answered invalid_grant.
      const sent = refreshTokensSent()
      expect(new Set(sent).size).toBe(sent.length)
      const warnings = await Promise.all(tabs.map((tab) => tab.evaluate(() => window.app.warnings)))
      expect(warnings).toEqual([[], []])
    }, 60_000)
  }
})
