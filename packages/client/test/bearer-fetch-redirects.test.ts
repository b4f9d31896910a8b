/**
 * Which answers `session.fetch` follows as redirects, with the token, under the FHIR base URL
 * (DESIGN §8): only a 3xx with a `Location`, at most five in a row, with the method and body kept
 * by 307/308, and a `GET` or `HEAD` kept by the others; the body of a redirect it follows is
 * released. Written for the survivors of `pnpm test:mutation` in `src/tokens/bearer-fetch.ts`
 * (docs/testing.md); the main cases are in bearer-fetch.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { baseUrl, sessionOn } from './support.js'

const patient = `${baseUrl}/Patient/1`
const moved = `${baseUrl}/Patient/2`
const found = () => new Response('{"resourceType":"Patient"}', { status: 200 })
const answer = (status: number, location?: string) => () =>
  new Response(status === 304 ? null : 'body', {
    status,
    headers: location === undefined ? {} : { location },
  })

describe('session.fetch follows only redirects', () => {
  it('answers outside 3xx come back as they are, even with a Location', async () => {
    for (const status of [200, 201, 400, 404]) {
      const { session, server } = sessionOn({ [patient]: answer(status, moved), [moved]: found })
      expect((await session.fetch(patient)).status).toBe(status)
      expect(server.count(moved)).toBe(0)
    }
  })

  it('a 304 Not Modified (no Location) comes back as it is', async () => {
    const { session, server } = sessionOn({ [patient]: answer(304) })
    const response = await session.fetch(patient, { headers: { 'if-none-match': 'W/"1"' } })
    expect(response.status).toBe(304)
    expect(server.requests.map((request) => request.url)).toEqual([patient])
  })

  it("a 300's preferred choice (its Location) is followed, as RFC 9110 §15.4.1 allows", async () => {
    const { session, bearers } = sessionOn({ [patient]: answer(300, moved), [moved]: found })
    expect((await session.fetch(patient)).status).toBe(200)
    expect(bearers()).toEqual(['Bearer at-1', 'Bearer at-1'])
  })

  it('five redirects in a row at most: the sixth comes back to the caller', async () => {
    const hops = Array.from({ length: 7 }, (_, n) => `${baseUrl}/hop/${n}`)
    const routes = Object.fromEntries(
      hops.map((hop, n) => [hop, answer(302, hops[n + 1] ?? hops[0])]),
    )
    const { session, server } = sessionOn(routes)
    const response = await session.fetch(hops[0] as string)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe(hops[6])
    expect(server.requests.map((request) => request.url)).toEqual(hops.slice(0, 6))
  })
})

describe('session.fetch keeps the request across a redirect', () => {
  it('a 308 after a POST sends the same POST and body to the new URL', async () => {
    const { session, server } = sessionOn({ [patient]: answer(308, moved), [moved]: found })
    await session.fetch(patient, { method: 'POST', body: '{"resourceType":"Patient"}' })
    expect(server.requests.map(({ method, url, bodyText }) => [method, url, bodyText])).toEqual([
      ['POST', patient, '{"resourceType":"Patient"}'],
      ['POST', moved, '{"resourceType":"Patient"}'],
    ])
  })

  it('a 302 after a HEAD is followed with a HEAD', async () => {
    const { session, server } = sessionOn({ [patient]: answer(302, moved), [moved]: found })
    await session.fetch(patient, { method: 'HEAD' })
    expect(server.requests.map(({ method, url }) => [method, url])).toEqual([
      ['HEAD', patient],
      ['HEAD', moved],
    ])
  })

  it('the body of a redirect it follows is released', async () => {
    let released = false
    const redirectBody = new ReadableStream({
      cancel: () => {
        released = true
      },
    })
    const { session } = sessionOn({
      [patient]: () => new Response(redirectBody, { status: 302, headers: { location: moved } }),
      [moved]: found,
    })
    expect((await session.fetch(patient)).status).toBe(200)
    expect(released).toBe(true)
  })
})
