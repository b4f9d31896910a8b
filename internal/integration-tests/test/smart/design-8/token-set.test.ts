/**
 * DESIGN §8 probe, `TokenSet`: every member read from a token response (`expiresAt`, the
 * granted scopes or else the requested ones, a numeric-string `expires_in`, members of the
 * wrong JSON type left out with a warning), `isExpired`, redaction in `toJSON` and
 * `util.inspect`, and `serialize()` taken back by `resumeSession`. Written from DESIGN's words
 * only, driving the public entries as a black box.
 */
import { inspect } from 'node:util'
import { ConfigurationError, memoryStore, Session, TokenSet } from '@fhir-auth/client'
import { createCapturingLogger } from '@fhir-auth/test-utils'
import { syncFailureOf } from '@fhir-auth/test-utils/failure'
import { describe, expect, it } from 'vitest'
import { BASE, callbackUrl, ISSUER, SCOPES } from './support/fake-smart-server.js'
import { freshProbe, launchedSession } from './support/probe-client.js'
import { renderingsOf } from './support/renderings.js'

describe('§8 TokenSet', () => {
  const fullResponse = {
    access_token: 'secret-access-token-value',
    token_type: 'bearer',
    expires_in: 3600,
    scope: 'patient/*.rs launch/patient',
    refresh_token: 'secret-refresh-token-value',
    patient: 'p-1',
    encounter: 'e-1',
    fhirUser: 'Practitioner/x',
    fhirContext: [{ reference: 'Observation/1' }],
    need_patient_banner: true,
    smart_style_url: 'https://ehr.example.org/style.json',
    intent: 'reconcile',
    tenant: 't-1',
    custom_member: 'kept',
  }

  it('reads every member, expiresAt from expires_in and the granted scopes', async () => {
    const { server, client } = freshProbe({}, {}, { scopes: ['launch/patient', 'patient/*.rs'] })
    const before = server.clock.now().getTime()
    const session = client.resumeSession(fullResponse)
    const tokens = session.tokens
    expect(tokens).toBeInstanceOf(TokenSet)
    expect(tokens.accessToken).toBe('secret-access-token-value')
    expect(tokens.tokenType).toBe('bearer')
    expect(tokens.refreshToken).toBe('secret-refresh-token-value')
    expect(tokens.scopes).toEqual(['patient/*.rs', 'launch/patient'])
    expect(tokens.patient).toBe('p-1')
    expect(tokens.encounter).toBe('e-1')
    expect(tokens.fhirUser).toBe('Practitioner/x')
    expect(tokens.fhirContext).toEqual([{ reference: 'Observation/1' }])
    expect(tokens.needPatientBanner).toBe(true)
    expect(tokens.smartStyleUrl).toBe('https://ehr.example.org/style.json')
    expect(tokens.intent).toBe('reconcile')
    expect(tokens.tenant).toBe('t-1')
    expect(tokens.raw).toEqual(fullResponse)
    expect(tokens.expiresAt).toBeInstanceOf(Date)
    const expires = tokens.expiresAt?.getTime() ?? 0
    expect(expires).toBeGreaterThanOrEqual(before + 3600_000)
    expect(expires).toBeLessThanOrEqual(server.clock.now().getTime() + 3600_000)
  })

  it('scopes fall back to the requested scopes when the response has no scope', async () => {
    const { session } = await launchedSession({
      codeAnswer: (srv) => srv.codeResponse({ scope: undefined }),
    })
    expect(session.tokens.scopes).toEqual(SCOPES)
  })

  it('scopes fall back to customScopes when those were requested', async () => {
    const { server, client } = freshProbe({
      codeAnswer: (srv) => srv.codeResponse({ scope: undefined }),
    })
    const store = memoryStore()
    const begun = await client.beginAuthorization({
      store,
      customScopes: ['openid', 'patient/Observation.rs'],
    })
    const url = server.authorize(begun.authUrl)
    const session = await client.completeAuthorization(
      callbackUrl({ code: 'c', state: begun.state, iss: ISSUER }),
      { store },
    )
    expect(session.tokens.scopes).toEqual(url.searchParams.get('scope')?.split(' '))
  })

  it('fhirContext is [] when absent; tokenType and optional members are absent when not sent', async () => {
    const { client } = freshProbe()
    const tokens = client.resumeSession({ access_token: 'a' }).tokens
    expect(tokens.fhirContext).toEqual([])
    expect(tokens.expiresAt).toBeUndefined()
    expect(tokens.refreshToken).toBeUndefined()
    expect(tokens.patient).toBeUndefined()
    expect(tokens.isExpired()).toBe(false)
  })

  it('a numeric-string expires_in is read as a number', async () => {
    const { session } = await launchedSession({
      codeAnswer: (srv) => srv.codeResponse({ expires_in: '120' }),
    })
    const { expiresAt } = session.tokens
    expect(expiresAt).toBeInstanceOf(Date)
    const lifetime = ((expiresAt?.getTime() ?? 0) - Date.now()) / 1000
    expect(lifetime).toBeGreaterThan(100)
    expect(lifetime).toBeLessThanOrEqual(120)
  })

  it('members of the wrong JSON type are left out with a warning each', async () => {
    const logger = createCapturingLogger()
    const { session } = await launchedSession(
      {
        codeAnswer: (srv) =>
          srv.codeResponse({
            patient: 42,
            encounter: { id: 'e' },
            need_patient_banner: 'yes',
            smart_style_url: ['x'],
            tenant: 7,
            intent: false,
            fhirContext: 'Observation/1',
            expires_in: 'soon',
          }),
      },
      { logger },
    )
    const tokens = session.tokens
    expect(tokens.patient).toBeUndefined()
    expect(tokens.encounter).toBeUndefined()
    expect(tokens.needPatientBanner).toBeUndefined()
    expect(tokens.smartStyleUrl).toBeUndefined()
    expect(tokens.tenant).toBeUndefined()
    expect(tokens.intent).toBeUndefined()
    expect(tokens.fhirContext).toEqual([])
    expect(tokens.expiresAt).toBeUndefined()
    const warnings = logger.entries
      .filter((entry) => entry.level === 'warn')
      .map((entry) => `${entry.message} ${JSON.stringify(entry.fields ?? {})}`)
      .join('\n')
    for (const member of [
      'patient',
      'encounter',
      'need_patient_banner',
      'smart_style_url',
      'tenant',
      'intent',
      'fhirContext',
      'expires_in',
    ]) {
      expect(warnings).toContain(member)
    }
  })

  it('isExpired({ minValiditySeconds, now })', () => {
    const { client } = freshProbe()
    const tokens = client.resumeSession({ access_token: 'a', expires_in: 100 }).tokens
    const obtained = tokens.expiresAt?.getTime() ?? 0
    const at = (secondsBeforeExpiry: number) => new Date(obtained - secondsBeforeExpiry * 1000)
    expect(tokens.isExpired({ now: at(50) })).toBe(false)
    expect(tokens.isExpired({ now: at(50), minValiditySeconds: 60 })).toBe(true)
    expect(tokens.isExpired({ now: at(70), minValiditySeconds: 60 })).toBe(false)
    expect(tokens.isExpired({ now: at(-1) })).toBe(true)
    expect(tokens.isExpired({ now: at(1) })).toBe(false)
  })

  it('toJSON and util.inspect redact the access, refresh and ID tokens (TokenSet and Session)', async () => {
    const { session, server } = await launchedSession()
    const idToken = String(session.tokens.idToken)
    const rendered = [
      JSON.stringify(session.tokens),
      inspect(session.tokens, { depth: 10, showHidden: true }),
      JSON.stringify(session),
      inspect(session, { depth: 10, showHidden: true }),
      String(session),
      String(session.tokens),
    ].join('\n')
    expect(rendered).not.toContain('at-1')
    expect(rendered).not.toContain('rt-1')
    expect(rendered).not.toContain(idToken.split('.')[2]?.slice(0, 20))
    expect(rendered).not.toContain(idToken.split('.')[1]?.slice(0, 20))
    expect(server.tokenRequests()).toHaveLength(1)
  })

  it('serialize() holds the tokens and resumeSession(string) restores the set', async () => {
    const { session, client } = await launchedSession()
    const text = session.tokens.serialize()
    expect(text).toContain('at-1')
    const resumed = client.resumeSession(text)
    expect(resumed).toBeInstanceOf(Session)
    expect(resumed.tokens.accessToken).toBe('at-1')
    expect(resumed.tokens.refreshToken).toBe('rt-1')
    expect(resumed.tokens.patient).toBe('1')
    expect(resumed.tokens.idTokenClaims?.sub).toBe('user-1')
    expect(resumed.tokens.fhirUser).toBe(`${BASE}/Practitioner/p1`)
    expect(resumed.tokens.scopes).toEqual(session.tokens.scopes)
    expect(resumed.tokens.expiresAt?.getTime()).toBe(session.tokens.expiresAt?.getTime())
  })

  it('resumeSession takes a TokenSet and a TokenResponse too', async () => {
    const { session, client } = await launchedSession()
    expect(client.resumeSession(session.tokens).tokens.accessToken).toBe('at-1')
    const fromResponse = client.resumeSession({
      access_token: 'x',
      token_type: 'Bearer',
      scope: 'patient/*.rs',
    })
    expect(fromResponse.tokens.accessToken).toBe('x')
    expect(fromResponse.tokens.scopes).toEqual(['patient/*.rs'])
  })

  it.each([
    ['not JSON', 'not json at all'],
    ['an empty object', '{}'],
    ['JSON null', 'null'],
    ['a number as JSON', '42'],
    [
      'an access_token that is a number',
      '{"v":1,"raw":{"access_token":5},"obtainedAt":1,"requestedScopes":[]}',
    ],
    ['the empty string', ''],
  ])('resumeSession with %s is a ConfigurationError', (_name, text) => {
    const { client } = freshProbe()
    expect(() => client.resumeSession(text)).toThrow(ConfigurationError)
  })

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['an array', ['a']],
    ['an object without access_token', { token_type: 'Bearer' }],
    ['an empty access_token', { access_token: '' }],
    ['an access_token of the wrong type', { access_token: 42 }],
  ])('resumeSession with %s is a ConfigurationError', (_name, value) => {
    const { client } = freshProbe()
    expect(() => client.resumeSession(value as never)).toThrow(ConfigurationError)
  })

  it('a tampered serialized session is a typed error whose message, cause and inspect hold no secret', async () => {
    const { session, client } = await launchedSession()
    const text = session.tokens.serialize()
    const tampered = [
      text.slice(0, -3),
      text.replace('"v":1', '"v":99'),
      `${text}garbage`,
      text.replace('"access_token":"at-1"', '"access_token":["at-1"]'),
    ]
    for (const value of tampered) {
      const error = syncFailureOf(() => client.resumeSession(value), ConfigurationError)
      const rendered = renderingsOf(error)
      expect(rendered).not.toContain('at-1')
      expect(rendered).not.toContain('rt-1')
    }
  })
})
