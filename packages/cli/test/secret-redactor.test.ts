import { describe, expect, it } from 'vitest'
import { SecretRedactor } from '../src/output/secret-redactor.js'

describe('SecretRedactor', () => {
  it('replaces every registered secret, the longest first', () => {
    const redactor = new SecretRedactor()
    redactor.add('abcd1234')
    redactor.add('Bearer abcd1234')
    expect(redactor.redact('header Bearer abcd1234, token abcd1234.')).toBe(
      'header [REDACTED], token [REDACTED].',
    )
  })

  it('ignores values too short to be told from ordinary text, and undefined', () => {
    const redactor = new SecretRedactor()
    redactor.add('abc')
    redactor.add(undefined)
    expect(redactor.redact('abc def')).toBe('abc def')
  })

  it('replaces compact JWTs and PEM private keys even when nobody registered them', () => {
    const redactor = new SecretRedactor()
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'
    const pem = '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEI\n-----END EC PRIVATE KEY-----'
    expect(redactor.redact(`assertion ${jwt} key ${pem} end`)).toBe(
      'assertion [REDACTED] key [REDACTED] end',
    )
    expect(redactor.redact('event udap.discovery.started')).toBe('event udap.discovery.started')
  })

  it('registers each long line of a PEM key body', () => {
    const redactor = new SecretRedactor()
    redactor.addPrivateKeyPem(
      '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49\nAwEHBG0wawIBAQQg\nshort\n-----END PRIVATE KEY-----\n',
    )
    expect(redactor.redact('x MIGHAgEAMBMGByqGSM49AgEGCCqGSM49 y AwEHBG0wawIBAQQg z short')).toBe(
      'x [REDACTED] y [REDACTED] z short',
    )
  })
})
