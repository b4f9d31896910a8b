import { ConfigurationError } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import { authorizationFormHtml, escapeHtml } from '../src/authorization/post-form.js'
import { readFirstLine } from '../src/authorization/read-line.js'
import { isAtRedirectUri, readRedirectUrl } from '../src/authorization/redirect-callback.js'

const callback = 'https://app.example/callback'

describe('readRedirectUrl', () => {
  it('gives the query parameters of the pasted URL', () => {
    const parameters = readRedirectUrl(`${callback}?code=abc&state=state-123&iss=https%3A%2F%2Fas`)
    expect(Object.fromEntries(parameters)).toEqual({
      code: 'abc',
      state: 'state-123',
      iss: 'https://as',
    })
  })

  it('reads a fragment response when the query has no state', () => {
    expect(Object.fromEntries(readRedirectUrl(`${callback}#code=frag&state=state-123`))).toEqual({
      code: 'frag',
      state: 'state-123',
    })
    expect(readRedirectUrl(`${callback}?state=q#code=frag&state=f`).get('state')).toBe('q')
  })

  it('refuses text that is not a URL with a ConfigurationError that does not echo it', () => {
    const attempt = () => readRedirectUrl('code=secret-code&state=state-123')
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
