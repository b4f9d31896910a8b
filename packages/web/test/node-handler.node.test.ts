/**
 * `nodeHandler(web)` on a real `node:http` server, driven over HTTP with a cookie jar (the
 * examples' CookieAgent) against a real SMART sandbox: an EHR launch, the session on the app's
 * own pages, sign-out, other paths left to the app (`next()`, else `404`), and no token, code or
 * secret in any response or log line.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { compactJwsPattern, createCapturingLogger, SecretScanner } from '@fhir-auth/test-utils'
import { CookieAgent } from '@fhir-auth/test-utils/cookie-agent'
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest'
import { fetchRequestFrom, nodeHandler, type SmartWebApp, smartWebApp } from '../src/index.js'
import {
  authorizeAt,
  clearRequests,
  createLaunch,
  sandboxRequests,
  webClient,
} from './support/driver.js'

const logger = createCapturingLogger()
let web: SmartWebApp
let server: Server
let bare: Server
let origin: string
let bareOrigin: string
/** Every response the browser received, as text, for the secret scan. */
const seen: string[] = []

async function listen(target: Server): Promise<string> {
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(target.address() as AddressInfo).port}`
}

function close(target: Server | undefined): Promise<void> {
  target?.closeAllConnections()
  return new Promise((resolve) => (target ? target.close(() => resolve()) : resolve()))
}

/** The app's own home page: the patient of the request's session, or 401. */
async function home(request: IncomingMessage): Promise<{ status: number; body: string }> {
  const session = await web.session(fetchRequestFrom(request))
  if (session === undefined) return { status: 401, body: 'not signed in' }
  return { status: 200, body: `patient ${session.tokens.patient}` }
}

async function record(response: Response): Promise<Response> {
  const body = await response.clone().text()
  seen.push(
    [String(response.status), ...[...response.headers].map(([n, v]) => `${n}: ${v}`), body].join(
      '\n',
    ),
  )
  return response
}

beforeAll(async () => {
  web = smartWebApp({ clients: webClient('ehrA', { logger }) })
  const handler = nodeHandler(web)
  server = createServer((request, response) =>
    handler(request, response, () => {
      home(request).then(({ status, body }) => response.writeHead(status).end(body))
    }),
  )
  bare = createServer(handler)
  origin = await listen(server)
  bareOrigin = await listen(bare)
})

afterAll(async () => {
  await Promise.all([close(server), close(bare)])
})

beforeEach(async () => {
  await clearRequests()
})

/** The app's origin in place of the registered redirect URI's (the sandbox never calls it). */
function onApp(url: string): string {
  const parsed = new URL(url)
  return `${origin}${parsed.pathname}${parsed.search}`
}

async function signIn(browser: CookieAgent): Promise<string> {
  const launch = await record(
    await browser.get(
      `${origin}/launch?iss=${encodeURIComponent(inject('ehrA'))}&launch=${await createLaunch()}`,
    ),
  )
  expect(launch.status).toBe(302)
  const callback = await authorizeAt(launch.headers.get('location') ?? '')
  const done = await record(await browser.get(onApp(callback)))
  expect(done.status).toBe(302)
  expect(done.headers.get('location')).toBe('/')
  return callback
}

describe('nodeHandler over HTTP', () => {
  it('signs in through an EHR launch, serves the session, and signs out', async () => {
    const browser = new CookieAgent()
    await signIn(browser)
    // Loopback http: the cookies are named without __Host- and are not Secure.
    expect(browser.setCookieHeaders.some((h) => h.startsWith('fhir-auth-launch='))).toBe(true)
    expect(browser.setCookieHeaders.every((h) => !h.includes('Secure'))).toBe(true)
    expect(browser.cookie('fhir-auth')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const page = await record(await browser.get(`${origin}/`))
    expect(await page.text()).toBe('patient patient-1')

    const signedOut = await record(await browser.post(`${origin}/logout`))
    expect(signedOut.status).toBe(303)
    expect(signedOut.headers.get('location')).toBe('/')
    expect(browser.cookie('fhir-auth')).toBeUndefined()
    expect((await browser.get(`${origin}/`)).status).toBe(401)
  })

  it('answers 403 to a callback from another browser, and sends no token request', async () => {
    const browser = new CookieAgent()
    const launch = await browser.get(`${origin}/login`)
    const callback = await authorizeAt(launch.headers.get('location') ?? '')
    const other = new CookieAgent()
    await other.get(`${origin}/login`) // it has a launch cookie of its own
    expect((await record(await other.get(onApp(callback)))).status).toBe(403)
    expect((await sandboxRequests()).ehrA.filter((r) => r.path === '/token')).toEqual([])
  })

  it('hands other paths to next(), and without next answers 404', async () => {
    expect((await fetch(`${origin}/elsewhere`)).status).toBe(401)
    expect((await fetch(`${bareOrigin}/elsewhere`)).status).toBe(404)
    expect((await fetch(`${bareOrigin}/logout`)).status).toBe(405)
    expect((await fetch(`${bareOrigin}/launch`, { method: 'DELETE' })).status).toBe(405)
  })

  it('makes cookies Secure with the __Host- name when a TLS-terminating proxy says https', async () => {
    const launchCookie = async (headers: Record<string, string>) =>
      (await fetch(`${bareOrigin}/login`, { headers, redirect: 'manual' })).headers.get(
        'set-cookie',
      ) ?? ''
    const direct = await launchCookie({})
    expect(direct).toMatch(/^fhir-auth-launch=/)
    expect(direct).not.toMatch(/;\s*Secure/i)
    for (const proxied of [
      { 'x-forwarded-proto': 'https' },
      { 'x-forwarded-proto': 'HTTPS, http' },
      { forwarded: 'for=192.0.2.60;proto=https;by=203.0.113.43' },
      { forwarded: 'proto="https", proto=http' },
    ]) {
      const cookie = await launchCookie(proxied)
      expect(cookie, JSON.stringify(proxied)).toMatch(/^__Host-fhir-auth-launch=/)
      expect(cookie, JSON.stringify(proxied)).toMatch(/;\s*Secure/i)
    }
    // Only the first proxy's word counts, and only `https` upgrades.
    for (const notHttps of [
      { 'x-forwarded-proto': 'http, https' },
      { forwarded: 'proto=http, proto=https' },
      { 'x-forwarded-proto': 'httpsx' },
    ]) {
      expect(await launchCookie(notHttps), JSON.stringify(notHttps)).toMatch(/^fhir-auth-launch=/)
    }
  })

  it('answers 400 to a Host header that is no host, and routes nothing by it', async () => {
    const statusWithHost = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const { port } = new URL(bareOrigin)
        httpRequest(
          { host: '127.0.0.1', port, path: '/elsewhere', headers: { host } },
          (answer) => {
            answer.resume()
            resolve(answer.statusCode ?? 0)
          },
        )
          .on('error', reject)
          .end()
      })
    expect(await statusWithHost('x/callback?')).toBe(400)
    expect(await statusWithHost('x#')).toBe(400)
    expect(await statusWithHost('a b')).toBe(400)
    expect(await statusWithHost('127.0.0.1:1')).toBe(404)
    expect(await statusWithHost('[::1]:8080')).toBe(404)
    expect(() => fetchRequestFrom({ url: '/', rawHeaders: [] })).toThrow(TypeError)
    expect(
      new URL(fetchRequestFrom({ url: '/p', rawHeaders: ['Host', 'app.example'] }).url).href,
    ).toBe('http://app.example/p')
  })

  it('shows no token, code or client secret in any response or log line', async () => {
    const browser = new CookieAgent()
    const callback = await signIn(browser)
    await record(await browser.get(onApp(callback))) // replayed: refused
    const session = await web.session(
      new Request(origin, { headers: { cookie: `fhir-auth=${browser.cookie('fhir-auth')}` } }),
    )
    const tokens = session?.tokens
    await record(await browser.post(`${origin}/logout`))
    const scan = new SecretScanner()
      .addSecret('client secret', inject('webClientSecret'))
      .addSecret('code', new URL(callback).searchParams.get('code') ?? '')
      .addSecret('access token', tokens?.accessToken ?? '')
      .addSecret('refresh token', tokens?.refreshToken ?? '')
      .addSecret('ID token', tokens?.idToken ?? '')
      .addPattern('a JWT', compactJwsPattern)
      .addLines('response', seen)
      .addLines('log', logger.renderedLines())
    expect(scan.textCount).toBeGreaterThan(8)
    expect(scan.findings()).toEqual([])
  })
})
