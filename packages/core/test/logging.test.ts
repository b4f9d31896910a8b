import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  basicAuthEncodings,
  basicAuthorization,
  consoleLogger,
  defaultLogger,
  encodeForm,
  epochSeconds,
  formEncodingChanges,
  formUrlEncode,
  isSensitiveName,
  looksLikeJwt,
  redactFields,
  redactSecrets,
  redactUrl,
  silentLogger,
} from '../src/index.js'

describe('loggers', () => {
  afterEach(() => vi.restoreAllMocks())

  it('the default logger shows warnings and errors and drops info and debug', () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {})
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {})
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    defaultLogger.info('started')
    defaultLogger.debug?.('details')
    defaultLogger.warn('careful', { event: 'x' })
    defaultLogger.error('failed')
    expect(info).not.toHaveBeenCalled()
    expect(debug).not.toHaveBeenCalled()
    expect(warn).toHaveBeenCalledWith('[fhir-auth] careful', { event: 'x' })
    expect(error).toHaveBeenCalledWith('[fhir-auth] failed')
  })

  it('consoleLogger("info") shows info; silentLogger shows nothing', () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {})
    const errorSpy = vi.spyOn(console, 'error').mockImplementation(() => {})
    consoleLogger('info').info('hello')
    silentLogger.error('nothing')
    expect(info).toHaveBeenCalledWith('[fhir-auth] hello')
    expect(errorSpy).not.toHaveBeenCalled()
  })
})

describe('redaction', () => {
  it('recognises sensitive names case-insensitively', () => {
    for (const name of [
      'access_token',
      'Refresh_Token',
      'client_secret',
      'code_verifier',
      'client_assertion',
      'password',
      'CODE',
    ]) {
      expect(isSensitiveName(name)).toBe(true)
    }
    expect(isSensitiveName('scope')).toBe(false)
    expect(isSensitiveName('token_type')).toBe(false)
  })

  it('redacts URLs: user info, every query value and the fragment', () => {
    expect(
      redactUrl('https://user:pw@app.example/cb?code=abc&state=xyz&iss=https%3A%2F%2Fe#frag'),
    ).toBe('https://app.example/cb?code=[REDACTED]&state=[REDACTED]&iss=[REDACTED]#[REDACTED]')
    expect(redactUrl('not a url')).toBe('[REDACTED]')
  })

  it('redacts sensitive fields and JWT-shaped strings deeply, without mutating the input', () => {
    const input = {
      access_token: 'at-1',
      scope: 'openid',
      nested: { refresh_token: 'rt-1', list: ['eyJhbGciOiJSUzM4NCJ9.eyJzdWIiOiJ4In0.c2ln'] },
      expires_in: 300,
      empty: null,
    }
    const output = redactFields(input) as typeof input
    expect(output).toEqual({
      access_token: '[REDACTED]',
      scope: 'openid',
      nested: { refresh_token: '[REDACTED]', list: ['[REDACTED]'] },
      expires_in: 300,
      empty: null,
    })
    expect(input.access_token).toBe('at-1')
  })

  it('cuts cyclic and very deep structures', () => {
    const cyclic: Record<string, unknown> = { a: 1 }
    cyclic.self = cyclic
    expect(() => JSON.stringify(redactFields(cyclic))).not.toThrow()
  })

  it('replaces known secrets inside text', () => {
    expect(redactSecrets('code abcdef rejected', ['abcdef', undefined])).toBe(
      'code [REDACTED] rejected',
    )
    expect(looksLikeJwt('a.b.c')).toBe(false)
    expect(looksLikeJwt('eyJh.eyJz.c2ln')).toBe(true)
    expect(looksLikeJwt('udap.discovery.started')).toBe(false)
    expect(redactFields({ event: 'smart.token.refresh' })).toEqual({ event: 'smart.token.refresh' })
  })
})

describe('form and Basic encoding', () => {
  it('encodes forms and skips undefined members', () => {
    expect(encodeForm({ a: 'x y', b: undefined, c: '/&=' })).toBe('a=x+y&c=%2F%26%3D')
  })

  it('form-urlencodes client id and secret before Basic encoding (RFC 6749 §2.3.1)', () => {
    expect(formUrlEncode('a b:c/é')).toBe('a+b%3Ac%2F%C3%A9')
    const header = basicAuthorization('client:1', 'se cret/é')
    expect(header.startsWith('Basic ')).toBe(true)
    expect(atob(header.slice(6))).toBe('client%3A1:se+cret%2F%C3%A9')
    expect(basicAuthorization('client:1', 'se cret/é', 'form-urlencoded')).toBe(header)
  })

  it("writes id and secret as they are with 'raw' (base64 of the UTF-8 of id:secret)", () => {
    const header = basicAuthorization('app', 'a~b+c/d=e:f%g é')
    const raw = basicAuthorization('app', 'a~b+c/d=e:f%g é', 'raw')
    expect(raw).not.toBe(header)
    const bytes = Uint8Array.from(atob(raw.slice(6)), (character) => character.charCodeAt(0))
    expect(new TextDecoder().decode(bytes)).toBe('app:a~b+c/d=e:f%g é')
    expect(basicAuthorization('app', 'plain-Secret_1.x*', 'raw')).toBe(
      basicAuthorization('app', 'plain-Secret_1.x*'),
    )
    expect(basicAuthEncodings).toEqual(['form-urlencoded', 'raw'])
  })

  it.each([
    ['plain-Secret_1.x*', false],
    ['a~b', true],
    ['a+b', true],
    ['a/b', true],
    ['a=b', true],
    ['a:b', true],
    ['a%b', true],
    ['é', true],
  ])('formEncodingChanges(%j) is %s', (value, changes) => {
    expect(formEncodingChanges(value)).toBe(changes)
  })
})

describe('clock', () => {
  it('converts dates to whole epoch seconds', () => {
    expect(epochSeconds(new Date('2030-01-01T00:00:00.999Z'))).toBe(1893456000)
  })
})
