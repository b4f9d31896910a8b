import { type FetchLike, TokenError, TokenSet } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import { Session } from '../src/session/session.js'

const start = new Date('2026-11-24T12:00:00Z')

function clock() {
  let time = start.getTime()
  return {
    now: () => new Date(time),
    advance(seconds: number) {
      time += seconds * 1000
    },
  }
}

function tokens(access: string, refresh?: string, expiresIn = 300, at = start): TokenSet {
  return TokenSet.fromResponse(
    { access_token: access, expires_in: expiresIn, ...(refresh ? { refresh_token: refresh } : {}) },
    { obtainedAt: at },
  )
}

/** A refresh grant stand-in: rotates refresh tokens, counts calls, can be slowed or failed. */
function refresher(time: ReturnType<typeof clock>) {
  const state = { calls: 0, scopes: [] as (readonly string[] | undefined)[], fail: false }
  const refresh = async (
    current: TokenSet,
    options: { readonly scopes?: readonly string[] | undefined },
  ) => {
    state.calls += 1
    state.scopes.push(options.scopes)
    await new Promise((resolve) => setTimeout(resolve, 10))
    if (state.fail)
      throw new TokenError({ message: 'invalid_grant', error: 'invalid_grant', status: 400 })
    return current.withRefresh(
      {
        access_token: `at-${state.calls + 1}`,
        expires_in: 300,
        refresh_token: `rt-${state.calls + 1}`,
      },
      { obtainedAt: time.now() },
    )
  }
  return { state, refresh }
}

function session(
  initial: TokenSet,
  time = clock(),
  extra: { fetch?: FetchLike; onTokens?: (t: TokenSet) => Promise<void> } = {},
) {
  const grant = refresher(time)
  const made = new Session({
    tokens: initial,
    baseUrl: 'https://ehr.example.org/fhir',
    fetch: extra.fetch,
    now: time.now,
    refresh: grant.refresh,
    onTokens: extra.onTokens,
    timeoutMs: 1_000,
  })
  return { session: made, grant, time }
}

describe('Session.accessToken', () => {
  it('returns the token while it is valid for minValiditySeconds more, without refreshing', async () => {
    const { session: s, grant, time } = session(tokens('at-1', 'rt-1'))
    time.advance(239)
    expect(await s.accessToken()).toBe('at-1')
    expect(await s.accessToken({ minValiditySeconds: 30 })).toBe('at-1')
    expect(grant.state.calls).toBe(0)
  })

  it('refreshes first when the token nears expiry; 100 concurrent callers share one refresh', async () => {
    const { session: s, grant, time } = session(tokens('at-1', 'rt-1'))
    time.advance(241)
    const all = await Promise.all(Array.from({ length: 100 }, () => s.accessToken()))
    expect(new Set(all)).toEqual(new Set(['at-2']))
    expect(grant.state.calls).toBe(1)
    expect(s.tokens.refreshToken).toBe('rt-2')
  })

  it('without a refresh token: the token until it expires, then a TokenError (no dead token is handed out)', async () => {
    const { session: s, time } = session(tokens('at-1'))
    time.advance(290)
    expect(await s.accessToken()).toBe('at-1')
    time.advance(10)
    await expect(s.accessToken()).rejects.toThrow(TokenError)
    await expect(s.refresh()).rejects.toThrow(/no refresh token/)
  })

  it('a failed refresh rejects every waiting caller and the next call tries again', async () => {
    const { session: s, grant, time } = session(tokens('at-1', 'rt-1'))
    time.advance(300)
    grant.state.fail = true
    const failures = await Promise.allSettled([s.accessToken(), s.accessToken()])
    expect(failures.map((f) => f.status)).toEqual(['rejected', 'rejected'])
    grant.state.fail = false
    expect(await s.accessToken()).toBe('at-3')
  })
})

describe('Session.refresh', () => {
  it('passes scopes on, rotates the refresh token, and awaits onTokens before answering', async () => {
    const persisted: string[] = []
    const { session: s, grant } = session(tokens('at-1', 'rt-1'), clock(), {
      onTokens: async (t) => {
        await new Promise((resolve) => setTimeout(resolve, 5))
        persisted.push(t.serialize())
      },
    })
    const refreshed = await s.refresh({ scopes: ['patient/Observation.rs'] })
    expect(grant.state.scopes).toEqual([['patient/Observation.rs']])
    expect(persisted).toHaveLength(1)
    expect(TokenSet.deserialize(persisted[0] as string)?.refreshToken).toBe('rt-2')
    expect(refreshed).toBe(s.tokens)
  })

  it('asks for the scopes it was given, whatever the caller does to its array afterwards', async () => {
    const { session: s, grant } = session(tokens('at-1', 'rt-1'), clock())
    const scopes = ['patient/Observation.rs']
    const refreshing = s.refresh({ scopes })
    scopes[0] = 'patient/*.cruds'
    scopes.push('system/*.rs')
    await refreshing
    expect(grant.state.scopes).toEqual([['patient/Observation.rs']])
  })
})

describe('Session.fetch', () => {
  it('sends the current token, refreshes once on a 401 and sends the request again', async () => {
    const seen: string[] = []
    const fetch: FetchLike = async (_url, init) => {
      const authorization = new Headers(init.headers).get('authorization') ?? ''
      seen.push(authorization)
      return new Response('{}', { status: authorization === 'Bearer at-1' ? 401 : 200 })
    }
    const { session: s, grant } = session(tokens('at-1', 'rt-1'), clock(), { fetch })
    expect((await s.fetch('Patient/1')).status).toBe(200)
    expect(seen).toEqual(['Bearer at-1', 'Bearer at-2'])
    expect(grant.state.calls).toBe(1)
  })

  it('hands a 401 to the caller when there is no refresh token', async () => {
    const fetch: FetchLike = async () => new Response('', { status: 401 })
    const { session: s } = session(tokens('at-1'), clock(), { fetch })
    expect((await s.fetch('Patient/1')).status).toBe(401)
  })

  it('refreshes an expiring token before sending, and never sends outside the base URL', async () => {
    const seen: string[] = []
    const fetch: FetchLike = async (url, init) => {
      seen.push(`${url} ${new Headers(init.headers).get('authorization')}`)
      return new Response('{}')
    }
    const { session: s, time } = session(tokens('at-1', 'rt-1'), clock(), { fetch })
    time.advance(250)
    await s.fetch('Observation?patient=1')
    await expect(s.fetch('https://evil.example/fhir')).rejects.toThrow(
      /sent only under the FHIR baseUrl/,
    )
    expect(seen).toEqual(['https://ehr.example.org/fhir/Observation?patient=1 Bearer at-2'])
  })
})

describe('Session printing', () => {
  it('hides the tokens in toJSON and inspect', () => {
    const { session: s } = session(tokens('at-secret-1', 'rt-secret-1'))
    const inspect = (s as unknown as Record<symbol, () => string>)[
      Symbol.for('nodejs.util.inspect.custom')
    ]
    for (const text of [JSON.stringify(s), inspect?.call(s) ?? '']) {
      expect(text).not.toContain('at-secret-1')
      expect(text).not.toContain('rt-secret-1')
      expect(text).toContain('ehr.example.org')
    }
  })
})
