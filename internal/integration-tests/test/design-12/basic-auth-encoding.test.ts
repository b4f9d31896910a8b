/**
 * DESIGN §12: `ClientOptions.basicAuthEncoding: 'form-urlencoded' | 'raw'` (default
 * 'form-urlencoded', RFC 6749 §2.3.1). 'raw' sends base64(clientId:clientSecret). When a
 * symmetric client's token request fails with invalid_client and the id or secret contains
 * characters that form encoding changes, the TokenError message says so and names the option.
 * Applies to every symmetric token request: requestAccessToken, refreshToken,
 * completeAuthorization, session refresh.
 */
import { type Client, type ClientOptions, memoryStore, TokenError } from '@fhir-auth/client'
import type { CapturedRequest } from '@fhir-auth/test-utils/fake-fetch'
import { describe, expect, it } from 'vitest'
import {
  json,
  redirectUri,
  rejectionOf,
  smartClient,
  smartServer,
  tokenBody,
  tokenUrl,
} from './support/index.js'

const specialId = 'my client:1/ä'
const specialSecret = 's3cr3t+/=:% &ok'
const plainId = 'client-1'
const plainSecret = 'abcdefghijklmnop0123'

/** application/x-www-form-urlencoded of one value (URLSearchParams: space → '+'). */
const formEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2)
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`

const operations: ReadonlyArray<[string, (client: Client) => Promise<unknown>]> = [
  [
    'requestAccessToken',
    (c) => c.requestAccessToken({ code: 'code-123456789', codeVerifier: 'v'.repeat(43) }),
  ],
  ['refreshToken', (c) => c.refreshToken({ refreshToken: 'refresh-123456789' })],
  [
    'completeAuthorization',
    async (c) => {
      const store = memoryStore()
      const { state } = await c.beginAuthorization({ store })
      return c.completeAuthorization(`${redirectUri}?code=code-123456789&state=${state}`, { store })
    },
  ],
  ['session.refresh', (c) => c.resumeSession(tokenBody({ expires_in: 0 })).refresh()],
]

function symmetric(
  id: string,
  secret: string,
  options: ClientOptions,
  answer = () => json(tokenBody()),
) {
  const server = smartServer({ [tokenUrl]: answer })
  const client = smartClient(
    server.fetch,
    { clientId: id, clientSecret: secret },
    { clientType: 'confidential_symmetric', ...options },
  )
  return { server, client }
}

const tokenRequests = (requests: readonly CapturedRequest[]) =>
  requests.filter((request) => request.url === tokenUrl)

describe('DESIGN §12: basicAuthEncoding', () => {
  for (const [name, run] of operations) {
    it(`${name}: default is form-urlencoded (RFC 6749 §2.3.1)`, async () => {
      const { server, client } = symmetric(specialId, specialSecret, {})
      await run(client)
      const [request] = tokenRequests(server.requests)
      expect(request?.headers.get('authorization')).toBe(
        basic(formEncode(specialId), formEncode(specialSecret)),
      )
    })

    it(`${name}: 'form-urlencoded' explicitly`, async () => {
      const { server, client } = symmetric(specialId, specialSecret, {
        basicAuthEncoding: 'form-urlencoded',
      })
      await run(client)
      const [request] = tokenRequests(server.requests)
      expect(request?.headers.get('authorization')).toBe(
        basic(formEncode(specialId), formEncode(specialSecret)),
      )
    })

    it(`${name}: 'raw' sends base64(clientId:clientSecret)`, async () => {
      // A ':' in the id cannot be carried raw (RFC 7617 §2): the library refuses it, see below.
      const rawId = 'my client/ä+1'
      const { server, client } = symmetric(rawId, specialSecret, { basicAuthEncoding: 'raw' })
      await run(client)
      const [request] = tokenRequests(server.requests)
      expect(request?.headers.get('authorization')).toBe(basic(rawId, specialSecret))
    })

    it(`${name}: invalid_client with special characters → TokenError naming basicAuthEncoding`, async () => {
      const { client } = symmetric(specialId, specialSecret, {}, () =>
        json({ error: 'invalid_client' }, 401),
      )
      const error = await rejectionOf(run(client))
      expect(error).toBeInstanceOf(TokenError)
      expect((error as TokenError).error).toBe('invalid_client')
      expect((error as TokenError).message).toContain('basicAuthEncoding')
      expect((error as TokenError).message).not.toContain(specialSecret)
    })

    it(`${name}: invalid_client with special characters only in the secret → TokenError naming basicAuthEncoding`, async () => {
      const { client } = symmetric(plainId, 'abc def+ghi/jkl', {}, () =>
        json({ error: 'invalid_client' }, 400),
      )
      const error = await rejectionOf(run(client))
      expect((error as TokenError).message).toContain('basicAuthEncoding')
    })

    it(`${name}: invalid_client with nothing form encoding changes → no hint`, async () => {
      const { client } = symmetric(plainId, plainSecret, {}, () =>
        json({ error: 'invalid_client' }, 401),
      )
      const error = await rejectionOf(run(client))
      expect(error).toBeInstanceOf(TokenError)
      expect((error as TokenError).message).not.toContain('basicAuthEncoding')
    })

    it(`${name}: another error (invalid_grant) with special characters → no hint`, async () => {
      const { client } = symmetric(specialId, specialSecret, {}, () =>
        json({ error: 'invalid_grant' }, 400),
      )
      const error = await rejectionOf(run(client))
      expect((error as TokenError).message).not.toContain('basicAuthEncoding')
    })
  }

  it("recorded: 'raw' with a ':' in clientId is a ConfigurationError naming clientId, nothing sent", async () => {
    const { server, client } = symmetric(specialId, specialSecret, { basicAuthEncoding: 'raw' })
    const error = await rejectionOf(client.refreshToken({ refreshToken: 'refresh-123456789' }))
    expect((error as { invalidAttribute?: string }).invalidAttribute).toBe('clientId')
    expect(tokenRequests(server.requests)).toEqual([])
  })

  it('the secret of the hint message does not leak (secret with special characters)', async () => {
    const secret = 'Zq8+Wm/Xv3=Lp9 Kt7%Rb'
    const { client } = symmetric(specialId, secret, {}, () =>
      json({ error: 'invalid_client' }, 401),
    )
    const error = (await rejectionOf(
      client.refreshToken({ refreshToken: 'refresh-123456789' }),
    )) as Error
    for (const form of [secret, formEncode(secret), encodeURIComponent(secret)])
      expect(JSON.stringify({ m: error.message, j: error })).not.toContain(form.slice(0, 8))
  })
})
