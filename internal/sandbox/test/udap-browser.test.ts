import { type Browser, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTieredOAuthSandboxes, type TieredOAuthSandboxes } from '../src/index.js'
import { type CallbackServer, startCallbackServer } from './support/callback-server.js'
import { sharedServerKeyPair } from './support/server-key.js'
import {
  authorizationParameters,
  authorizationUrl,
  type CodeClient,
  exchangeCode,
  pkcePair,
  registerCodeClient,
} from './udap-code-flow-client.js'

/** Debian's Chromium, as the rest of the workspace uses it; override with CHROMIUM_PATH. */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

let sandboxes: TieredOAuthSandboxes
let browser: Browser
let callbackServer: CallbackServer
let app: CodeClient

beforeAll(async () => {
  callbackServer = await startCallbackServer()
  const redirectUri = callbackServer.redirectUri
  ;[sandboxes, browser] = await Promise.all([
    sharedServerKeyPair().then((serverKeyPair) =>
      startTieredOAuthSandboxes({ dataHolder: { serverKeyPair } }),
    ),
    chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] }),
  ])
  app = await registerCodeClient(sandboxes.dataHolder, {
    scope: 'openid udap user/*.rs',
    redirectUris: [redirectUri],
  })
})

afterAll(async () => {
  await browser?.close()
  await sandboxes?.close()
  await callbackServer?.close()
})

describe('a real browser (headless Chromium) through the UDAP sandboxes', () => {
  it('completes a Tiered OAuth login across data holder and IdP (login cookie, redirects)', async () => {
    const { dataHolder, identityProvider } = sandboxes
    const { verifier, challenge } = pkcePair()
    const parameters = authorizationParameters(app, challenge, {
      scope: 'udap openid user/Patient.rs',
      idp: identityProvider.issuer,
    })
    const page = await browser.newPage()
    await page.goto(authorizationUrl(dataHolder, parameters))
    await page.close()

    const callback = callbackServer.callbacks.at(-1)
    expect(callback?.searchParams.get('error')).toBeNull()
    expect(callback?.searchParams.get('state')).toBe(parameters.state)
    expect(dataHolder.tieredLogins.at(-1)).toMatchObject({ outcome: 'code' })
    const answer = await exchangeCode(dataHolder, app, {
      code: callback?.searchParams.get('code') ?? '',
      verifier,
    })
    expect(answer.status).toBe(200)
  })
})
