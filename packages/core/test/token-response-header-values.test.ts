/**
 * A token that cannot travel in an HTTP header (`Authorization: Bearer <access_token>`) is a
 * `TokenError` when the token response is read — for every protocol, since SMART, UDAP and the
 * refresh grant all read their responses with `readTokenResponse` — and is never quoted.
 */
import { describe, expect, it } from 'vitest'
import { type HttpResponse, TokenError } from '../src/index.js'
import { readTokenResponse } from '../src/internal.js'

function answer(body: unknown): HttpResponse {
  return {
    url: 'https://as.example.org/token',
    status: 200,
    headers: new Headers({ 'content-type': 'application/json' }),
    bodyText: JSON.stringify(body),
  }
}

function failureOf(body: Record<string, unknown>, label = 'token'): TokenError {
  try {
    readTokenResponse(answer(body), label, [])
  } catch (error) {
    expect(error).toBeInstanceOf(TokenError)
    return error as TokenError
  }
  throw new Error('expected a TokenError')
}

const code = (point: number) => String.fromCodePoint(point)
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index)

/** Every C0 control, DEL, every C1 control, and a spread of code points beyond Latin-1. */
const unsafePoints = [
  ...range(0x00, 0x1f),
  0x7f,
  ...range(0x80, 0x9f),
  0x100,
  0x2028,
  0x20ac,
  0xd800,
  0xfeff,
  0xffff,
  0x1f600,
]

describe('readTokenResponse: tokens that cannot travel in a header', () => {
  it.each(unsafePoints.map((point) => [point.toString(16).padStart(4, '0'), point]))(
    'refuses an access_token with U+%s (in the middle, at the start and at the end), never quoting it',
    (_hex, point) => {
      const secret = 'at-secret-7f3a9c'
      for (const accessToken of [
        `${secret}${code(point)}tail`,
        `${code(point)}${secret}`,
        `${secret}${code(point)}`,
      ]) {
        for (const label of ['token', 'UDAP token']) {
          const error = failureOf({ access_token: accessToken, token_type: 'Bearer' }, label)
          expect(error.message).toContain('access_token')
          expect(error.message).toContain(`${label} response`)
          for (const shown of [error.message, JSON.stringify(error), String(error), error.stack]) {
            expect(shown).not.toContain(secret)
          }
          expect(error.cause).toBeUndefined()
        }
      }
    },
  )

  it('refuses header injection: CR LF in the token, or in token_type', () => {
    expect(failureOf({ access_token: 'at\r\nX-Injected: 1' }).message).toContain('access_token')
    const error = failureOf({ access_token: 'at-ok', token_type: 'Bearer\r\nX-Injected: 1' })
    expect(error.message).toContain('token_type')
    expect(error.message).not.toContain('X-Injected')
  })

  it('accepts what a header carries: printable ASCII, inner spaces and Latin-1 letters', () => {
    const printable = range(0x21, 0x7e).map(code).join('')
    for (const accessToken of [
      printable,
      'a b',
      `caf${code(0xe9)}`,
      range(0xa0, 0xff).map(code).join(''),
    ]) {
      const body = { access_token: accessToken, token_type: 'bearer' }
      expect(readTokenResponse(answer(body), 'token', [])).toEqual(body)
    }
  })

  it('leaves a token_type of another JSON type to the token set (it is not sent)', () => {
    const body = { access_token: 'at', token_type: 7 }
    expect(readTokenResponse(answer(body), 'token', [])).toEqual(body)
  })
})
