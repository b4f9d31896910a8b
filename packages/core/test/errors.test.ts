import { describe, expect, it } from 'vitest'
import {
  CertificateChainError,
  ConfigurationError,
  CryptoError,
  DiscoveryError,
  FhirAuthError,
  HttpError,
  type HttpResponse,
  oauthErrorFromResponse,
  parseOAuthErrorBody,
  RegistrationError,
  TokenError,
} from '../src/index.js'

describe('error classes', () => {
  const cases: [FhirAuthError, string, string][] = [
    [
      new ConfigurationError({ invalidAttribute: 'protocol', invalidValue: 'x' }),
      'ConfigurationError',
      'ERR_CONFIGURATION',
    ],
    [
      new DiscoveryError({ message: 'm', endpoint: 'https://e', status: 500 }),
      'DiscoveryError',
      'ERR_DISCOVERY',
    ],
    [new TokenError({ message: 'm' }), 'TokenError', 'ERR_TOKEN'],
    [new RegistrationError({ message: 'm' }), 'RegistrationError', 'ERR_REGISTRATION'],
    [new HttpError({ message: 'm', reason: 'timeout', url: 'https://e' }), 'HttpError', 'ERR_HTTP'],
    [new CryptoError('invalid-key', 'm'), 'CryptoError', 'ERR_CRYPTO'],
    [
      new CertificateChainError('revoked', 'm', 'CN=leaf'),
      'CertificateChainError',
      'ERR_CERTIFICATE_CHAIN',
    ],
  ]

  it.each(cases)(
    '%s has a stable name and code and extends FhirAuthError and Error',
    (error, name, code) => {
      expect(error).toBeInstanceOf(FhirAuthError)
      expect(error).toBeInstanceOf(Error)
      expect(error.name).toBe(name)
      expect(error.code).toBe(code)
      expect(FhirAuthError.isFhirAuthError(error)).toBe(true)
      expect(String(error)).toContain(name)
    },
  )

  it('recognises errors from another copy of the library by the shared marker', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('fhir-auth.error')]: true })
    expect(FhirAuthError.isFhirAuthError(foreign)).toBe(true)
    expect(FhirAuthError.isFhirAuthError(new Error('x'))).toBe(false)
    expect(FhirAuthError.isFhirAuthError(null)).toBe(false)
  })

  it('ConfigurationError carries invalidAttribute, invalidValue and validValues and builds a message', () => {
    const error = new ConfigurationError({
      invalidAttribute: 'clientType',
      invalidValue: 'private',
      validValues: ['public', 'confidential_symmetric', 'confidential_asymmetric'],
    })
    expect(error.invalidAttribute).toBe('clientType')
    expect(error.invalidValue).toBe('private')
    expect(error.validValues).toEqual([
      'public',
      'confidential_symmetric',
      'confidential_asymmetric',
    ])
    expect(error.message).toBe(
      'invalid clientType: "private"; valid values: public, confidential_symmetric, confidential_asymmetric',
    )
    expect(new ConfigurationError({ invalidAttribute: 'clientId' }).message).toBe(
      'clientId is required',
    )
  })

  it('keeps a cause when one is given', () => {
    const cause = new HttpError({ message: 'timed out', reason: 'timeout', url: 'https://e/token' })
    expect(new TokenError({ message: 'token request failed' }, { cause }).cause).toBe(cause)
  })

  it('OAuth errors expose status, error, errorDescription and errorUri', () => {
    const error = new RegistrationError({
      message: 'registration failed',
      status: 400,
      error: 'invalid_software_statement',
      errorDescription: 'bad signature',
      errorUri: 'https://docs.example/errors',
    })
    expect(error).toMatchObject({
      status: 400,
      error: 'invalid_software_statement',
      errorDescription: 'bad signature',
      errorUri: 'https://docs.example/errors',
    })
  })
})

describe('parseOAuthErrorBody', () => {
  it('reads RFC 6749 §5.2 members', () => {
    expect(
      parseOAuthErrorBody({
        error: 'invalid_grant',
        error_description: 'expired',
        error_uri: 'https://e/x',
      }),
    ).toEqual({ error: 'invalid_grant', errorDescription: 'expired', errorUri: 'https://e/x' })
  })

  it('ignores members that are not strings', () => {
    expect(
      parseOAuthErrorBody({ error: 'invalid_client', error_description: 5, error_uri: {} }),
    ).toEqual({
      error: 'invalid_client',
    })
  })

  it.each([
    null,
    undefined,
    'invalid_grant',
    [],
    [{ error: 'x' }],
    {},
    { error: 42 },
    { error: '' },
  ])('returns undefined for %j', (body) => {
    expect(parseOAuthErrorBody(body)).toBeUndefined()
  })

  it('cuts over-long values', () => {
    const parsed = parseOAuthErrorBody({
      error: 'x'.repeat(10_000),
      error_description: 'y'.repeat(10_000),
    })
    expect(parsed?.error?.length).toBeLessThan(600)
    expect(parsed?.errorDescription?.length).toBeLessThan(600)
  })
})

describe('redaction before truncation (DESIGN §12)', () => {
  const code = 'SplxlOBeZQQYbYS6WxSbIA-a-code-of-43-characters'
  const assertion = `eyJhbGciOiJSUzM4NCJ9.${'e'.repeat(420)}.${'s'.repeat(342)}`
  const response = (body: unknown): HttpResponse => ({
    url: 'https://ehr.example.org/token',
    status: 400,
    headers: new Headers({ 'content-type': 'application/json' }),
    bodyText: JSON.stringify(body),
  })

  it.each([
    ['a code straddling the 512-character cut', 'x'.repeat(500), code],
    ['a code ending just past the cut', 'x'.repeat(470), code],
    ['an echoed client_assertion longer than 512 characters', 'assertion: ', assertion],
  ])('leaves no prefix of %s in any field or the message', (_, before, secret) => {
    const error = oauthErrorFromResponse(
      TokenError,
      'token request',
      response({
        error: 'invalid_grant',
        error_description: `${before}${secret} was refused`,
        error_uri: `https://ehr.example.org/errors?${before}${secret}`,
      }),
      [secret],
    )
    const shown = JSON.stringify([error.message, error.errorDescription, error.errorUri])
    // Any 8 leading characters of the secret would be a leaked fragment.
    expect(shown).not.toContain(secret.slice(0, 8))
    expect(error.errorDescription).toContain('[REDACTED]')
    expect(error.errorDescription?.length).toBeLessThanOrEqual(513)
  })

  it('parseOAuthErrorBody applies the given redaction before it cuts', () => {
    const parsed = parseOAuthErrorBody(
      { error: 'invalid_grant', error_description: `${'x'.repeat(500)}${code}` },
      (text) => text.split(code).join('[REDACTED]'),
    )
    expect(parsed?.errorDescription).toBe(`${'x'.repeat(500)}[REDACTED]`)
  })
})
