import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SmartSandbox, startSmartSandbox } from '../../src/index.js'
import { type CallbackServer, startCallbackServer } from '../support/callback-server.js'
import { authorizationUrl, prepareAuthorization } from './support/authorization.js'
import { postForm } from './support/http.js'

/** Debian's Chromium, as the rest of the workspace uses it; override with CHROMIUM_PATH. */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const scope = 'openid fhirUser launch/patient patient/*.rs offline_access'

let sandbox: SmartSandbox
let browser: Browser
let callbackServer: CallbackServer
let redirectUri: string
let callbacks: readonly URL[]

beforeAll(async () => {
  callbackServer = await startCallbackServer()
  redirectUri = callbackServer.redirectUri
  callbacks = callbackServer.callbacks
  ;[sandbox, browser] = await Promise.all([
    startSmartSandbox({
      clients: [
        {
          client_id: 'browser-app',
          token_endpoint_auth_method: 'none',
          redirect_uris: [redirectUri],
        },
      ],
    }),
    chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] }),
  ])
})

afterAll(async () => {
  await browser?.close()
  await sandbox?.close()
  await callbackServer?.close()
})

describe('a real browser (headless Chromium) through the sandbox', () => {
  it('completes a GET authorization to the redirect_uri', async () => {
    const page = await browser.newPage()
    const prepared = prepareAuthorization(sandbox, { clientId: 'browser-app', scope, redirectUri })
    await page.goto(authorizationUrl(sandbox, prepared))
    await page.close()

    const callback = callbacks.at(-1)
    expect(callback?.searchParams.get('state')).toBe(prepared.state)
    expect(callback?.searchParams.get('code')).toEqual(expect.any(String))
  })

  it('completes a cross-site authorize-POST form to the redirect_uri', async () => {
    const page = await browser.newPage()
    const prepared = prepareAuthorization(sandbox, { clientId: 'browser-app', scope, redirectUri })
    await page.setContent(
      `<form method="post" action="${sandbox.endpoints.authorization}">${Object.entries(
        prepared.params,
      )
        .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
        .join('')}</form>`,
    )
    await Promise.all([
      page.waitForURL((url) => url.pathname === '/callback', { timeout: 5_000 }),
      page.evaluate(() => document.forms[0]?.submit()),
    ])
    await page.close()

    const callback = callbacks.at(-1)
    expect(callback?.searchParams.get('state')).toBe(prepared.state)
    expect(callback?.searchParams.get('code')).toEqual(expect.any(String))
  })

  it('gives a second EHR launch in the same browser session its own context', async () => {
    const page = await browser.newPage()
    const patients: unknown[] = []
    for (const patient of ['patient-a', 'patient-b']) {
      const launch = sandbox.createLaunch({ patient })
      const prepared = prepareAuthorization(sandbox, {
        clientId: 'browser-app',
        scope: 'launch openid patient/*.rs',
        redirectUri,
        launch,
      })
      await page.goto(authorizationUrl(sandbox, prepared))
      const token = await postForm(sandbox.endpoints.token, {
        grant_type: 'authorization_code',
        code: callbacks.at(-1)?.searchParams.get('code') ?? '',
        redirect_uri: redirectUri,
        code_verifier: prepared.pkce.verifier,
        client_id: 'browser-app',
      })
      patients.push(token.body.patient)
    }
    await page.close()

    expect(patients).toEqual(['patient-a', 'patient-b'])
  })
})
