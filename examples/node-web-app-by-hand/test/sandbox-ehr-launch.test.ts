/**
 * The EHR launch `pnpm sandbox` prints for this app: its client, secret and redirect URI, and the
 * launch URL an EHR would open, work as printed (only the app's port differs: the test cannot
 * take port 3000).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type LocalSandboxes, startLocalSandboxes } from '@fhir-auth/sandbox'
import { CookieAgent } from '@fhir-auth/test-utils/cookie-agent'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWebApp } from '../src/web-app.js'

let sandboxes: LocalSandboxes
let server: Server
let appOrigin: string

beforeAll(async () => {
  sandboxes = await startLocalSandboxes()
  const { webAppClient, baseUrl } = sandboxes.description.smart
  server = createServer(
    createWebApp({
      fhirBaseUrl: baseUrl,
      clientId: webAppClient.clientId,
      clientSecret: webAppClient.clientSecret,
      redirectUri: webAppClient.redirectUri,
      allowInsecureLocalhost: true,
    }),
  )
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  appOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await sandboxes?.close()
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
})

/** `url` with the origin of the app under test (the printed one names port 3000). */
function onTestApp(url: string | URL): string {
  const printed = new URL(url)
  return `${appOrigin}${printed.pathname}${printed.search}`
}

describe('the EHR launch pnpm sandbox prints for examples/node-web-app', () => {
  it('is the app launch URL on the origin of its redirect URI, with iss and a launch value', () => {
    const { webAppClient, baseUrl } = sandboxes.description.smart
    const launchUrl = new URL(webAppClient.ehrLaunchUrl)
    // Same origin as the callback: the browser must send the cookie set at /launch back there.
    expect(launchUrl.origin).toBe(new URL(webAppClient.redirectUri).origin)
    expect(launchUrl.pathname).toBe('/launch')
    expect(launchUrl.searchParams.get('iss')).toBe(baseUrl)
    expect(launchUrl.searchParams.get('launch')).toMatch(/.{16,}/)
  })

  it('signs in through the SMART sandbox and shows the launch patient', async () => {
    const { smart } = sandboxes
    const { webAppClient } = sandboxes.description.smart
    const browser = new CookieAgent()

    const launch = await browser.get(onTestApp(webAppClient.ehrLaunchUrl))
    expect(launch.status).toBe(302)
    const authorization = await smart.authorize({ url: launch.headers.get('location') ?? '' })
    if (authorization.redirectUrl === undefined) {
      throw new Error(`authorization failed: ${authorization.error}`)
    }
    expect(authorization.redirectUrl.href.startsWith(webAppClient.redirectUri)).toBe(true)

    const callback = await browser.get(onTestApp(authorization.redirectUrl))
    expect(callback.status).toBe(303)
    const home = await browser.get(`${appOrigin}/`)
    expect(home.status).toBe(200)
    const html = await home.text()
    expect(html).toContain(`<span id="patient-id">${webAppClient.ehrLaunchPatient}</span>`)
  })

  it('keeps working: an EHR opens the same launch URL again', async () => {
    const { webAppClient } = sandboxes.description.smart
    const launch = await new CookieAgent().get(onTestApp(webAppClient.ehrLaunchUrl))
    const result = await sandboxes.smart.authorize({ url: launch.headers.get('location') ?? '' })
    expect(result.error).toBeUndefined()
    expect(result.code).toBeDefined()
  })
})
