/**
 * `nodeHandler(web)` as Express 5 middleware in front of the app's own routes, over HTTP with a
 * cookie jar against a real SMART sandbox: the four routes are answered by the web layer, every
 * other request reaches the app's routes, which find the session with `fetchRequestFrom`.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { CookieAgent } from '@fhir-auth/test-utils/cookie-agent'
import express from 'express'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { fetchRequestFrom, nodeHandler, smartWebApp } from '../src/index.js'
import { authorizeAt, createLaunch, webClient } from './support/driver.js'

let server: Server
let origin: string

beforeAll(async () => {
  const web = smartWebApp({ clients: webClient('ehrA'), afterLogin: '/patient' })
  const app = express()
  app.use(nodeHandler(web))
  app.get('/patient', async (request, response) => {
    const session = await web.session(fetchRequestFrom(request))
    if (session === undefined) response.status(401).send('not signed in')
    else response.send(`patient ${session.tokens.patient}`)
  })
  server = app.listen(0, '127.0.0.1')
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
})

describe('nodeHandler in Express', () => {
  it('signs in through the routes and serves the session on the app route', async () => {
    const browser = new CookieAgent()
    expect((await browser.get(`${origin}/patient`)).status).toBe(401)
    const launch = await browser.get(
      `${origin}/launch?iss=${encodeURIComponent(inject('ehrA'))}&launch=${await createLaunch()}`,
    )
    expect(launch.status).toBe(302)
    const callback = new URL(await authorizeAt(launch.headers.get('location') ?? ''))
    const done = await browser.get(`${origin}${callback.pathname}${callback.search}`)
    expect(done.status).toBe(302)
    expect(done.headers.get('location')).toBe('/patient')
    expect(await (await browser.get(`${origin}/patient`)).text()).toBe('patient patient-1')
    expect((await browser.post(`${origin}/logout`)).status).toBe(303)
    expect((await browser.get(`${origin}/patient`)).status).toBe(401)
    // Express answers what neither handles.
    expect((await browser.get(`${origin}/elsewhere`)).status).toBe(404)
  })
})
