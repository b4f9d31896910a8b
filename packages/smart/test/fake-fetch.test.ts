import { describe, expect, it } from 'vitest'
import { fakeFetch, jsonResponse } from './fake-fetch.js'

describe('fakeFetch (the test double itself)', () => {
  const expectation = {
    method: 'POST' as const,
    url: 'https://a/token',
    headers: { authorization: null },
    form: { grant_type: 'x' },
    respond: () => jsonResponse({}),
  }

  it('passes a matching request', async () => {
    const fetch = fakeFetch(expectation)
    await fetch('https://a/token', {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=x',
    })
    expect(() => fetch.assertDone()).not.toThrow()
  })

  it.each([
    ['a different form', { body: 'grant_type=y' }],
    ['an extra form member', { body: 'grant_type=x&client_id=c' }],
    [
      'a forbidden header',
      {
        headers: { authorization: 'Basic x', 'content-type': 'application/x-www-form-urlencoded' },
      },
    ],
    ['a different method', { method: 'GET' }],
  ])('fails on %s', async (_label, change) => {
    const fetch = fakeFetch(expectation)
    await fetch('https://a/token', {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=x',
      ...change,
    })
    expect(() => fetch.assertDone()).toThrow()
  })

  it('fails on an unexpected request and on an unused expectation', async () => {
    const unexpected = fakeFetch()
    await expect(unexpected('https://a', { method: 'GET' })).rejects.toThrow()
    expect(() => unexpected.assertDone()).toThrow()
    expect(() => fakeFetch(expectation).assertDone()).toThrow()
  })
})
