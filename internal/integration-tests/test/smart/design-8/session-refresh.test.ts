/**
 * DESIGN §8 probe, a session's tokens over time: `accessToken()` refreshing within
 * `minValiditySeconds` (default 60), one shared refresh for concurrent callers, refresh-token
 * rotation, what a refresh keeps, `refresh({ scopes })`, `onTokens` awaited after every refresh,
 * and the `TokenError`s of a session that cannot refresh. Written from DESIGN's words only,
 * driving the public entries as a black box.
 */
import { ConfigurationError, TokenError, TokenSet } from '@fhir-auth/client'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { describe, expect, it } from 'vitest'
import { json, SCOPES } from './support/fake-smart-server.js'
import { beginLaunch, freshProbe, launchedSession } from './support/probe-client.js'

describe('§8 Session refresh', () => {
  it('accessToken() refreshes first when the token expires within 60 s (default), not before', async () => {
    const { session, server } = await launchedSession({
      codeAnswer: (srv) => srv.codeResponse({ expires_in: 90 }),
    })
    expect(await session.accessToken()).toBe('at-1')
    expect(server.tokenRequests()).toHaveLength(1)
    server.clock.advance(31)
    expect(await session.accessToken()).toBe('at-r1')
    expect(server.tokenRequests()).toHaveLength(2)
  })

  it('accessToken({ minValiditySeconds }) moves the threshold', async () => {
    const { session, server } = await launchedSession({
      codeAnswer: (srv) => srv.codeResponse({ expires_in: 100 }),
    })
    expect(await session.accessToken({ minValiditySeconds: 0 })).toBe('at-1')
    expect(await session.accessToken({ minValiditySeconds: 99 })).toBe('at-1')
    expect(await session.accessToken({ minValiditySeconds: 120 })).toBe('at-r1')
    expect(server.tokenRequests()).toHaveLength(2)
  })

  it.each([
    ['negative', -1],
    ['a string', '60'],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('accessToken({ minValiditySeconds: %s }) is a ConfigurationError', async (_n, value) => {
    const { session } = await launchedSession()
    await failureOf(session.accessToken({ minValiditySeconds: value as never }), ConfigurationError)
  })

  it('concurrent callers share one refresh', async () => {
    const { session, server } = await launchedSession({
      codeAnswer: (srv) => srv.codeResponse({ expires_in: 10 }),
    })
    const tokens = await Promise.all([
      session.accessToken(),
      session.accessToken(),
      session.refresh(),
      session.fetch('Patient/1'),
      session.accessToken(),
    ])
    expect(tokens[0]).toBe('at-r1')
    expect(tokens[1]).toBe('at-r1')
    expect(server.tokenRequests()).toHaveLength(2)
  })

  it('a rotated refresh token replaces the old one; without a new one the old is kept', async () => {
    const { session, server } = await launchedSession({
      refreshAnswer: (_srv, n) =>
        n === 1
          ? {
              access_token: 'at-r1',
              token_type: 'Bearer',
              expires_in: 3600,
              refresh_token: 'rt-r1',
            }
          : { access_token: `at-r${n}`, token_type: 'Bearer', expires_in: 3600 },
    })
    await session.refresh()
    await session.refresh()
    await session.refresh()
    const sent = server
      .tokenRequests()
      .slice(1)
      .map((request) => new URLSearchParams(request.bodyText).get('refresh_token'))
    expect(sent).toEqual(['rt-1', 'rt-r1', 'rt-r1'])
    expect(session.tokens.refreshToken).toBe('rt-r1')
    expect(session.tokens.accessToken).toBe('at-r3')
  })

  it('a refresh response without the launch context leaves the session about the same patient', async () => {
    const { session } = await launchedSession({
      refreshAnswer: (_srv, n) => ({
        access_token: `at-r${n}`,
        token_type: 'Bearer',
        expires_in: 3600,
      }),
    })
    const before = session.tokens
    await session.refresh()
    expect(session.tokens.accessToken).toBe('at-r1')
    expect(session.tokens.patient).toBe('1')
    expect(session.tokens.idToken).toBe(before.idToken)
    expect(session.tokens.fhirUser).toBe(before.fhirUser)
    expect(session.tokens.refreshToken).toBe('rt-1')
  })

  it('refresh({ scopes }) sends scope; refresh() sends none', async () => {
    const { session, server } = await launchedSession()
    await session.refresh()
    await session.refresh({ scopes: ['patient/Patient.rs'] })
    const forms = server
      .tokenRequests()
      .slice(1)
      .map((request) => new URLSearchParams(request.bodyText))
    expect(forms[0]?.has('scope')).toBe(false)
    expect(forms[1]?.get('scope')).toBe('patient/Patient.rs')
  })

  it('the refreshed set keeps the requested scopes as the fallback and returns a TokenSet', async () => {
    const { session } = await launchedSession()
    const refreshed = await session.refresh()
    expect(refreshed).toBeInstanceOf(TokenSet)
    expect(refreshed.scopes).toEqual(SCOPES)
    expect(session.tokens).toBe(refreshed)
  })

  it('onTokens is awaited after every refresh before the caller gets the token', async () => {
    const { client, store, callback } = await beginLaunch({
      codeAnswer: (srv) => srv.codeResponse({ expires_in: 10 }),
    })
    const seen: string[] = []
    let persisted = false
    const session = await client.completeAuthorization(callback(), {
      store,
      onTokens: async (tokens) => {
        await new Promise((resolve) => setTimeout(resolve, 30))
        seen.push(tokens.accessToken)
        persisted = true
      },
    })
    const token = await session.accessToken()
    expect(token).toBe('at-r1')
    expect(persisted).toBe(true)
    await session.refresh()
    expect(seen).toEqual(['at-r1', 'at-r2'])
  })

  it('resumeSession(tokens, { onTokens }) is awaited too; an onTokens of the wrong type is refused', async () => {
    const { client } = freshProbe()
    const seen: string[] = []
    const session = client.resumeSession(
      { access_token: 'old', refresh_token: 'rt-0', expires_in: 5 },
      {
        onTokens: async (tokens) => {
          await new Promise((resolve) => setTimeout(resolve, 10))
          seen.push(tokens.serialize())
        },
      },
    )
    expect(await session.accessToken()).toBe('at-r1')
    expect(seen).toHaveLength(1)
    expect(() =>
      client.resumeSession({ access_token: 'x' }, { onTokens: 'not a function' } as never),
    ).toThrow(ConfigurationError)
  })

  it('an expired session without a refresh token is a TokenError; fetch sends nothing', async () => {
    const { server, client } = freshProbe()
    const session = client.resumeSession({ access_token: 'dead', expires_in: 30 })
    server.clock.advance(31)
    await failureOf(session.accessToken(), TokenError)
    await failureOf(session.fetch('Patient/1'), TokenError)
    expect(server.requests).toHaveLength(0)
  })

  it('session.refresh() without a refresh token is a TokenError, nothing sent', async () => {
    const { server, client } = freshProbe()
    const session = client.resumeSession({ access_token: 'live', expires_in: 3600 })
    await failureOf(session.refresh(), TokenError)
    expect(server.tokenRequests()).toHaveLength(0)
  })

  it('concurrent callers all get the TokenError of a failed shared refresh, and the next call tries again', async () => {
    let fail = true
    const { session, server } = await launchedSession({
      codeAnswer: (srv) => srv.codeResponse({ expires_in: 10 }),
      refreshAnswer: () =>
        fail
          ? json({ error: 'temporarily_unavailable' }, 400)
          : { access_token: 'at-ok', token_type: 'Bearer', expires_in: 3600 },
    })
    const results = await Promise.allSettled([session.accessToken(), session.accessToken()])
    expect(results.every((result) => result.status === 'rejected')).toBe(true)
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(TokenError)
    }
    expect(server.tokenRequests()).toHaveLength(2)
    fail = false
    expect(await session.accessToken()).toBe('at-ok')
  })

  it('a failed refresh is a TokenError and leaves the old tokens', async () => {
    const { session } = await launchedSession({
      refreshAnswer: () => json({ error: 'invalid_grant' }, 400),
    })
    const error = await failureOf(session.refresh(), TokenError)
    expect(error.error).toBe('invalid_grant')
    expect(session.tokens.accessToken).toBe('at-1')
  })
})
