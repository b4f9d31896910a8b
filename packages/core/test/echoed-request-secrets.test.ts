/**
 * DESIGN §6 / §12: a server that echoes what it received must not put a request secret in an
 * error — in whatever form it quotes it (form-encoded, percent-encoded, JSON-escaped with `\/`,
 * one part of a compact JWS), and wherever it quotes it (error members, the names of a 2xx body's
 * members, the Content-Type header). The end-to-end cases are in
 * internal/integration-tests/test/udap/echoing-server.
 */
import { describe, expect, it } from 'vitest'
import { type HttpResponse, RegistrationError, TokenError } from '../src/index.js'
import { readTokenResponse, redactRequestSecrets } from '../src/internal.js'
import { readRegistrationResponse } from '../src/internal-on-demand.js'

/** A server-issued code with the characters the encodings change (`/`, `+`, `=`). */
const code = 'Qm9/dXJn+ZW5jb2Rl/ZC1jb2Rl=='
/** A compact JWS shaped like a client assertion (the signature is the credential). */
const assertion = [
  'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9',
  'eyJpc3MiOiJjbGllbnQtMSIsImp0aSI6InJhbmRvbS1qdGktMSJ9',
  'b1Gn4tUr3-0f_th3-4ss3rt10n-s1gn4tur3-v4lu3-xyz',
].join('.')

function answer(status: number, body: string, contentType = 'application/json'): HttpResponse {
  return {
    url: 'https://as.example.test/token',
    status,
    headers: new Headers({ 'content-type': contentType }),
    bodyText: body,
  }
}

function failure(read: () => unknown): Error {
  try {
    read()
  } catch (error) {
    return error as Error
  }
  return expect.fail('expected the read to fail')
}

/** message, the cause's message, and the error as JSON: what a caller or a logger prints. */
function printed(error: Error): string {
  const cause = error.cause instanceof Error ? `${error.cause.message} ${error.cause.stack}` : ''
  return `${error.message} ${cause} ${JSON.stringify(error)}`
}

describe('redactRequestSecrets: every form a server quotes a secret in', () => {
  it.each([
    ['as written', code],
    ['form-encoded', new URLSearchParams({ v: code }).toString().slice(2)],
    ['percent-encoded', encodeURIComponent(code)],
    ['JSON-escaped', JSON.stringify(code).slice(1, -1)],
    ['JSON-escaped with \\/ (PHP json_encode)', code.replaceAll('/', '\\/')],
  ])('%s', (_form, echoed) => {
    expect(redactRequestSecrets(`got ${echoed} twice: ${echoed}.`, [code])).toBe(
      'got [REDACTED] twice: [REDACTED].',
    )
  })

  it('each part of a compact JWS alone, and the whole JWS as one', () => {
    const [header, payload, signature] = assertion.split('.')
    expect(redactRequestSecrets(`sig ${signature} / claims ${payload}`, [assertion])).toBe(
      'sig [REDACTED] / claims [REDACTED]',
    )
    expect(redactRequestSecrets(`jwt ${assertion} hdr ${header}`, [assertion])).toBe(
      'jwt [REDACTED] hdr [REDACTED]',
    )
  })

  it('percent-encoded with lower-case hex (.NET), form-encoded or not', () => {
    const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())
    for (const echoed of [
      lowerHex(encodeURIComponent(code)),
      lowerHex(new URLSearchParams({ v: `${code} x` }).toString().slice(2)),
    ]) {
      expect(echoed).toMatch(/%2f/)
      expect(redactRequestSecrets(`got ${echoed}`, [code, `${code} x`])).toBe('got [REDACTED]')
    }
  })

  it('a secret inside another, whichever is given first: no piece of the longer one stays', () => {
    expect(redactRequestSecrets('got XYZabcd1234XYZ', ['abcd1234', 'XYZabcd1234XYZ'])).toBe(
      'got [REDACTED]',
    )
    expect(redactRequestSecrets('got XYZabcd1234XYZ', ['XYZabcd1234XYZ', 'abcd1234'])).toBe(
      'got [REDACTED]',
    )
  })

  it('a secret with a lone surrogate (a hostile server issued it) is redacted, never a URIError', () => {
    const refreshToken = 'rt-\ud800-lone-surrogate'
    expect(redactRequestSecrets(`bad ${refreshToken}`, [refreshToken])).toBe('bad [REDACTED]')
    const error = failure(() =>
      readTokenResponse(
        answer(400, JSON.stringify({ error: 'invalid_grant', error_description: refreshToken })),
        'SMART token',
        [refreshToken],
      ),
    )
    expect(error).toBeInstanceOf(TokenError)
    expect((error as TokenError).errorDescription).toBe('[REDACTED]')
  })

  it('a secret with quotes and backslashes, JSON-escaped', () => {
    const secret = 'se"cr\\et-val/ue'
    expect(redactRequestSecrets(JSON.stringify({ secret }), [secret])).toBe(
      '{"secret":"[REDACTED]"}',
    )
  })
})

describe('token and registration responses that echo a request secret', () => {
  it('in error_description JSON-escaped with \\/ (the message keeps no part of the code)', () => {
    const description = JSON.stringify({ code }).replaceAll('/', '\\/')
    const error = failure(() =>
      readTokenResponse(
        answer(400, JSON.stringify({ error: 'invalid_grant', error_description: description })),
        'UDAP token',
        [code],
      ),
    )
    expect(error).toBeInstanceOf(TokenError)
    expect((error as TokenError).errorDescription).toBe('{"code":"[REDACTED]"}')
    expect(printed(error)).not.toContain('Qm9')
  })

  it("in error_description, the assertion's signature alone", () => {
    const signature = assertion.split('.')[2] as string
    const error = failure(() =>
      readTokenResponse(
        answer(
          401,
          JSON.stringify({ error: 'invalid_client', error_description: `bad sig ${signature}` }),
        ),
        'UDAP token',
        [assertion],
      ),
    )
    expect((error as TokenError).errorDescription).toBe('bad sig [REDACTED]')
    expect(printed(error)).not.toContain(signature.slice(0, 12))
  })

  it('as the name of a 2xx member (the name is redacted before it is cut to 40 characters)', () => {
    const refreshToken = 'rt-'.padEnd(60, 'R')
    const error = failure(() =>
      readTokenResponse(answer(200, JSON.stringify({ [refreshToken]: 1 })), 'UDAP token', [
        refreshToken,
      ]),
    )
    expect(error.message).toBe(
      'UDAP token response has no non-blank string access_token (received fields: [REDACTED])',
    )
    const registration = failure(() =>
      readRegistrationResponse(answer(201, JSON.stringify({ [`x${assertion}`]: true })), {
        label: 'UDAP registration',
        requestSecrets: [assertion],
      }),
    )
    expect(registration).toBeInstanceOf(RegistrationError)
    expect(registration.message).toContain('(received fields: x[REDACTED])')
  })

  it('in the Content-Type of a 2xx that is not JSON: parameters never quoted, the media type redacted', () => {
    const inParameter = failure(() =>
      readTokenResponse(answer(200, 'not json', `text/plain; echo=${code}`), 'UDAP token', [code]),
    )
    expect(inParameter.message).toBe(
      'UDAP token response: response from https://as.example.test/token (HTTP 200, text/plain) is not valid JSON',
    )
    const shaped = 'abcdefgh/ijklmnop'
    const asType = failure(() =>
      readTokenResponse(answer(200, 'not json', shaped), 'UDAP token', [shaped]),
    )
    expect(printed(asType)).not.toContain(shaped)
    expect(asType.message).toContain('(HTTP 200, [REDACTED])')
  })

  it('in the Content-Type across its ";": redacted before the parameters are cut, no fragment left', () => {
    const secret = 'sec;ret-123456'
    const error = failure(() =>
      readTokenResponse(answer(200, 'not json', `text/${secret}`), 'SMART token', [secret]),
    )
    expect(error.message).toBe(
      'SMART token response: response from https://as.example.test/token (HTTP 200, text/[REDACTED]) is not valid JSON',
    )
    expect(printed(error)).not.toMatch(/text\/sec/)
  })
})
