import { describe, expect, it } from 'vitest'
import { isTokenResponseValid } from '../src/index.js'
import { captureLogger } from './test-support.js'

const prefix = 'SMART token response non-compliance: '
const good = {
  access_token: 'secret-access-token',
  token_type: 'Bearer',
  expires_in: 3600,
  scope: 'system/*.rs',
}

function check(response: unknown, flow?: 'app_launch' | 'backend_services') {
  const logger = captureLogger()
  const valid = isTokenResponseValid(response, { flow, logger })
  return { valid, warnings: logger.warnings(), lines: logger.lines }
}

describe('isTokenResponseValid', () => {
  it.each(['app_launch', 'backend_services'] as const)(
    'accepts a compliant %s response silently',
    (flow) => {
      expect(check(good, flow)).toEqual({ valid: true, warnings: [], lines: [] })
    },
  )

  it('accepts lowercase bearer', () => {
    expect(check({ ...good, token_type: 'bearer' }).valid).toBe(true)
  })

  it('does not require expires_in for app launch', () => {
    const { expires_in: _omitted, ...rest } = good
    expect(check(rest).valid).toBe(true)
    expect(isTokenResponseValid(rest)).toBe(true)
    expect(check(rest, 'backend_services').warnings).toEqual([
      `${prefix}required field 'expires_in' is missing or blank (SMART Backend Services)`,
    ])
    for (const expiresIn of [null, '', '  ']) {
      expect(check({ ...good, expires_in: expiresIn }, 'backend_services').warnings).toEqual([
        `${prefix}required field 'expires_in' is missing or blank (SMART Backend Services)`,
      ])
    }
  })

  it.each([null, undefined, 'a string', 42, [good], true])(
    'warns once that %j is not a JSON object',
    (value) => {
      expect(check(value)).toMatchObject({
        valid: false,
        warnings: [`${prefix}response is not a JSON object`],
      })
    },
  )

  it.each([
    [
      'access_token absent',
      { access_token: undefined },
      "required field 'access_token' is missing or blank",
    ],
    [
      'access_token blank',
      { access_token: '  ' },
      "required field 'access_token' is missing or blank",
    ],
    ['scope absent', { scope: undefined }, "required field 'scope' is missing or blank"],
    ['scope empty', { scope: '' }, "required field 'scope' is missing or blank"],
    ['scope null', { scope: null }, "required field 'scope' is missing or blank"],
    [
      'access_token null',
      { access_token: null },
      "required field 'access_token' is missing or blank",
    ],
    ['token_type absent', { token_type: undefined }, "required field 'token_type' is missing"],
    ['token_type BEARER', { token_type: 'BEARER' }, `token_type is "BEARER"; expected 'Bearer'`],
    ['token_type DPoP', { token_type: 'DPoP' }, `token_type is "DPoP"; expected 'Bearer'`],
    ['token_type a number', { token_type: 1 }, "token_type is 1; expected 'Bearer'"],
    ['token_type null', { token_type: null }, "required field 'token_type' is missing"],
    [
      'token_type long and token-like',
      { token_type: 'eyJhbGci0iJ.tail-Bearer' },
      "token_type is a string of 23 characters; expected 'Bearer'",
    ],
    [
      'token_type that starts like a word',
      { token_type: 'Bearer 0123456789abcdef' },
      "token_type is a string of 23 characters; expected 'Bearer'",
    ],
    [
      'token_type a word longer than 16 letters',
      { token_type: 'Bearerbearerbearer' },
      "token_type is a string of 18 characters; expected 'Bearer'",
    ],
  ])('warns once for %s', (_label, change, warning) => {
    expect(check({ ...good, ...change })).toMatchObject({
      valid: false,
      warnings: [prefix + warning],
    })
  })

  it.each([
    ['access_token a number', { access_token: 42 }, 'access_token is a number; expected a string'],
    ['scope an array', { scope: ['a', 'b'] }, 'scope is an array; expected a string'],
    [
      'expires_in a numeric string',
      { expires_in: '3600' },
      'expires_in is a string; expected a number',
    ],
    ['expires_in null', { expires_in: null }, 'expires_in is null; expected a number'],
    [
      'expires_in infinite (a JavaScript object, not JSON)',
      { expires_in: Number.POSITIVE_INFINITY },
      'expires_in is not a finite number; expected a number',
    ],
    [
      'expires_in a blank string',
      { expires_in: '' },
      'expires_in is a blank string; expected a number',
    ],
    [
      'refresh_token a number',
      { refresh_token: 1 },
      'refresh_token is a number; expected a string',
    ],
    ['id_token an object', { id_token: {} }, 'id_token is an object; expected a string'],
    ['patient a number', { patient: 123 }, 'patient is a number; expected a string'],
    ['patient null', { patient: null }, 'patient is null; expected a string'],
    ['encounter a boolean', { encounter: true }, 'encounter is a boolean; expected a string'],
    ['fhirUser an array', { fhirUser: [] }, 'fhirUser is an array; expected a string'],
    [
      'smart_style_url a number',
      { smart_style_url: 0 },
      'smart_style_url is a number; expected a string',
    ],
    ['intent an object', { intent: { a: 1 } }, 'intent is an object; expected a string'],
    ['tenant a number', { tenant: 7 }, 'tenant is a number; expected a string'],
    [
      'need_patient_banner a string',
      { need_patient_banner: 'true' },
      'need_patient_banner is a string; expected a boolean',
    ],
    [
      'fhirContext an object',
      { fhirContext: { reference: 'Patient/1' } },
      'fhirContext is an object; expected an array of objects',
    ],
    [
      'fhirContext with a string entry',
      { fhirContext: [{ reference: 'Patient/1' }, 'Patient/2'] },
      'fhirContext is an array with other entries; expected an array of objects',
    ],
    [
      'fhirContext with a null entry',
      { fhirContext: [null] },
      'fhirContext is an array with other entries; expected an array of objects',
    ],
  ])('warns once that a named member has another JSON type: %s', (_label, change, warning) => {
    expect(check({ ...good, ...change })).toMatchObject({
      valid: false,
      warnings: [prefix + warning],
    })
  })

  it('accepts every named member with its JSON type, and unknown members of any type', () => {
    const complete = {
      ...good,
      refresh_token: 'r',
      id_token: 'i',
      patient: '123',
      encounter: 'e',
      fhirUser: 'Practitioner/1',
      fhirContext: [{ reference: 'Patient/1' }, { canonical: 'http://x', role: 'r' }],
      need_patient_banner: false,
      smart_style_url: 'https://ehr.example/style',
      intent: 'reconcile',
      tenant: 't',
      expires_in: 0,
      vendor_extension: [1, null, { nested: true }],
    }
    expect(check(complete)).toEqual({ valid: true, warnings: [], lines: [] })
  })

  it('is a type guard: a valid response is a TokenResponse without a cast', () => {
    const body: unknown = { ...good, patient: '123', need_patient_banner: true }
    if (!isTokenResponseValid(body, { logger: captureLogger() })) throw new Error('not valid')
    const patient: string | undefined = body.patient
    const banner: boolean | undefined = body.need_patient_banner
    expect([patient, banner, body.access_token]).toEqual(['123', true, 'secret-access-token'])
  })

  it('never names a member value of the wrong type, only its kind', () => {
    const { lines } = check({ ...good, patient: 4242424242, fhirUser: ['secret-user'] })
    expect(JSON.stringify(lines)).not.toContain('4242424242')
    expect(JSON.stringify(lines)).not.toContain('secret-user')
  })

  it('warns once per violation when there are several', () => {
    const { warnings, valid } = check({ token_type: 'mac', expires_in: '' }, 'backend_services')
    expect(valid).toBe(false)
    expect(warnings).toHaveLength(4)
    for (const warning of warnings) expect(warning.startsWith(prefix)).toBe(true)
  })

  it('never logs a token value', () => {
    const { lines } = check({ ...good, token_type: 'secret-access-token-type', scope: '' })
    expect(JSON.stringify(lines)).not.toContain('secret-access-token"')
    const missing = check({ access_token: 'eyJhbGciOi.eyJzdWIi.c2ln', scope: ' ' })
    expect(JSON.stringify(missing.lines)).not.toContain('eyJhbGciOi')
  })

  it('never throws for hostile input', () => {
    const throwingGetter = Object.defineProperty({}, 'access_token', {
      enumerable: true,
      get() {
        throw new Error('getter')
      },
    })
    const trap = new Proxy(
      {},
      {
        get() {
          throw new Error('trap')
        },
        has() {
          throw new Error('trap')
        },
        getPrototypeOf() {
          throw new Error('trap')
        },
      },
    )
    const { proxy: revoked, revoke } = Proxy.revocable({}, {})
    revoke()
    const unreadable = captureLogger()
    expect(isTokenResponseValid(throwingGetter, { logger: unreadable })).toBe(false)
    expect(unreadable.warnings()).toEqual([`${prefix}response could not be read`])
    for (const hostile of [throwingGetter, trap, revoked, Object.create(null), new Map()]) {
      const logger = captureLogger()
      expect(() => isTokenResponseValid(hostile, { logger })).not.toThrow()
      expect(isTokenResponseValid(hostile, { logger })).toBe(false)
      expect(logger.warnings().length).toBeGreaterThan(0)
    }
  })

  it('never throws when the options or the logger are hostile', () => {
    const throwingLogger = {
      info() {},
      error() {},
      warn() {
        throw new Error('logger down')
      },
    }
    expect(isTokenResponseValid({}, { logger: throwingLogger })).toBe(false)
    // An async logger whose promise rejects: observed here, never an unhandled rejection.
    const rejectingLogger = { ...throwingLogger, warn: () => Promise.reject(new Error('down')) }
    expect(isTokenResponseValid({}, { logger: rejectingLogger as never })).toBe(false)
    const hostileOptions = Object.defineProperty({ logger: captureLogger() }, 'flow', {
      get() {
        throw new Error('options')
      },
    })
    expect(isTokenResponseValid(good, hostileOptions)).toBe(true)
    // Unreadable options check as app launch: expires_in is then not required.
    const { expires_in: _omitted, ...withoutExpiry } = good
    expect(isTokenResponseValid(withoutExpiry, hostileOptions)).toBe(true)
  })

  it('uses the default logger when none is given', () => {
    expect(isTokenResponseValid(good)).toBe(true)
  })
})
