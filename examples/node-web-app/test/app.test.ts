/**
 * The app against two real SMART sandboxes (EHR A: the one `pnpm sandbox` prints, EHR B: a
 * second one registering the same client), over HTTP with a cookie-keeping browser: an EHR launch
 * from each, a standalone login, sign-out, a foreign `iss` and another browser's callback.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type LocalSandboxes,
  type SmartSandbox,
  startLocalSandboxes,
  startSmartSandbox,
} from '@fhir-auth/sandbox'
import { CookieAgent } from '@fhir-auth/test-utils/cookie-agent'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWebApp } from '../src/app.js'

let sandboxes: LocalSandboxes
let ehrB: SmartSandbox
let server: Server
let origin: string

beforeAll(async () => {
  sandboxes = await startLocalSandboxes()
  const { baseUrl, webAppClient } = sandboxes.description.smart
  ehrB = await startSmartSandbox({
    clients: [
      {
        client_id: webAppClient.clientId,
        token_endpoint_auth_method: 'client_secret_basic',
        client_secret: webAppClient.clientSecret,
        redirect_uris: [webAppClient.redirectUri],
      },
    ],
  })
  const registration = { clientId: webAppClient.clientId, clientSecret: webAppClient.clientSecret }
  server = createServer(
    createWebApp({
      ehrs: [
        { baseUrl, ...registration },
        { baseUrl: ehrB.fhirBaseUrl, ...registration },
      ],
      redirectUri: webAppClient.redirectUri,
      allowInsecureLocalhost: true,
    }),
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  await Promise.all([sandboxes?.close(), ehrB?.close()])
})

/** `url` on the app under test (the sandbox names port 3000). */
const onApp = (url: string | URL) => `${origin}${new URL(url).pathname}${new URL(url).search}`

/** Opens `path` on the app, signs in at `ehr`, and returns the callback URL, not yet opened. */
async function launchAt(browser: CookieAgent, ehr: SmartSandbox, path: string): Promise<string> {
  const launch = await browser.get(`${origin}${path}`)
  expect(launch.status).toBe(302)
  const result = await ehr.authorize({ url: launch.headers.get('location') ?? '' })
  if (result.redirectUrl === undefined) throw new Error(`sign-in failed: ${result.error}`)
  return onApp(result.redirectUrl)
}

describe('a web app for two EHRs', () => {
  it('opens from the EHR launch URL the sandbox prints and shows its patient', async () => {
    const { webAppClient } = sandboxes.description.smart
    const browser = new CookieAgent()
    const printed = new URL(webAppClient.ehrLaunchUrl)
    const callback = await launchAt(
      browser,
      sandboxes.smart,
      `${printed.pathname}${printed.search}`,
    )
    expect((await browser.get(callback)).status).toBe(302)
    const page = await (await browser.get(`${origin}/`)).text()
    expect(page).toContain(`<span id="patient-id">${webAppClient.ehrLaunchPatient}</span>`)
  })

  it('opens from the second EHR too, with its own session', async () => {
    const browser = new CookieAgent()
    const launch = ehrB.createLaunch({ patient: 'patient-1' })
    const path = `/launch?iss=${encodeURIComponent(ehrB.fhirBaseUrl)}&launch=${launch}`
    expect((await browser.get(await launchAt(browser, ehrB, path))).status).toBe(302)
    expect(await (await browser.get(`${origin}/`)).text()).toContain('patient-1')
    expect(ehrB.requests.filter((request) => request.path === '/token')).toHaveLength(1)
  })

  it('signs in standalone at the EHR the user picks, and signs out', async () => {
    const browser = new CookieAgent()
    const signIn = await (await browser.get(`${origin}/`)).text()
    expect(signIn).toContain(`/login?iss=${encodeURIComponent(ehrB.fhirBaseUrl)}`)
    const path = `/login?iss=${encodeURIComponent(ehrB.fhirBaseUrl)}`
    await browser.get(await launchAt(browser, ehrB, path))
    expect((await browser.get(`${origin}/`)).status).toBe(200)
    const signedOut = await browser.post(`${origin}/logout`)
    expect(signedOut.status).toBe(303)
    expect((await browser.get(`${origin}/`)).status).toBe(401)
  })

  it('refuses an EHR it is not registered with, and a callback from another browser', async () => {
    const browser = new CookieAgent()
    const foreign = await browser.get(
      `${origin}/launch?iss=https%3A%2F%2Fehr.attacker.example%2Ffhir&launch=x`,
    )
    expect(foreign.status).toBe(400)
    const callback = await launchAt(
      browser,
      sandboxes.smart,
      `/login?iss=${encodeURIComponent(sandboxes.smart.fhirBaseUrl)}`,
    )
    expect((await new CookieAgent().get(callback)).status).toBe(403)
  })
})
