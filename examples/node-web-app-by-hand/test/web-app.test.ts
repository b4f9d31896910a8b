import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type KeyValueStore, memoryStore, TokenSet } from '@fhir-auth/client'
import { type SmartSandbox, startSmartSandbox } from '@fhir-auth/sandbox'
import { CookieAgent } from '@fhir-auth/test-utils/cookie-agent'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sessionCookieName } from '../src/session-cookie.js'
import { createWebApp } from '../src/web-app.js'

let sandbox: SmartSandbox
let server: Server
let appOrigin: string
/** The app's one store (launches and sessions), with every key written recorded. */
const written: { key: string; value: string }[] = []
const inner = memoryStore()
const store: KeyValueStore = {
  ...inner,
  set: async (key, value, ttlSeconds) => {
    written.push({ key, value })
    await inner.set(key, value, ttlSeconds)
  },
}
/** The app's clock: the real time, moved forward by the test that needs it. */
let clockOffsetMs = 0
const now = () => new Date(Date.now() + clockOffsetMs)

beforeAll(async () => {
  // The redirect URI contains the app's port, so listen first, then configure the app.
  server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  appOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const redirectUri = `${appOrigin}/callback`
  sandbox = await startSmartSandbox({
    clients: [
      {
        client_id: 'web-app',
        token_endpoint_auth_method: 'client_secret_basic',
        client_secret: 'web-app-secret-for-tests-only',
        redirect_uris: [redirectUri],
      },
    ],
  })
  server.on(
    'request',
    createWebApp(
      {
        fhirBaseUrl: sandbox.fhirBaseUrl,
        clientId: 'web-app',
        clientSecret: 'web-app-secret-for-tests-only',
        redirectUri,
        allowInsecureLocalhost: true,
      },
      { store, clientOptions: { now } },
    ),
  )
})

afterAll(async () => {
  await sandbox?.close()
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
})

/** Starts at `path`, lets the sandbox's user approve, and returns the callback URL. */
async function authorizeFrom(agent: CookieAgent, path: string): Promise<URL> {
  const start = await agent.get(`${appOrigin}${path}`)
  expect(start.status).toBe(302)
  const result = await sandbox.authorize({ url: start.headers.get('location') ?? '' })
  if (result.redirectUrl === undefined) throw new Error(`authorization failed: ${result.error}`)
  return result.redirectUrl
}

/** Completes the callback and returns the page the app then shows at `/`. */
async function finishSignIn(agent: CookieAgent, callbackUrl: URL): Promise<string> {
  const callback = await agent.get(callbackUrl)
  expect(callback.status).toBe(303)
  expect(callback.headers.get('location')).toBe('/')
  const home = await agent.get(`${appOrigin}/`)
  expect(home.status).toBe(200)
  return home.text()
}

describe('standalone launch', () => {
  it('signs in through the authorization server and shows the patient read from FHIR', async () => {
    const agent = new CookieAgent()
    const callbackUrl = await authorizeFrom(agent, '/login')
    const html = await finishSignIn(agent, callbackUrl)

    expect(html).toContain('<span id="patient-id">patient-1</span>')
    // The name comes from GET /fhir/Patient/patient-1 made with the access token.
    expect(html).toContain('<span id="patient-name">patient-1 Sandbox</span>')
    expect(html).toContain('patient/Patient.rs')
    const patientRead = sandbox.requests.find(
      (request) => request.path === '/fhir/Patient/patient-1',
    )
    expect(patientRead?.headers.authorization).toMatch(/^Bearer /)
  })

  it('keeps the launch and the sessions in one KeyValueStore; the tokens only server-side', async () => {
    written.length = 0
    const agent = new CookieAgent()
    const callbackUrl = await authorizeFrom(agent, '/login')
    const html = await finishSignIn(agent, callbackUrl)

    // The launch under the library's key (a hash of state), then the app's pending and signed-in sessions.
    expect(written.map((entry) => entry.key.replace(/:[\w-]{43}$/, ':<hash>'))).toEqual([
      'fhir-auth:launch:<hash>',
      'web-app:session:<hash>',
      'web-app:session:<hash>',
    ])
    const state = callbackUrl.searchParams.get('state') ?? ''
    expect(written.map((entry) => entry.key).join(' ')).not.toContain(state)
    const signedIn = JSON.parse(written[2]?.value ?? '{}').signedIn
    const tokens = TokenSet.deserialize(signedIn.tokens)
    expect(tokens?.patient).toBe('patient-1')
    expect(tokens?.idTokenClaims?.sub).toBe('practitioner-1')
    // Who signed in comes from the validated ID token.
    expect(html).toContain(
      `<span id="user">${sandbox.fhirBaseUrl}/Practitioner/practitioner-1</span>`,
    )
    for (const header of agent.setCookieHeaders) {
      expect(header).not.toContain(tokens?.accessToken)
      expect(header).not.toContain(state)
    }
  })

  it('refreshes an expired session on the next page and keeps the rotated tokens in the store', async () => {
    const agent = new CookieAgent()
    await finishSignIn(agent, await authorizeFrom(agent, '/login'))
    const refreshes = () =>
      sandbox.requests.filter(
        (request) => request.path === '/token' && request.form?.grant_type === 'refresh_token',
      ).length
    const before = refreshes()
    clockOffsetMs = 3600_000
    try {
      // Refreshed once; the rotated refresh token went back to the store through onTokens, so
      // the next page neither refreshes again nor reuses the spent one (which would revoke it all).
      for (let page = 0; page < 2; page++) {
        const home = await agent.get(`${appOrigin}/`)
        expect(home.status).toBe(200)
        expect(await home.text()).toContain('<span id="patient-id">patient-1</span>')
      }
      expect(refreshes() - before).toBe(1)
    } finally {
      clockOffsetMs = 0
    }
  })

  it('keeps state and verifier server-side behind an HttpOnly, SameSite=Lax session cookie', async () => {
    const agent = new CookieAgent()
    const start = await agent.get(`${appOrigin}/login`)
    const authUrl = new URL(start.headers.get('location') ?? '')

    const [cookie = ''] = agent.setCookieHeaders
    expect(cookie).toMatch(new RegExp(`^${sessionCookieName}=[A-Za-z0-9_-]{43}; `))
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Lax')
    // Neither the state nor the PKCE verifier travels in the cookie.
    expect(cookie).not.toContain(authUrl.searchParams.get('state'))
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256')
  })

  it('authenticates to the token endpoint with the client secret (HTTP Basic)', async () => {
    const agent = new CookieAgent()
    await finishSignIn(agent, await authorizeFrom(agent, '/login'))

    const tokenRequest = sandbox.requests.filter((request) => request.path === '/token').at(-1)
    expect(tokenRequest?.headers.authorization).toMatch(/^Basic /)
    expect(tokenRequest?.form?.grant_type).toBe('authorization_code')
  })

  it('shows the login link when no one is signed in', async () => {
    const home = await new CookieAgent().get(`${appOrigin}/`)
    expect(home.status).toBe(200)
    expect(await home.text()).toContain('href="/login"')
  })
})

describe('EHR launch', () => {
  it('sends the launch value and shows the patient the EHR chose', async () => {
    const agent = new CookieAgent()
    const launch = sandbox.createLaunch({ patient: 'patient-42' })
    const query = new URLSearchParams({ iss: sandbox.fhirBaseUrl, launch })
    const callbackUrl = await authorizeFrom(agent, `/launch?${query}`)
    const html = await finishSignIn(agent, callbackUrl)

    expect(html).toContain('<span id="patient-id">patient-42</span>')
  })

  it('includes launch and the launch scope in the authorization request', async () => {
    const launch = sandbox.createLaunch({ patient: 'patient-43' })
    const query = new URLSearchParams({ iss: sandbox.fhirBaseUrl, launch })
    const start = await new CookieAgent().get(`${appOrigin}/launch?${query}`)
    const authUrl = new URL(start.headers.get('location') ?? '')

    expect(authUrl.searchParams.get('launch')).toBe(launch)
    expect(authUrl.searchParams.get('scope')?.split(' ')).toContain('launch')
    expect(authUrl.searchParams.get('aud')).toBe(sandbox.fhirBaseUrl)
  })

  it('refuses a launch from another FHIR server with 400 and sends the user nowhere', async () => {
    const launch = sandbox.createLaunch({ patient: 'patient-42' })
    const query = new URLSearchParams({ iss: 'https://evil.example/fhir', launch })
    const response = await new CookieAgent().get(`${appOrigin}/launch?${query}`)

    expect(response.status).toBe(400)
    expect(response.headers.get('location')).toBeNull()
    expect(response.headers.get('set-cookie')).toBeNull()
    expect(await response.text()).toContain('FHIR server this app does not know')
  })

  it('refuses a launch without iss or without launch with 400', async () => {
    const agent = new CookieAgent()
    const withoutIss = await agent.get(`${appOrigin}/launch?launch=abc`)
    const withoutLaunch = await agent.get(
      `${appOrigin}/launch?${new URLSearchParams({ iss: sandbox.fhirBaseUrl })}`,
    )

    expect(withoutIss.status).toBe(400)
    expect(withoutLaunch.status).toBe(400)
  })
})

describe('callback checks', () => {
  it('rejects a callback whose state does not match with 400', async () => {
    const agent = new CookieAgent()
    const callbackUrl = await authorizeFrom(agent, '/login')
    callbackUrl.searchParams.set('state', 'forged-state')

    const response = await agent.get(callbackUrl)

    expect(response.status).toBe(400)
    expect(await response.text()).toContain('does not match a sign-in started in this browser')
    expect(
      sandbox.requests.filter(
        (request) => request.form?.code === callbackUrl.searchParams.get('code'),
      ),
    ).toEqual([])
  })

  it('rejects a callback without state with 400', async () => {
    const agent = new CookieAgent()
    const callbackUrl = await authorizeFrom(agent, '/login')
    callbackUrl.searchParams.delete('state')

    expect((await agent.get(callbackUrl)).status).toBe(400)
  })

  it('rejects a callback in a browser that did not start the sign-in with 400', async () => {
    const callbackUrl = await authorizeFrom(new CookieAgent(), '/login')

    // Same URL, other browser: the code is worthless without the session that holds the verifier.
    expect((await new CookieAgent().get(callbackUrl)).status).toBe(400)
  })

  it('completes a sign-in only once', async () => {
    const agent = new CookieAgent()
    const callbackUrl = await authorizeFrom(agent, '/login')
    await finishSignIn(agent, callbackUrl)

    expect((await agent.get(callbackUrl)).status).toBe(400)
  })

  it('shows the error when the user denies access', async () => {
    const agent = new CookieAgent()
    const start = await agent.get(`${appOrigin}/login`)
    const result = await sandbox.authorize(
      { url: start.headers.get('location') ?? '' },
      { decision: 'deny' },
    )

    const response = await agent.get(result.redirectUrl ?? '')

    expect(response.status).toBe(400)
    expect(await response.text()).toContain('access_denied')
  })
})

describe('failures', () => {
  it('answers 502 naming the problem when the FHIR server cannot be reached', async () => {
    const errors: string[] = []
    const logger = { info() {}, warn() {}, error: (message: string) => errors.push(message) }
    const unreachable = createServer(
      createWebApp(
        {
          fhirBaseUrl: 'http://127.0.0.1:9/fhir',
          clientId: 'web-app',
          clientSecret: 'web-app-secret-for-tests-only',
          redirectUri: 'http://127.0.0.1:9/callback',
          allowInsecureLocalhost: true,
        },
        { clientOptions: { logger } },
      ),
    )
    await new Promise<void>((resolve) => unreachable.listen(0, '127.0.0.1', resolve))
    try {
      const origin = `http://127.0.0.1:${(unreachable.address() as AddressInfo).port}`
      const response = await new CookieAgent().get(`${origin}/login`)

      expect(response.status).toBe(502)
      const html = await response.text()
      expect(html).toContain('DiscoveryError')
      expect(html).not.toContain('web-app-secret-for-tests-only')
      expect(errors.join('\n')).toContain('SMART discovery failed')
    } finally {
      unreachable.closeAllConnections()
      await new Promise((resolve) => unreachable.close(resolve))
    }
  })
})
