/**
 * `web.handle(new Request(…))` against two real SMART sandboxes (oidc-provider), in Node and in
 * the edge runtime: the four routes, their status codes and cookies, the launch bound to the
 * browser that began it, session fixation, sign-out, and no secret in any response.
 */
import { beforeEach, describe, expect, inject, it } from 'vitest'
import { smartWebApp } from '../src/index.js'
import { clearRequests, sandboxRequests, webClient } from './support/driver.js'
import { HandleBrowser, type SeenResponse } from './support/handle-browser.js'

const tokenRequests = async (): Promise<number> => {
  const requests = await sandboxRequests()
  return [...requests.ehrA, ...requests.ehrB].filter((request) => request.path === '/token').length
}
const allRequests = async (): Promise<number> => {
  const requests = await sandboxRequests()
  return requests.ehrA.length + requests.ehrB.length
}

function cookieAttributes(header: string): string[] {
  return header
    .split(';')
    .slice(1)
    .map((attribute) => attribute.trim())
}

function app() {
  return smartWebApp({ clients: webClient('ehrA') })
}

beforeEach(async () => {
  await clearRequests()
})

describe('an EHR launch through web.handle', () => {
  it('302s to the EHR with a launch cookie, then makes a session on a new random id', async () => {
    const browser = new HandleBrowser(app())
    const callback = await browser.launchUntilCallback('ehrA', inject('ehrA'))
    const [launch] = browser.seen
    expect(launch?.status).toBe(302)
    expect(new URL(launch?.headers.get('location') ?? '').origin).toBe(
      new URL(inject('ehrA')).origin,
    )
    const [launchCookie = ''] = launch?.headers.getSetCookie() ?? []
    expect(launchCookie.startsWith('__Host-fhir-auth-launch=')).toBe(true)
    expect(cookieAttributes(launchCookie)).toEqual([
      'HttpOnly',
      'SameSite=Lax',
      'Path=/',
      'Max-Age=600',
      'Secure',
    ])

    const done = await browser.must(callback)
    expect(done.status).toBe(302)
    expect(done.headers.get('location')).toBe('/')
    const sessionCookie = done.headers.getSetCookie().find((c) => c.startsWith('__Host-fhir-auth='))
    expect(cookieAttributes(sessionCookie ?? '')).toEqual([
      'HttpOnly',
      'SameSite=Lax',
      'Path=/',
      `Max-Age=${12 * 60 * 60}`,
      'Secure',
    ])
    // The launch is used up: its cookie is cleared.
    expect(browser.cookie('__Host-fhir-auth-launch')).toBeUndefined()
    const id = browser.cookie('__Host-fhir-auth') ?? ''
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/)

    const session = await browser.web.session(browser.request('/'))
    expect(session?.tokens.patient).toBe('patient-1')
    expect([session?.tokens.accessToken, session?.tokens.refreshToken]).not.toContain(id)
    expect(await tokenRequests()).toBe(1)
  })

  it('standalone: /login without iss uses the one client', async () => {
    const browser = new HandleBrowser(app())
    const started = await browser.must('/login')
    expect(started.status).toBe(302)
    expect(started.headers.get('location')?.startsWith(new URL(inject('ehrA')).origin)).toBe(true)
  })

  it('names the cookies without __Host- and leaves out Secure over loopback http:', async () => {
    for (const origin of ['http://127.0.0.1:8080', 'http://localhost:3000', 'http://[::1]:3000']) {
      const browser = new HandleBrowser(app(), origin)
      const started = await browser.must('/login')
      const [cookie = ''] = started.headers.getSetCookie()
      expect(cookie.startsWith('fhir-auth-launch=')).toBe(true)
      expect(cookieAttributes(cookie)).not.toContain('Secure')
    }
    // Plain http: to any other host is a proxy's back side: the browser is on https.
    const proxied = await new HandleBrowser(app(), 'http://app.internal:8080').must('/login')
    expect(proxied.headers.getSetCookie()[0]).toMatch(/^__Host-fhir-auth-launch=.*; Secure$/)
  })
})

describe('an iss the app has no client for', () => {
  it('is 400 and nothing is fetched from any server', async () => {
    const web = app()
    const browser = new HandleBrowser(web)
    const paths = [
      `/launch?iss=${encodeURIComponent(inject('ehrB'))}&launch=abc`,
      `/login?iss=${encodeURIComponent(inject('ehrB'))}`,
      `/launch?iss=${encodeURIComponent(`${inject('ehrB')}/.well-known`)}&launch=abc`,
      '/launch?iss=https%3A%2F%2Fattacker.example%2Ffhir&launch=abc',
      '/launch?launch=abc',
      '/launch?iss=',
      `/launch?iss=${encodeURIComponent(inject('ehrA'))}`,
      `/launch?iss=${encodeURIComponent(inject('ehrA'))}&iss=${encodeURIComponent(inject('ehrB'))}&launch=x`,
    ]
    for (const path of paths) {
      const answer = await browser.must(path)
      expect(answer.status, path).toBe(400)
      expect(answer.headers.getSetCookie(), path).toEqual([])
    }
    expect(await allRequests()).toBe(0)
  })
})

describe('a callback bound to the browser that began the launch', () => {
  it('is 403 without the launch cookie, and no token request is sent', async () => {
    const browser = new HandleBrowser(app())
    const callback = await browser.launchUntilCallback('ehrA', inject('ehrA'))
    const stranger = new HandleBrowser(browser.web)
    expect((await stranger.must(callback)).status).toBe(403)
    expect(await tokenRequests()).toBe(0)
    // The launch is still there for the browser that began it.
    expect((await browser.must(callback)).status).toBe(302)
  })

  it("is 403 with another browser's launch cookie (login CSRF), and no token request", async () => {
    const web = app()
    const attacker = new HandleBrowser(web)
    const victim = new HandleBrowser(web)
    const attackersCallback = await attacker.launchUntilCallback('ehrA', inject('ehrA'))
    await victim.launchUntilCallback('ehrA', inject('ehrA'))
    expect((await victim.must(attackersCallback)).status).toBe(403)
    expect(await tokenRequests()).toBe(0)
    expect(victim.cookie('__Host-fhir-auth')).toBeUndefined()
  })

  it('is 403 for a wrong, malformed or repeated state, and no token request', async () => {
    const browser = new HandleBrowser(app())
    const callback = new URL(await browser.launchUntilCallback('ehrA', inject('ehrA')), 'https://x')
    const state = callback.searchParams.get('state') ?? ''
    const code = callback.searchParams.get('code') ?? ''
    const variants = [
      `/callback?code=${code}`,
      `/callback?code=${code}&state=${'A'.repeat(43)}`,
      `/callback?code=${code}&state=${state}&state=${state}`,
      `/callback?code=${code}&state=${state}x`,
    ]
    for (const path of variants) {
      const refused = await browser.must(path)
      expect(refused.status, path).toBe(403)
      expect(refused.body).toBe('Forbidden: this sign-in was not started in this browser\n')
    }
    // A launch cookie that is not one the app wrote (too many launches, a stray character) is none.
    for (const value of [`${'C'.repeat(43)}.`.repeat(4) + state, `${state}.<`, `${state}.`]) {
      const forged = new HandleBrowser(browser.web)
      forged.plant('__Host-fhir-auth-launch', value)
      expect((await forged.must(callback.pathname + callback.search)).status, value).toBe(403)
    }
    expect(await tokenRequests()).toBe(0)
  })

  it('is 400 naming the error when the user refuses, with no token request', async () => {
    const browser = new HandleBrowser(app())
    const callback = await browser.launchUntilCallback('ehrA', inject('ehrA'), 'launch', 'deny')
    const answer = await browser.must(callback)
    expect(answer.status).toBe(400)
    expect(answer.body).toContain('access_denied')
    // The launch came back (refused): this browser no longer waits for it.
    expect(answer.headers.getSetCookie()).toEqual([
      '__Host-fhir-auth-launch=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0; Secure',
    ])
    expect(await tokenRequests()).toBe(0)
  })

  it('is 400 for a code, iss or error given twice, and no token request', async () => {
    for (const name of ['code', 'iss', 'error']) {
      const browser = new HandleBrowser(app())
      const callback = new URL(
        await browser.launchUntilCallback('ehrA', inject('ehrA')),
        'https://x',
      )
      const value = callback.searchParams.get(name) ?? 'access_denied'
      callback.searchParams.append(name, value)
      if (name === 'error') callback.searchParams.append(name, value)
      const answer = await browser.must(`${callback.pathname}${callback.search}`)
      expect(answer.status, name).toBe(400)
      expect(answer.body).toBe('Sign-in failed: invalid_request\n')
      expect(answer.headers.getSetCookie()[0]).toMatch(/^__Host-fhir-auth-launch=; /)
    }
    expect(await tokenRequests()).toBe(0)
  })

  it('keeps two launches of one browser apart (two tabs)', async () => {
    const browser = new HandleBrowser(app())
    const first = await browser.launchUntilCallback('ehrA', inject('ehrA'))
    const second = await browser.launchUntilCallback('ehrA', inject('ehrA'), 'login')
    expect((await browser.must(second)).status).toBe(302)
    expect((await browser.must(first)).status).toBe(302)
    // A callback sent again is refused: its launch was used.
    expect((await browser.must(first)).status).toBe(403)
  })
})

describe('session fixation', () => {
  it('never makes the cookie the browser had before signing in its session', async () => {
    const web = app()
    // The attacker signs in, then plants their own session id in the victim's browser.
    const attacker = new HandleBrowser(web)
    await attacker.must(await attacker.launchUntilCallback('ehrA', inject('ehrA')))
    const planted = attacker.cookie('__Host-fhir-auth') ?? ''
    const victim = new HandleBrowser(web)
    victim.plant('__Host-fhir-auth', planted)
    await victim.must(await victim.launchUntilCallback('ehrA', inject('ehrA')))
    const id = victim.cookie('__Host-fhir-auth')
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(id).not.toBe(planted)
    // The planted id no longer opens any session.
    expect(await web.session(attacker.request('/'))).toBeUndefined()

    const guessed = new HandleBrowser(web)
    guessed.plant('__Host-fhir-auth', 'B'.repeat(43))
    await guessed.must(await guessed.launchUntilCallback('ehrA', inject('ehrA')))
    expect(guessed.cookie('__Host-fhir-auth')).not.toBe('B'.repeat(43))
  })
})

describe('POST /logout', () => {
  it('revokes the tokens, deletes the session, clears the cookie and 303s to afterLogout', async () => {
    const web = smartWebApp({ clients: webClient('ehrA'), afterLogout: '/bye' })
    const browser = new HandleBrowser(web)
    await browser.must(await browser.launchUntilCallback('ehrA', inject('ehrA')))
    const signedIn = browser.request('/')
    const tokens = (await web.session(signedIn))?.tokens
    const patientRead = () =>
      fetch(`${inject('ehrA')}/Patient/patient-1`, {
        headers: { authorization: `Bearer ${tokens?.accessToken}` },
      })
    expect((await patientRead()).status).toBe(200)
    await clearRequests()

    const answer = await browser.must('/logout', 'POST')
    expect(answer.status).toBe(303)
    expect(answer.headers.get('location')).toBe('/bye')
    expect(answer.headers.getSetCookie()).toEqual([
      '__Host-fhir-auth=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0; Secure',
    ])
    expect(await web.session(signedIn)).toBeUndefined()
    // The tokens were revoked at the EHR (RFC 7009): the server refuses the access token now.
    const revocations = (await sandboxRequests()).ehrA.filter((r) => r.path === '/token/revocation')
    expect(revocations.length).toBeGreaterThanOrEqual(1)
    expect((await patientRead()).status).toBe(401)
  })

  it('is 405 for GET (a link or an image cannot sign anyone out)', async () => {
    const answer = await new HandleBrowser(app()).must('/logout')
    expect(answer.status).toBe(405)
    expect(answer.headers.get('allow')).toBe('POST')
  })

  it('is 303 without a session too', async () => {
    expect((await new HandleBrowser(app()).must('/logout', 'POST')).status).toBe(303)
  })
})

describe('requests that are not the routes', () => {
  it('leaves other paths alone and refuses other methods with 405', async () => {
    const browser = new HandleBrowser(app())
    for (const path of ['/', '/launch/', '/LOGIN', '/%6Cogin', '/callback/x', '//login']) {
      expect(await browser.send(path), path).toBeUndefined()
    }
    for (const method of ['POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS']) {
      const answer = await browser.must('/launch', method)
      expect(answer.status, method).toBe(405)
      expect(answer.headers.get('allow')).toBe('GET')
    }
    expect(await allRequests()).toBe(0)
  })
})

describe('no secret in any response', () => {
  it('shows no token, code or client secret in a status line, header or body', async () => {
    const web = app()
    const browser = new HandleBrowser(web)
    const callback = await browser.launchUntilCallback('ehrA', inject('ehrA'))
    const code = new URL(callback, 'https://x').searchParams.get('code') ?? ''
    await browser.must(callback)
    await browser.must(callback) // replayed: refused
    const refused = await browser.launchUntilCallback('ehrA', inject('ehrA'), 'launch', 'deny')
    await browser.must(refused)
    const session = await web.session(browser.request('/'))
    const tokens = session?.tokens
    const secrets = [
      code,
      inject('webClientSecret'),
      tokens?.accessToken,
      tokens?.refreshToken,
      tokens?.idToken,
    ]
    expect(secrets.every((secret) => typeof secret === 'string' && secret.length >= 8)).toBe(true)
    await browser.must('/logout', 'POST')
    const texts = browser.seen.flatMap((seen: SeenResponse) => [
      String(seen.status),
      seen.body,
      ...[...seen.headers].map(([name, value]) => `${name}: ${value}`),
    ])
    for (const secret of secrets) {
      expect(texts.filter((text) => text.includes(secret as string))).toEqual([])
    }
  })
})
