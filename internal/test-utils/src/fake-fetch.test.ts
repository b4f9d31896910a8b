import { describe, expect, it } from 'vitest'
import { fakeFetch, fakeRoutes, hangingFetch, jsonResponse } from './fake-fetch.js'

describe('fakeFetch (the test double itself)', () => {
  const url = 'https://a.example/token'
  const expectation = {
    method: 'POST' as const,
    url,
    headers: { authorization: null },
    form: { grant_type: 'x' },
    respond: () => jsonResponse({ ok: true }),
  }
  const matching: RequestInit = {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=x',
  }

  it('answers a matching request and records it', async () => {
    const fetch = fakeFetch(expectation)
    const response = await fetch(url, matching)
    expect(await response.json()).toEqual({ ok: true })
    expect(fetch.calls).toHaveLength(1)
    expect(fetch.calls[0]).toMatchObject({ method: 'POST', url, bodyText: 'grant_type=x' })
    expect(() => fetch.assertDone()).not.toThrow()
  })

  it.each([
    ['a different form', url, { body: 'grant_type=y' }, /form/],
    ['an extra form member', url, { body: 'grant_type=x&client_id=c' }, /form/],
    ['a repeated form member', url, { body: 'grant_type=x&grant_type=x' }, /form names unique/],
    [
      'a forbidden header',
      url,
      {
        headers: { authorization: 'Basic x', 'content-type': 'application/x-www-form-urlencoded' },
      },
      /header authorization/,
    ],
    ['a different method', url, { method: 'GET' }, /method/],
    ['a different URL', 'https://a.example/other', {}, /url/],
    ['a different query', `${url}?x=1`, {}, /url/],
    ['a redirect mode other than manual', url, { redirect: 'follow' as const }, /redirect mode/],
    ['a form without its content type', url, { headers: {} }, /content-type/],
  ])('fails on %s', async (_label, requestUrl, change, problem) => {
    const fetch = fakeFetch(expectation)
    await fetch(requestUrl, { ...matching, ...change })
    expect(() => fetch.assertDone()).toThrow(problem)
  })

  it('checks a JSON body and its content type', async () => {
    const fetch = fakeFetch({
      method: 'POST',
      url,
      json: { client_name: 'x' },
      respond: () => jsonResponse({}, 201),
    })
    await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'text/plain' },
      body: '{"client_name":"y"}',
    })
    expect(() => fetch.assertDone()).toThrow(/content-type[\s\S]*json/)
  })

  it('refuses an unexpected request and reports it', async () => {
    const fetch = fakeFetch()
    await expect(fetch(url, { method: 'GET', redirect: 'manual' })).rejects.toThrow(
      'unexpected request',
    )
    expect(() => fetch.assertDone()).toThrow(`unexpected request GET ${url}`)
  })

  it('reports an expectation never used', () => {
    const fetch = fakeFetch(expectation)
    expect(() => fetch.assertDone()).toThrow(`expected request never made: POST ${url}`)
  })

  // The self-check runs when the test ends; `it.fails` passes only if the test then fails.
  it.fails('fails its test at the end when an expectation was never used', () => {
    fakeFetch(expectation)
    expect(expectation.url).toBe(url)
  })

  it.fails('fails its test at the end on a mismatch nobody asserted', async () => {
    const fetch = fakeFetch(expectation)
    const response = await fetch(url, { ...matching, method: 'GET' })
    expect(response.status).toBe(200)
  })

  it('jsonResponse sets the status, the JSON content type and extra headers', async () => {
    const response = jsonResponse({ a: 1 }, 201, { 'cache-control': 'no-store' })
    expect(response.status).toBe(201)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toEqual({ a: 1 })
  })

  it('hangingFetch never answers but rejects on abort', async () => {
    const controller = new AbortController()
    const pending = hangingFetch(url, { signal: controller.signal })
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
  })
})

describe('fakeRoutes', () => {
  const url = 'https://ehr.example.org/fhir/.well-known/smart-configuration'
  const init: RequestInit = { method: 'GET', redirect: 'manual' }

  it('answers by URL whatever the order, ignoring the query, and counts per URL', async () => {
    const routes = fakeRoutes({
      [url]: () => jsonResponse({ issuer: 'a' }),
      'https://ehr.example.org/token': () => jsonResponse({}, 400),
    })
    expect((await routes.fetch('https://ehr.example.org/token', init)).status).toBe(400)
    expect((await routes.fetch(`${url}?x=1`, init)).status).toBe(200)
    expect((await routes.fetch(url, init)).status).toBe(200)
    expect(routes.requests.map((request) => request.url)).toEqual([
      'https://ehr.example.org/token',
      `${url}?x=1`,
      url,
    ])
    expect(routes.count(url)).toBe(1)
    expect(() => routes.assertDone()).not.toThrow()
  })

  it('answers 404 to a URL with no route and reports it', async () => {
    const routes = fakeRoutes({})
    expect((await routes.fetch(url, init)).status).toBe(404)
    expect(() => routes.assertDone()).toThrow(`no route for GET ${url}`)
  })

  it('reports a request that lets fetch follow redirects', async () => {
    const routes = fakeRoutes({ [url]: () => jsonResponse({}) })
    await routes.fetch(url, { method: 'GET' })
    expect(() => routes.assertDone()).toThrow('redirect mode undefined')
  })

  it.fails('fails its test at the end on a request with no route nobody asserted', async () => {
    await fakeRoutes({}).fetch(url, init)
  })
})
