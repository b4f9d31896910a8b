import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type KeyValueStore, memoryStore } from '@fhir-auth/client'
import { type SmartSandbox, startSmartSandbox } from '@fhir-auth/sandbox'
import { CookieAgent } from '@fhir-auth/test-utils/cookie-agent'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../src/app.js'

let sandbox: SmartSandbox
let server: Server
let appOrigin: string
/** The app's one store, with every key written recorded. */
const written: string[] = []
const inner = memoryStore()
const store: KeyValueStore = {
  ...inner,
  set: async (key, value, ttlSeconds) => {
    written.push(key)
    await inner.set(key, value, ttlSeconds)
  },
}
/** The app's clock: the real time, moved forward by the test that needs it. */
let clockOffsetMs = 0
const now = () => new Date(Date.now() + clockOffsetMs)

beforeAll(async () => {
  // The redirect URI holds the app's port: reserve one, start the sandbox, then the app on it.
  const { createServer } = await import('node:http')
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const port = (probe.address() as AddressInfo).port
  await new Promise((resolve) => probe.close(resolve))
  appOrigin = `http://127.0.0.1:${port}`
  const redirectUri = `${appOrigin}/callback`
  sandbox = await startSmartSandbox({
    clients: [
      {
        client_id: 'express-app',
        token_endpoint_auth_method: 'client_secret_basic',
        client_secret: 'express-app-secret-for-tests-only',
        redirect_uris: [redirectUri],
      },
    ],
  })
  const app = createApp(
    {
      fhirBaseUrl: sandbox.fhirBaseUrl,
      clientId: 'express-app',
      clientSecret: 'express-app-secret-for-tests-only',
      redirectUri,
      allowInsecureLocalhost: true,
    },
    { store, clientOptions: { now } },
  )
  server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(port, '127.0.0.1', (error?: Error) =>
      error ? reject(error) : resolve(listening),
    )
  })
})

afterAll(async () => {
  await sandbox?.close()
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
})

/** Starts at `path` in this browser and returns the URL the app sends it to. */
async function start(agent: CookieAgent, path: string): Promise<string> {
  const response = await agent.get(`${appOrigin}${path}`)
  expect(response.status).toBe(302)
  return response.headers.get('location') ?? ''
}

/** Starts at `path`, lets the sandbox's user approve, and returns the callback URL. */
async function authorizeFrom(agent: CookieAgent, path: string): Promise<URL> {
  const result = await sandbox.authorize({ url: await start(agent, path) })
  if (result.redirectUrl === undefined) throw new Error(`authorization failed: ${result.error}`)
  return result.redirectUrl
}

/** Completes the callback and returns the page the app then shows at `/`. */
async function finishSignIn(agent: CookieAgent, callbackUrl: URL): Promise<string> {
  const callback = await agent.get(callbackUrl)
  expect(callback.status, await callback.clone().text()).toBe(302)
  expect(callback.headers.get('location')).toBe('/')
  const home = await agent.get(`${appOrigin}/`)
  expect(home.status).toBe(200)
  return home.text()
}

/** Token requests that exchanged this callback's code. */
function exchangesOf(callbackUrl: URL) {
  const code = callbackUrl.searchParams.get('code')
  return sandbox.requests.filter(
    (request) => request.path === '/token' && request.form?.code === code,
  )
}

describe('standalone launch', () => {
  it('signs in and shows the patient read from FHIR through the session', async () => {
    const agent = new CookieAgent()
    const html = await finishSignIn(agent, await authorizeFrom(agent, '/login'))

    expect(html).toContain('<span id="patient-id">patient-1</span>')
    // The name comes from GET /fhir/Patient/patient-1, sent with the access token.
    expect(html).toContain('<span id="patient-name">patient-1 Sandbox</span>')
    expect(html).toContain(
      `<span id="user">${sandbox.fhirBaseUrl}/Practitioner/practitioner-1</span>`,
    )
    const patientRead = sandbox.requests
      .filter((request) => request.path === '/fhir/Patient/patient-1')
      .at(-1)
    expect(patientRead?.headers.authorization).toMatch(/^Bearer /)
    const tokenRequest = sandbox.requests.filter((request) => request.path === '/token').at(-1)
    expect(tokenRequest?.headers.authorization).toMatch(/^Basic /)
  })

  it('keeps the launch and the session in the store; the session cookie holds only a new random id', async () => {
    written.length = 0
    const agent = new CookieAgent()
    const callbackUrl = await authorizeFrom(agent, '/login')
    await finishSignIn(agent, callbackUrl)

    expect(written.map((key) => key.replace(/:[\w-]{43}$/, ':<hash>'))).toEqual([
      'fhir-auth:launch:<hash>',
      'fhir-auth:session:<hash>',
    ])
    // Served over plain HTTP to 127.0.0.1: not Secure, so not __Host- either.
    const [launchCookie = '', cleared = '', session = ''] = agent.setCookieHeaders
    expect(launchCookie).toMatch(/^fhir-auth-launch=[\w-]+; HttpOnly; SameSite=Lax; Path=\/; /)
    expect(cleared).toMatch(/^fhir-auth-launch=; .*Max-Age=0$/)
    expect(session).toMatch(/^fhir-auth=[\w-]{43}; HttpOnly; SameSite=Lax; Path=\/; /)
    expect(session).not.toContain(callbackUrl.searchParams.get('state'))
    expect(session).not.toContain(callbackUrl.searchParams.get('code'))
  })

  it('refreshes an expired session on the next page and keeps the rotated tokens', async () => {
    const agent = new CookieAgent()
    await finishSignIn(agent, await authorizeFrom(agent, '/login'))
    const refreshes = () =>
      sandbox.requests.filter(
        (request) => request.path === '/token' && request.form?.grant_type === 'refresh_token',
      ).length
    const before = refreshes()
    clockOffsetMs = 3600_000
    try {
      // Once: the rotated refresh token went back to the store, so the second page needs none.
      for (let page = 0; page < 2; page++) {
        const home = await agent.get(`${appOrigin}/`)
        expect(await home.text()).toContain('<span id="patient-id">patient-1</span>')
      }
      expect(refreshes() - before).toBe(1)
    } finally {
      clockOffsetMs = 0
    }
  })

  it('shows the login link when no one is signed in', async () => {
    const home = await new CookieAgent().get(`${appOrigin}/`)
    expect(await home.text()).toContain('href="/login"')
  })

  it('signs out: the tokens revoked at the server, the session gone', async () => {
    const agent = new CookieAgent()
    await finishSignIn(agent, await authorizeFrom(agent, '/login'))
    const revocations = () =>
      sandbox.requests.filter((request) => request.path === '/token/revocation').length
    const before = revocations()

    const signedOut = await agent.post(`${appOrigin}/logout`)

    expect(signedOut.status).toBe(303)
    expect(revocations() - before).toBe(2)
    expect(await (await agent.get(`${appOrigin}/`)).text()).toContain('href="/login"')
  })
})

describe('EHR launch', () => {
  it('sends the launch value and shows the patient the EHR chose', async () => {
    const agent = new CookieAgent()
    const launch = sandbox.createLaunch({ patient: 'patient-42' })
    const query = new URLSearchParams({ iss: sandbox.fhirBaseUrl, launch })
    const authUrl = await start(agent, `/launch?${query}`)
    expect(new URL(authUrl).searchParams.get('launch')).toBe(launch)
    expect(new URL(authUrl).searchParams.get('scope')?.split(' ')).toContain('launch')

    const { redirectUrl } = await sandbox.authorize({ url: authUrl })
    expect(await finishSignIn(agent, redirectUrl ?? new URL(appOrigin))).toContain(
      '<span id="patient-id">patient-42</span>',
    )
  })

  it('refuses a launch naming another FHIR server, sending the user nowhere', async () => {
    const launch = sandbox.createLaunch({ patient: 'patient-42' })
    const query = new URLSearchParams({ iss: 'https://evil.example/fhir', launch })
    const requestsBefore = sandbox.requests.length
    const response = await new CookieAgent().get(`${appOrigin}/launch?${query}`)
    expect(sandbox.requests.length).toBe(requestsBefore)

    expect(response.status).toBe(400)
    expect(response.headers.get('location')).toBeNull()
    expect(await response.text()).toContain('Unknown iss')
  })

  it('refuses a launch without launch', async () => {
    const query = new URLSearchParams({ iss: sandbox.fhirBaseUrl })
    expect((await new CookieAgent().get(`${appOrigin}/launch?${query}`)).status).toBe(400)
  })
})

describe('the callback is bound to the browser that started the sign-in (RFC 6749 §10.12)', () => {
  it("refuses the attacker's callback in a victim's browser that started no sign-in", async () => {
    const attackersCallback = await authorizeFrom(new CookieAgent(), '/login')

    const response = await new CookieAgent().get(attackersCallback)

    expect(response.status).toBe(403)
    expect(await response.text()).toContain('not started in this browser')
    expect(exchangesOf(attackersCallback)).toEqual([])
  })

  it("refuses the attacker's callback in a victim's browser with its own sign-in pending", async () => {
    const attackersCallback = await authorizeFrom(new CookieAgent(), '/login')
    const victim = new CookieAgent()
    await start(victim, '/login')

    expect((await victim.get(attackersCallback)).status).toBe(403)
    expect(exchangesOf(attackersCallback)).toEqual([])
  })

  it('refuses a forged or missing state', async () => {
    const agent = new CookieAgent()
    const callbackUrl = await authorizeFrom(agent, '/login')
    const forged = new URL(callbackUrl)
    forged.searchParams.set('state', 'forged-state')
    const missing = new URL(callbackUrl)
    missing.searchParams.delete('state')

    expect((await agent.get(forged)).status).toBe(403)
    expect((await agent.get(missing)).status).toBe(403)
    expect(exchangesOf(callbackUrl)).toEqual([])
  })

  it('completes a sign-in once', async () => {
    const agent = new CookieAgent()
    const callbackUrl = await authorizeFrom(agent, '/login')
    await finishSignIn(agent, callbackUrl)

    // The launch cookie named it until it came back: the replay is not this browser's any more.
    expect((await agent.get(callbackUrl)).status).toBe(403)
    expect(exchangesOf(callbackUrl)).toHaveLength(1)
  })

  it('shows the error when the user denies access', async () => {
    const agent = new CookieAgent()
    const result = await sandbox.authorize(
      { url: await start(agent, '/login') },
      { decision: 'deny' },
    )

    const response = await agent.get(result.redirectUrl ?? '')

    expect(response.status).toBe(400)
    expect(await response.text()).toBe('Sign-in failed: access_denied\n')
  })
})
