/**
 * A session's refresh code loads on its first refresh (ADR 0012). The caller's signal covers that
 * load too: a load that stalls (a slow network in a browser) never holds a caller who gave up,
 * and a session without a refresh token says so without loading anything.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { baseUrl, rejection } from './support.js'

afterEach(() => {
  vi.doUnmock('../src/session/session-refresh.js')
  vi.resetModules()
})

/** A `Client` whose session refresh module never finishes loading. */
async function clientWithStalledRefreshCode() {
  vi.resetModules()
  let loads = 0
  vi.doMock('../src/session/session-refresh.js', () => {
    loads++
    return new Promise(() => {})
  })
  const { Client } = await import('../src/index.js')
  const client = new Client(
    {
      baseUrl,
      clientId: 'app',
      redirectUri: 'https://app.example.org/callback',
      scopes: ['openid'],
    },
    { fetch: () => Promise.reject(new Error('no request expected')) },
  )
  return { client, loads: () => loads }
}

describe('loading the refresh code', () => {
  it('an abort ends the wait of accessToken() and refresh() while the code is still loading', async () => {
    const { client, loads } = await clientWithStalledRefreshCode()
    const session = client.resumeSession({ access_token: 'at', refresh_token: 'rt', expires_in: 1 })
    const controller = new AbortController()
    const waiting = session.accessToken({ signal: controller.signal })
    const refreshing = session.refresh({ signal: controller.signal })
    // The refresh code has started loading and will never finish.
    await vi.waitFor(() => expect(loads()).toBe(1))
    controller.abort()
    for (const error of [await rejection(waiting), await rejection(refreshing)]) {
      expect(error).toMatchObject({ name: 'TokenError', message: expect.stringMatching(/aborted/) })
    }
  })

  it('an already aborted signal rejects without waiting for the load', async () => {
    const { client } = await clientWithStalledRefreshCode()
    const session = client.resumeSession({ access_token: 'at', refresh_token: 'rt', expires_in: 1 })
    const error = await rejection(session.refresh({ signal: AbortSignal.abort() }))
    expect(error).toMatchObject({ name: 'TokenError', message: expect.stringMatching(/aborted/) })
  })

  it('without a refresh token, refresh() is a TokenError and nothing loads', async () => {
    const { client, loads } = await clientWithStalledRefreshCode()
    const session = client.resumeSession({ access_token: 'at', expires_in: 3600 })
    const error = await rejection(session.refresh())
    expect(error).toMatchObject({
      name: 'TokenError',
      message: expect.stringMatching(/no refresh token/),
    })
    expect(loads()).toBe(0)
  })
})
