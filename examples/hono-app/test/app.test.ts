/**
 * The Hono app against two real SMART sandboxes, driven through `app.fetch` (the Fetch API, as
 * Deno, Bun and Workers call it) with a small cookie jar: an EHR launch from each EHR, the
 * patient read through the session, sign-out, a foreign `iss` and another browser's callback.
 */
import { type SmartSandbox, sandboxDefaultRedirectUri, startSmartSandbox } from '@fhir-auth/sandbox'
import type { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../src/app.js'

const registration = { clientId: 'hono-app', clientSecret: 'hono-app-secret-0123456789' }
let ehrs: SmartSandbox[]
let app: Hono

beforeAll(async () => {
  ehrs = await Promise.all(
    [1, 2].map(() =>
      startSmartSandbox({
        clients: [
          {
            client_id: registration.clientId,
            token_endpoint_auth_method: 'client_secret_basic',
            client_secret: registration.clientSecret,
          },
        ],
      }),
    ),
  )
  app = createApp({
    ehrs: ehrs.map((ehr) => ({ baseUrl: ehr.fhirBaseUrl, ...registration })),
    redirectUri: sandboxDefaultRedirectUri,
    allowInsecureLocalhost: true,
  })
})

afterAll(async () => {
  await Promise.all(ehrs?.map((ehr) => ehr.close()) ?? [])
})

/** A browser on https://app.example: keeps the cookies the app sets, follows no redirect. */
class Browser {
  readonly #cookies = new Map<string, string>()

  async open(path: string, method = 'GET'): Promise<Response> {
    const cookie = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    const response = await app.fetch(
      new Request(new URL(path, 'https://app.example'), { method, headers: { cookie } }),
    )
    for (const header of response.headers.getSetCookie()) {
      const [name = '', value = ''] = (header.split(';')[0] ?? '').split(/=(.*)/)
      if (header.includes('Max-Age=0')) this.#cookies.delete(name)
      else this.#cookies.set(name, value)
    }
    return response
  }
}

/** An EHR launch at `ehr` up to the callback path, not yet opened. */
async function launchAt(browser: Browser, ehr: SmartSandbox): Promise<string> {
  const launch = ehr.createLaunch({ patient: 'patient-1' })
  const started = await browser.open(
    `/launch?iss=${encodeURIComponent(ehr.fhirBaseUrl)}&launch=${launch}`,
  )
  expect(started.status).toBe(302)
  const result = await ehr.authorize({ url: started.headers.get('location') ?? '' })
  if (result.redirectUrl === undefined) throw new Error(`sign-in failed: ${result.error}`)
  return `${result.redirectUrl.pathname}${result.redirectUrl.search}`
}

describe('a Hono app for two EHRs', () => {
  it('signs in from each EHR and reads the patient through the session', async () => {
    for (const ehr of ehrs) {
      const browser = new Browser()
      expect((await browser.open(await launchAt(browser, ehr))).status).toBe(302)
      const patient = await browser.open('/patient')
      expect(patient.status).toBe(200)
      expect(((await patient.json()) as { id?: string }).id).toBe('patient-1')
      expect(ehr.requests.filter((request) => request.path === '/token')).toHaveLength(1)
    }
  })

  it('signs out: the session is gone', async () => {
    const browser = new Browser()
    await browser.open(await launchAt(browser, ehrs[0] as SmartSandbox))
    expect((await browser.open('/logout', 'POST')).status).toBe(303)
    expect((await browser.open('/patient')).status).toBe(401)
  })

  it('refuses a foreign iss and a callback from another browser', async () => {
    const browser = new Browser()
    const foreign = await browser.open('/launch?iss=https%3A%2F%2Fattacker.example%2Ffhir&launch=x')
    expect(foreign.status).toBe(400)
    const callback = await launchAt(browser, ehrs[1] as SmartSandbox)
    expect((await new Browser().open(callback)).status).toBe(403)
  })
})
