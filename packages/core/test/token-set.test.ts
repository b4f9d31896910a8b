import { describe, expect, it } from 'vitest'
import { base64UrlEncodeText } from '../src/crypto/base64.js'
import { type Logger, TokenSet } from '../src/index.js'

const obtainedAt = new Date('2026-11-24T12:00:00Z')

function warnings(): Logger & { messages: string[] } {
  const messages: string[] = []
  return { messages, info() {}, error() {}, warn: (message: string) => void messages.push(message) }
}

/** A compact JWS carrying `claims` (the signature is not checked by a token set). */
const idTokenWith = (claims: Record<string, unknown>) =>
  `${base64UrlEncodeText('{"alg":"RS256"}')}.${base64UrlEncodeText(JSON.stringify(claims))}.c2ln`

const smartResponse = {
  access_token: 'at-secret',
  token_type: 'Bearer',
  expires_in: 3600,
  scope: 'launch/patient patient/*.rs openid fhirUser',
  refresh_token: 'rt-secret',
  id_token: 'eyJ.id.token',
  patient: 'p-1',
  encounter: 'e-1',
  need_patient_banner: true,
  smart_style_url: 'https://ehr.example.org/style.json',
  intent: 'reconcile-medications',
  tenant: 't-1',
  fhirContext: [{ reference: 'Patient/p-1', role: 'launch' }],
}

describe('TokenSet.fromResponse', () => {
  it('reads every SMART member with its JSON type', () => {
    const tokens = TokenSet.fromResponse(smartResponse, { obtainedAt })
    expect(tokens).toMatchObject({
      accessToken: 'at-secret',
      tokenType: 'Bearer',
      refreshToken: 'rt-secret',
      idToken: 'eyJ.id.token',
      patient: 'p-1',
      encounter: 'e-1',
      needPatientBanner: true,
      smartStyleUrl: 'https://ehr.example.org/style.json',
      intent: 'reconcile-medications',
      tenant: 't-1',
      fhirContext: [{ reference: 'Patient/p-1', role: 'launch' }],
      scopes: ['launch/patient', 'patient/*.rs', 'openid', 'fhirUser'],
    })
    expect(tokens.expiresAt?.toISOString()).toBe('2026-11-24T13:00:00.000Z')
    expect(tokens.raw).toBe(smartResponse)
  })

  it('falls back to the requested scopes, reads a numeric-string expires_in, defaults Bearer', () => {
    const tokens = TokenSet.fromResponse(
      { access_token: 'a', expires_in: '120' },
      { obtainedAt, requestedScopes: ['system/Patient.rs'] },
    )
    expect(tokens.scopes).toEqual(['system/Patient.rs'])
    expect(tokens.expiresAt?.getTime()).toBe(obtainedAt.getTime() + 120_000)
    expect(tokens.tokenType).toBe('Bearer')
    expect(tokens.fhirContext).toEqual([])
  })

  it('leaves out members of the wrong JSON type, one warning each', () => {
    const logger = warnings()
    const tokens = TokenSet.fromResponse(
      {
        access_token: 'a',
        patient: 42,
        refresh_token: { nested: true },
        expires_in: 'soon',
        need_patient_banner: 'yes',
        fhirContext: [{ reference: 'Patient/1' }, 'Patient/2', null],
        scope: ['a'],
      },
      { obtainedAt, logger, requestedScopes: ['x'] },
    )
    expect(tokens.patient).toBeUndefined()
    expect(tokens.refreshToken).toBeUndefined()
    expect(tokens.expiresAt).toBeUndefined()
    expect(tokens.needPatientBanner).toBeUndefined()
    expect(tokens.fhirContext).toEqual([{ reference: 'Patient/1' }])
    expect(tokens.scopes).toEqual(['x'])
    expect(logger.messages).toHaveLength(6)
    expect(logger.messages.join()).not.toContain('42')
  })

  it('reads need_patient_banner sent as the string "true" or "false" (Epic) as the boolean', () => {
    const logger = warnings()
    const read = (value: string) =>
      TokenSet.fromResponse(
        { access_token: 'a', need_patient_banner: value },
        { obtainedAt, logger },
      )
    expect(read('false').needPatientBanner).toBe(false)
    expect(read('true').needPatientBanner).toBe(true)
    // The token request warns where the response is read; the set does not warn again.
    expect(logger.messages).toEqual([])
    const refreshed = read('false').withRefresh({ access_token: 'b' }, { obtainedAt, logger })
    expect(refreshed.needPatientBanner).toBe(false)
    expect(read('False').needPatientBanner).toBeUndefined()
    expect(logger.messages).toHaveLength(1)
  })

  it('takes fhirUser from the validated ID token claims when the response has none', () => {
    const tokens = TokenSet.fromResponse(
      { access_token: 'a' },
      {
        obtainedAt,
        idTokenClaims: { sub: 'u', fhirUser: 'https://ehr.example.org/fhir/Practitioner/9' },
      },
    )
    expect(tokens.fhirUser).toBe('https://ehr.example.org/fhir/Practitioner/9')
    const both = TokenSet.fromResponse(
      { access_token: 'a', fhirUser: 'Practitioner/1' },
      { obtainedAt, idTokenClaims: { fhirUser: 'Practitioner/9' } },
    )
    expect(both.fhirUser).toBe('Practitioner/1')
  })
})

describe('TokenSet.isExpired', () => {
  const tokens = TokenSet.fromResponse({ access_token: 'a', expires_in: 300 }, { obtainedAt })
  const at = (seconds: number) => new Date(obtainedAt.getTime() + seconds * 1000)

  it('is expired from expiresAt on, or minValiditySeconds before', () => {
    expect(tokens.isExpired({ now: at(299) })).toBe(false)
    expect(tokens.isExpired({ now: at(300) })).toBe(true)
    expect(tokens.isExpired({ now: at(239), minValiditySeconds: 60 })).toBe(false)
    expect(tokens.isExpired({ now: at(240), minValiditySeconds: 60 })).toBe(true)
  })

  it('reads the clock it was made with when given no now, through refreshes and a resume', () => {
    let now = at(0)
    const clock = () => now
    const clocked = TokenSet.fromResponse(
      { access_token: 'a', expires_in: 300 },
      { obtainedAt, clock },
    )
    expect(clocked.isExpired()).toBe(false)
    now = at(300)
    expect(clocked.isExpired()).toBe(true)
    const refreshed = clocked.withRefresh(
      { access_token: 'b', expires_in: 300 },
      { obtainedAt: at(300) },
    )
    expect(refreshed.isExpired()).toBe(false)
    const resumed = TokenSet.deserialize(clocked.serialize(), undefined, clock)
    expect(resumed?.isExpired()).toBe(true)
    expect(JSON.parse(clocked.serialize())).not.toHaveProperty('clock')
  })

  it('keeps the requested scopes apart from the granted ones', () => {
    const granted = TokenSet.fromResponse(
      { access_token: 'a', scope: 'patient/*.rs' },
      { obtainedAt, requestedScopes: ['openid', 'patient/*.rs'] },
    )
    expect(granted.scopes).toEqual(['patient/*.rs'])
    expect(granted.requestedScopes).toEqual(['openid', 'patient/*.rs'])
    expect(Object.isFrozen(granted.requestedScopes)).toBe(true)
  })

  it('is never known to be expired without expires_in', () => {
    const forever = TokenSet.fromResponse({ access_token: 'a' }, { obtainedAt })
    expect(forever.isExpired({ now: at(1e9) })).toBe(false)
  })
})

describe('TokenSet persistence and redaction', () => {
  it('serialize and deserialize give the same set back', () => {
    const claims = { sub: 'u-1', iss: 'https://ehr.example.org' }
    const tokens = TokenSet.fromResponse(
      { ...smartResponse, id_token: idTokenWith(claims) },
      { obtainedAt, requestedScopes: ['openid'], idTokenClaims: claims },
    )
    const back = TokenSet.deserialize(tokens.serialize())
    expect(back).toBeInstanceOf(TokenSet)
    expect(back?.toJSON()).toEqual(tokens.toJSON())
    expect(back?.accessToken).toBe('at-secret')
    expect(back?.idTokenClaims).toEqual({ sub: 'u-1', iss: 'https://ehr.example.org' })
    expect(back?.expiresAt).toEqual(tokens.expiresAt)
  })

  it('deserialize refuses anything it did not write', () => {
    for (const text of [
      '',
      'null',
      '{}',
      '{"v":2}',
      '{"v":1,"raw":{},"obtainedAt":1,"requestedScopes":[]}',
      '[',
      'x',
    ]) {
      expect(TokenSet.deserialize(text)).toBeUndefined()
    }
  })

  it('toJSON and inspect hide every token', () => {
    const tokens = TokenSet.fromResponse(smartResponse, { obtainedAt })
    const shown = [
      JSON.stringify(tokens),
      (tokens as unknown as Record<symbol, () => string>)[
        Symbol.for('nodejs.util.inspect.custom')
      ]?.(),
    ]
    for (const text of shown) {
      expect(text).not.toContain('at-secret')
      expect(text).not.toContain('rt-secret')
      expect(text).not.toContain('eyJ.id.token')
      expect(text).toContain('p-1')
    }
  })

  it('withRefresh keeps the refresh token and identity the server did not replace', () => {
    const tokens = TokenSet.fromResponse(smartResponse, {
      obtainedAt,
      idTokenClaims: { sub: 'u-1' },
      requestedScopes: ['openid'],
    })
    const later = new Date(obtainedAt.getTime() + 3_000_000)
    const refreshed = tokens.withRefresh(
      { access_token: 'at-2', expires_in: 60 },
      { obtainedAt: later },
    )
    expect(refreshed.refreshToken).toBe('rt-secret')
    expect(refreshed.idTokenClaims).toEqual({ sub: 'u-1' })
    expect(refreshed.expiresAt?.getTime()).toBe(later.getTime() + 60_000)
    const rotated = tokens.withRefresh(
      { access_token: 'at-3', refresh_token: 'rt-2', id_token: 'eyJ.new' },
      { obtainedAt: later, idTokenClaims: { sub: 'u-1', n: 2 } },
    )
    expect(rotated.refreshToken).toBe('rt-2')
    expect(rotated.idTokenClaims).toEqual({ sub: 'u-1', n: 2 })
  })

  it('withRefresh without scope grants what the refresh asked for, else the grant before it (RFC 6749 §5.1, §6)', () => {
    const launched = TokenSet.fromResponse(
      { access_token: 'at-1', scope: 'patient/Observation.rs offline_access' },
      { obtainedAt, requestedScopes: ['patient/Observation.rs', 'patient/Condition.rs'] },
    )
    const kept = launched.withRefresh({ access_token: 'at-2' }, { obtainedAt })
    expect(kept.scopes).toEqual(['patient/Observation.rs', 'offline_access'])
    const narrowed = kept.withRefresh(
      { access_token: 'at-3' },
      { obtainedAt, requestedScopes: ['patient/Observation.rs'] },
    )
    expect(narrowed.scopes).toEqual(['patient/Observation.rs'])
    expect(TokenSet.deserialize(narrowed.serialize())?.scopes).toEqual(['patient/Observation.rs'])
    // A `scope` the response sends is the grant, whatever was asked.
    const sent = narrowed.withRefresh(
      { access_token: 'at-4', scope: 'offline_access' },
      { obtainedAt, requestedScopes: ['patient/Observation.rs'] },
    )
    expect(sent.scopes).toEqual(['offline_access'])
  })

  it('withRefresh keeps the launch context and ID token a refresh response leaves out, through a resume', () => {
    const claims = { sub: 'u-1', fhirUser: 'Practitioner/d-1' }
    const tokens = TokenSet.fromResponse(
      { ...smartResponse, id_token: idTokenWith(claims) },
      { obtainedAt, idTokenClaims: claims },
    )
    const log = warnings()
    const refreshed = tokens.withRefresh(
      { access_token: 'at-2', token_type: 'Bearer', expires_in: 60, refresh_token: null as never },
      { obtainedAt, logger: log },
    )
    const context = (set: TokenSet) => ({
      refreshToken: set.refreshToken,
      idToken: set.idToken,
      idTokenClaims: set.idTokenClaims,
      patient: set.patient,
      encounter: set.encounter,
      fhirContext: set.fhirContext,
      fhirUser: set.fhirUser,
      needPatientBanner: set.needPatientBanner,
      smartStyleUrl: set.smartStyleUrl,
      intent: set.intent,
      tenant: set.tenant,
    })
    expect(context(refreshed)).toEqual(context(tokens))
    expect(refreshed.patient).toBe('p-1')
    expect(refreshed.accessToken).toBe('at-2')
    expect(log.messages).toEqual([])
    const resumed = TokenSet.deserialize(refreshed.serialize())
    expect(resumed && context(resumed)).toEqual(context(tokens))
    // What the refresh response sends replaces the old value.
    const moved = tokens.withRefresh(
      { access_token: 'at-3', patient: 'p-2', fhirContext: [] },
      { obtainedAt },
    )
    expect([moved.patient, moved.fhirContext, moved.encounter]).toEqual(['p-2', [], 'e-1'])
  })
})

describe('TokenSet serialization: bound, with claims read from the carried ID token', () => {
  const binding = {
    tokenEndpoint: 'https://ehr.example.org/auth/token',
    issuer: 'https://ehr.example.org/fhir',
    baseUrl: 'https://ehr.example.org/fhir',
    clientId: 'app',
  }
  const claims = { sub: 'u-1', fhirUser: 'Practitioner/d-1' }
  const verified = () =>
    TokenSet.fromResponse(
      { access_token: 'at-1', refresh_token: 'rt-1', id_token: idTokenWith(claims) },
      { obtainedAt, idTokenClaims: claims, binding },
    )

  it('records the binding and keeps it through a refresh and a resume', () => {
    const tokens = verified()
    expect(tokens.binding).toEqual(binding)
    const refreshed = tokens.withRefresh({ access_token: 'at-2' }, { obtainedAt })
    expect(refreshed.binding).toEqual(binding)
    expect(TokenSet.deserialize(refreshed.serialize())?.binding).toEqual(binding)
    const unbound = TokenSet.fromResponse({ access_token: 'a' }, { obtainedAt })
    expect(unbound.binding).toBeUndefined()
    // Serialized with an empty binding: only the 0.5 form has none.
    expect(TokenSet.deserialize(unbound.serialize())?.binding).toEqual({})
  })

  it('reads idTokenClaims and fhirUser from the id_token, never from other members', () => {
    const stored = JSON.parse(verified().serialize()) as Record<string, unknown>
    expect(stored).not.toHaveProperty('idTokenClaims')
    expect(stored.v).toBe(1)
    const tampered = JSON.stringify({
      ...stored,
      idTokenClaims: { sub: 'admin', fhirUser: 'Practitioner/admin' },
      fhirUser: 'Practitioner/admin',
    })
    const resumed = TokenSet.deserialize(tampered)
    expect(resumed?.idTokenClaims).toEqual(claims)
    expect(resumed?.fhirUser).toBe('Practitioner/d-1')
  })

  it('gives no claims for an ID token that was never verified, or that is not a JWS', () => {
    const unverified = TokenSet.fromResponse(
      { access_token: 'at-1', id_token: idTokenWith(claims) },
      { obtainedAt, binding },
    )
    const resumed = TokenSet.deserialize(unverified.serialize())
    expect(resumed?.idToken).toBe(unverified.idToken)
    expect(resumed?.idTokenClaims).toBeUndefined()
    expect(resumed?.fhirUser).toBeUndefined()
    const notJws = TokenSet.fromResponse(
      { access_token: 'at-1', id_token: 'garbage' },
      { obtainedAt, idTokenClaims: claims },
    )
    expect(TokenSet.deserialize(notJws.serialize())?.idTokenClaims).toBeUndefined()
  })

  it('reads the 0.5 form without a binding and without claims (resumeSession refuses it)', () => {
    const older = JSON.stringify({
      v: 1,
      raw: { access_token: 'at-1', id_token: idTokenWith(claims) },
      obtainedAt: obtainedAt.getTime(),
      requestedScopes: ['openid'],
      idTokenClaims: { sub: 'admin' },
    })
    const resumed = TokenSet.deserialize(older)
    expect(resumed?.accessToken).toBe('at-1')
    expect(resumed?.binding).toBeUndefined()
    expect(resumed?.idTokenClaims).toBeUndefined()
  })

  it('reads a binding that is not an object as none', () => {
    const stored = JSON.parse(verified().serialize()) as Record<string, unknown>
    for (const bad of [null, 'x', 7]) {
      const read = TokenSet.deserialize(JSON.stringify({ ...stored, binding: bad }))
      expect(read?.accessToken).toBe('at-1')
      expect(read?.binding).toBeUndefined()
    }
  })
})
