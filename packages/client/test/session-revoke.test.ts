/**
 * `session.revoke()` against fakes (RFC 7009): what is sent and in which order, `false` with
 * nothing sent when no revocation endpoint is advertised, a refusal as a `TokenError` that
 * quotes no token even when the server echoes it, and a session refused after it either way.
 * The real server (oidc-provider) is in internal/integration-tests (test/smart/revocation.test.ts).
 */
import { Client, TokenError } from '@fhir-auth/client'
import { describe, expect, it } from 'vitest'
import { baseUrl, json, rejection, smartConfiguration } from './support.js'

const revocationEndpoint = 'https://ehr.example.org/auth/revoke'

/** A public client whose server answers discovery (with `document`) and revocation (`answer`). */
function clientWith(
  document: Record<string, unknown>,
  answer: (form: URLSearchParams) => Response,
) {
  const sent: URLSearchParams[] = []
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input)
    if (url.endsWith('/.well-known/smart-configuration')) return json(document)
    if (url === revocationEndpoint) {
      const form = new URLSearchParams(String(init?.body))
      sent.push(form)
      return answer(form)
    }
    return json({ error: 'not_found' }, 404)
  }
  const client = new Client({ baseUrl, clientId: 'app', scopes: ['patient/*.rs'] }, { fetch })
  const session = client.resumeSession({
    access_token: 'at-secret-1',
    refresh_token: 'rt-secret-1',
    token_type: 'Bearer',
    expires_in: 300,
  })
  return { session, sent }
}

const advertised = { ...smartConfiguration, revocation_endpoint: revocationEndpoint }

describe('session.revoke()', () => {
  it('posts the refresh token, then the access token, with client_id; then refuses the session', async () => {
    const { session, sent } = clientWith(advertised, () => new Response(null, { status: 200 }))
    expect(await session.revoke()).toBe(true)
    expect(sent.map((form) => Object.fromEntries(form))).toEqual([
      { token: 'rt-secret-1', token_type_hint: 'refresh_token', client_id: 'app' },
      { token: 'at-secret-1', token_type_hint: 'access_token', client_id: 'app' },
    ])
    for (const use of [session.accessToken(), session.refresh(), session.fetch('Patient/1')]) {
      expect(await rejection(use)).toBeInstanceOf(TokenError)
    }
    expect(sent).toHaveLength(2)
  })

  it('resolves false and sends nothing when the server advertises no revocation_endpoint', async () => {
    const { session, sent } = clientWith(smartConfiguration, () => json({}))
    expect(await session.revoke()).toBe(false)
    expect(sent).toEqual([])
    expect(await rejection(session.accessToken())).toBeInstanceOf(TokenError)
  })

  it('a refusal is a TokenError with the OAuth code that quotes no token, even one the server echoes', async () => {
    const { session } = clientWith(advertised, (form) =>
      json({ error: 'unsupported_token_type', error_description: `no ${form.get('token')}` }, 400),
    )
    const error = await rejection(session.revoke())
    expect(error).toBeInstanceOf(TokenError)
    expect((error as TokenError).error).toBe('unsupported_token_type')
    const shown = `${error.message} ${JSON.stringify(error)} ${String(error.cause)}`
    expect(shown).not.toContain('rt-secret-1')
    expect(shown).not.toContain('at-secret-1')
  })

  it('refuses a revocation endpoint that is not HTTPS, sending nothing', async () => {
    const plain = clientWith(
      { ...smartConfiguration, revocation_endpoint: 'http://ehr.example.org/revoke' },
      () => json({}),
    )
    expect((await rejection(plain.session.revoke())).name).toBe('DiscoveryError')
    expect(plain.sent).toEqual([])
  })
})
