import { ConfigurationError, TokenError } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import { authorizationFormHtml, escapeHtml } from '../src/authorization/post-form.js'
import { readFirstLine } from '../src/authorization/read-line.js'
import { isAtRedirectUri, readAuthorizationCode } from '../src/authorization/redirect-callback.js'

const expected = { state: 'state-123', issuer: 'https://as.example.test' }
const callback = 'https://app.example/callback'

describe('readAuthorizationCode', () => {
  it('returns the code when state (and iss) match', () => {
    expect(
      readAuthorizationCode(
        `${callback}?code=abc&state=state-123&iss=https%3A%2F%2Fas.example.test`,
        expected,
      ),
    ).toBe('abc')
  })

  it('reads a fragment response too', () => {
    expect(readAuthorizationCode(`${callback}#code=frag&state=state-123`, expected)).toBe('frag')
  })

  it.each([
    ['a missing state', `${callback}?code=abc`, /has no state parameter/],
    ['another state', `${callback}?code=abc&state=other`, /state does not match/],
    [
      'another issuer',
      `${callback}?code=abc&state=state-123&iss=https%3A%2F%2Fevil.example`,
      /RFC 9207/,
    ],
    ['no code', `${callback}?state=state-123`, /has no authorization code/],
  ])('refuses %s with a TokenError that never shows the code', (_, url, message) => {
    const attempt = () => readAuthorizationCode(url, expected)
    expect(attempt).toThrow(TokenError)
    expect(attempt).toThrow(message)
    try {
      attempt()
    } catch (error) {
      expect((error as Error).message).not.toContain('code=abc')
    }
  })

  it('checks state before reporting the server’s error', () => {
    expect(() =>
      readAuthorizationCode(`${callback}?error=access_denied&state=other`, expected),
    ).toThrow(/state does not match/)
    const attempt = () =>
      readAuthorizationCode(
        `${callback}?error=access_denied&error_description=User+said+no&state=state-123`,
        expected,
      )
    expect(attempt).toThrow(
      'the authorization server refused the request: access_denied (User said no)',
    )
    try {
      attempt()
    } catch (error) {
      expect(error).toMatchObject({ error: 'access_denied', errorDescription: 'User said no' })
    }
  })

  it('cuts a code the server quotes in a long error_description out before the text is clipped', () => {
    const code = 'c0de-value-the-server-quotes-back'
    const description = `${'x'.repeat(500)}${code}`
    let thrown: unknown
    try {
      readAuthorizationCode(
        `${callback}?state=state-123&error=invalid_request&code=${code}&error_description=${description}`,
        expected,
      )
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(TokenError)
    const shown = JSON.stringify([(thrown as TokenError).message, thrown])
    expect(shown).not.toContain(code.slice(0, 8))
    expect((thrown as TokenError).errorDescription).toBe(`${'x'.repeat(500)}[REDACTED]`)
  })

  it('refuses text that is not a URL with a ConfigurationError that does not echo it', () => {
    const attempt = () => readAuthorizationCode('code=secret-code&state=state-123', expected)
    expect(attempt).toThrow(ConfigurationError)
    expect(attempt).not.toThrow(/secret-code/)
  })
})

describe('isAtRedirectUri', () => {
  it('compares origin and path only', () => {
    expect(isAtRedirectUri(`${callback}?code=1`, callback)).toBe(true)
    expect(isAtRedirectUri('https://app.example/other?code=1', callback)).toBe(false)
    expect(isAtRedirectUri('not a url', callback)).toBe(false)
  })
})

describe('authorizationFormHtml', () => {
  it('escapes the endpoint, names and values', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    )
    const html = authorizationFormHtml('https://as.example/auth?a=1&b=2', { scope: 'a "b" <c>' })
    expect(html).toContain('action="https://as.example/auth?a=1&amp;b=2"')
    expect(html).toContain('name="scope" value="a &quot;b&quot; &lt;c&gt;"')
  })
})

describe('readFirstLine', () => {
  async function* chunks(...parts: (string | Uint8Array)[]) {
    yield* parts
  }

  it('skips blank lines, joins chunks and trims', async () => {
    expect(await readFirstLine(chunks('\n  \nhttps://app', '.example/cb?x=1  \nnext\n'))).toBe(
      'https://app.example/cb?x=1',
    )
  })

  it('decodes bytes split inside a multi-byte character, and takes a last line without newline', async () => {
    const bytes = new TextEncoder().encode('https://app.example/é')
    expect(await readFirstLine(chunks(bytes.slice(0, -1), bytes.slice(-1)))).toBe(
      'https://app.example/é',
    )
  })

  it('returns undefined for input without a non-blank line', async () => {
    expect(await readFirstLine(chunks('\n', '   '))).toBeUndefined()
  })
})
