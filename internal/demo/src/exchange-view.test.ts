import { describe, expect, it } from 'vitest'
import { fingerprint } from './display-values.js'
import type { RecordedExchange } from './exchange-recorder.js'
import { showExchange } from './exchange-view.js'
import { captureTranscript } from './transcript-capture.js'

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
const header = { alg: 'ES384', typ: 'JWT', kid: 'key-1' }
const claims = { iss: 'app', sub: 'app', aud: 'https://as.example/token', iat: 1000, exp: 1300 }
const signature = 'c2lnbmF0dXJlLWJ5dGVzLXRoYXQtbXVzdC1uZXZlci1zaG93'
const assertion = `${encode(header)}.${encode(claims)}.${signature}`
const secret = 'super secret value'

function exchange(overrides: Partial<RecordedExchange>): RecordedExchange {
  return {
    method: 'POST',
    url: 'https://as.example/token',
    requestHeaders: { 'content-type': 'application/x-www-form-urlencoded' },
    requestBody: undefined,
    status: 200,
    responseHeaders: new Headers({ 'content-type': 'application/json' }),
    responseBody: '{}',
    failure: undefined,
    ...overrides,
  }
}

describe('showExchange', () => {
  it('summarises secret parameters and decodes assertions without their signature', () => {
    const { transcript, text } = captureTranscript()
    const code = 'authorization-code-value'
    showExchange(
      transcript,
      exchange({
        requestBody: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          client_assertion: assertion,
        }).toString(),
      }),
    )
    const output = text()
    expect(output).toContain('→ POST https://as.example/token  form')
    expect(output).toContain('grant_type        authorization_code')
    expect(output).toContain(
      `code              [REDACTED] ${code.length} chars #${fingerprint(code)}`,
    )
    expect(output).toContain('header  {"alg":"ES384","typ":"JWT","kid":"key-1"}')
    expect(output).toContain('exp     1970-01-01T00:21:40Z (iat + 300 s)')
    for (const hidden of [code, assertion, signature, encode(claims)]) {
      expect(output).not.toContain(hidden)
    }
  })

  it('shows the client_id of HTTP Basic credentials, never the secret', () => {
    const { transcript, text } = captureTranscript()
    const credentials = Buffer.from(`my%20app:${encodeURIComponent(secret)}`).toString('base64')
    showExchange(
      transcript,
      exchange({ requestHeaders: { authorization: `Basic ${credentials}` }, requestBody: '' }),
    )
    expect(text()).toContain('client_id      my app')
    expect(text()).toContain(`client_secret  [REDACTED] ${encodeURIComponent(secret).length} chars`)
    expect(text()).not.toContain(credentials)
    expect(text()).not.toContain(encodeURIComponent(secret))
  })

  it('limits a success to the chosen fields but shows an error response whole', () => {
    const success = captureTranscript()
    showExchange(
      success.transcript,
      exchange({
        responseBody: JSON.stringify({ access_token: 'x'.repeat(43), scope: 'a', extra: 1 }),
      }),
      { responseFields: ['scope'] },
    )
    expect(success.text()).toContain('scope  a')
    expect(success.text()).toContain('…      2 more: access_token, extra')

    const failure = captureTranscript()
    showExchange(
      failure.transcript,
      exchange({ status: 400, responseBody: '{"error":"invalid_grant","error_description":"no"}' }),
      { responseFields: ['scope'] },
    )
    expect(failure.text()).toContain('← 400')
    expect(failure.text()).toContain('error              invalid_grant')
  })

  it('shows a repeated request as one line', () => {
    const { transcript, text } = captureTranscript()
    showExchange(
      transcript,
      exchange({ method: 'GET', url: 'https://fhir.example/.well-known/smart-configuration?x=1' }),
      { repeated: true },
    )
    expect(text()).toBe(
      '  → GET https://fhir.example/.well-known/smart-configuration  same request as above → 200\n',
    )
  })
})
