/**
 * `smartWebApp({ clients: ClientDirectory })` with two real SMART sandboxes, in Node and in the
 * edge runtime: each EHR's launch goes to its own server and comes back to the client that began
 * it through one redirect URI; an `iss` the directory has no client for is refused before any
 * request; a callback whose RFC 9207 `iss` names the other EHR is refused before the token request.
 */
import {
  ClientDirectory,
  ConfigurationError,
  type KeyValueStore,
  memoryStore,
} from '@fhir-auth/client'
import { beforeEach, describe, expect, inject, it } from 'vitest'
import { smartWebApp } from '../src/index.js'
import { authorizeAt, clearRequests, sandboxRequests, webClient } from './support/driver.js'
import { HandleBrowser } from './support/handle-browser.js'

function app() {
  return smartWebApp({
    clients: new ClientDirectory({ clients: [webClient('ehrA'), webClient('ehrB')] }),
  })
}

beforeEach(async () => {
  await clearRequests()
})

describe('a web app for two EHRs', () => {
  it('signs in at each EHR, each session with its own server', async () => {
    const web = app()
    for (const ehr of ['ehrA', 'ehrB'] as const) {
      const browser = new HandleBrowser(web)
      const done = await browser.must(await browser.launchUntilCallback(ehr, inject(ehr)))
      expect(done.status, ehr).toBe(302)
      const session = await web.session(browser.request('/'))
      const patient = await session?.fetch('Patient/patient-1')
      expect(patient?.status, ehr).toBe(200)
      expect(session?.tokens.patient).toBe('patient-1')
    }
    const requests = await sandboxRequests()
    expect(requests.ehrA.filter((request) => request.path === '/token')).toHaveLength(1)
    expect(requests.ehrB.filter((request) => request.path === '/token')).toHaveLength(1)
  })

  it('signs out at the EHR the session came from: its tokens revoked there', async () => {
    const web = app()
    const browser = new HandleBrowser(web)
    await browser.must(await browser.launchUntilCallback('ehrB', inject('ehrB')))
    const accessToken = (await web.session(browser.request('/')))?.tokens.accessToken
    await clearRequests()
    expect((await browser.must('/logout', 'POST')).status).toBe(303)
    const requests = await sandboxRequests()
    expect(requests.ehrA).toEqual([])
    expect(requests.ehrB.some((request) => request.path === '/token/revocation')).toBe(true)
    const read = await fetch(`${inject('ehrB')}/Patient/patient-1`, {
      headers: { authorization: `Bearer ${accessToken}` },
    })
    expect(read.status).toBe(401)
  })

  it('refuses an iss it has no client for with 400, and fetches nothing', async () => {
    const browser = new HandleBrowser(app())
    for (const path of [
      '/launch?iss=https%3A%2F%2Fattacker.example%2Ffhir&launch=abc',
      '/login?iss=https%3A%2F%2Fattacker.example%2Ffhir',
      '/login?iss=javascript%3Aalert(1)',
      // A directory may resolve clients on demand: a standalone login names its EHR.
      '/login',
    ]) {
      const answer = await browser.must(path)
      expect(answer.status, path).toBe(400)
    }
    const requests = await sandboxRequests()
    expect(requests.ehrA.length + requests.ehrB.length).toBe(0)
  })

  it("refuses a callback that carries the other EHR's iss (mix-up) before any token request", async () => {
    const browser = new HandleBrowser(app())
    const callback = new URL(await browser.launchUntilCallback('ehrA', inject('ehrA')), 'https://x')
    expect(callback.searchParams.get('iss')).toBe(new URL(inject('ehrA')).origin)
    callback.searchParams.set('iss', new URL(inject('ehrB')).origin)
    const answer = await browser.must(`${callback.pathname}${callback.search}`)
    expect(answer.status).toBe(400)
    expect(answer.body).toContain('iss_mismatch')
    const requests = await sandboxRequests()
    expect([...requests.ehrA, ...requests.ehrB].filter((r) => r.path === '/token')).toEqual([])
  })

  it('keeps its sessions in the store given beside the directory, launches in the directory', async () => {
    const launches = keyRecordingStore()
    const sessions = keyRecordingStore()
    const web = smartWebApp({
      clients: new ClientDirectory({
        clients: [webClient('ehrA'), webClient('ehrB')],
        store: launches.store,
      }),
      store: sessions.store,
    })
    const browser = new HandleBrowser(web)
    expect(
      (await browser.must(await browser.launchUntilCallback('ehrB', inject('ehrB')))).status,
    ).toBe(302)
    expect(sessions.written.filter((key) => key.startsWith('fhir-auth:session:'))).toHaveLength(1)
    expect(launches.written.some((key) => key.startsWith('fhir-auth:session:'))).toBe(false)
    expect(launches.written.length).toBeGreaterThan(0)
    const session = await web.session(browser.request('/'))
    expect((await session?.fetch('Patient/patient-1'))?.status).toBe(200)
  })

  it('refuses a store beside the directory that is not a KeyValueStore', () => {
    let refusal: unknown
    try {
      smartWebApp({
        clients: new ClientDirectory({ clients: [webClient('ehrA')] }),
        store: { get: async () => undefined } as never,
      })
    } catch (error) {
      refusal = error
    }
    expect(refusal).toBeInstanceOf(ConfigurationError)
    expect((refusal as ConfigurationError).invalidAttribute).toBe('store')
  })

  it('signs in at the one EHR a directory lists when /login names no iss', async () => {
    const web = smartWebApp({ clients: new ClientDirectory({ clients: [webClient('ehrB')] }) })
    const browser = new HandleBrowser(web)
    const started = await browser.must('/login')
    expect(started.status).toBe(302)
    const callback = new URL(
      await authorizeAt(started.headers.get('location') ?? '', { ehr: 'ehrB' }),
    )
    expect((await browser.must(`${callback.pathname}${callback.search}`)).status).toBe(302)
    expect((await web.session(browser.request('/')))?.tokens.binding?.baseUrl).toBe(inject('ehrB'))
  })

  it('still refuses /login without iss when the directory may resolve other EHRs, fetching nothing', async () => {
    const resolved: string[] = []
    const web = smartWebApp({
      clients: new ClientDirectory({
        clients: [webClient('ehrA')],
        resolve: (iss) => {
          resolved.push(iss)
          return undefined
        },
      }),
    })
    expect((await new HandleBrowser(web).must('/login')).status).toBe(400)
    expect(resolved).toEqual([])
    const requests = await sandboxRequests()
    expect(requests.ehrA.length + requests.ehrB.length).toBe(0)
  })
})

/** A memory store that records the key of every write (`set` and `setIfAbsent`). */
function keyRecordingStore(): { readonly store: KeyValueStore; readonly written: string[] } {
  const inner = memoryStore()
  const written: string[] = []
  const store: KeyValueStore = {
    get: (key) => inner.get(key),
    delete: (key) => inner.delete(key),
    set: (key, value, ttl) => {
      written.push(key)
      return inner.set(key, value, ttl)
    },
    setIfAbsent: (key, value, ttl) => {
      written.push(key)
      return inner.setIfAbsent(key, value, ttl)
    },
  }
  return { store, written }
}
