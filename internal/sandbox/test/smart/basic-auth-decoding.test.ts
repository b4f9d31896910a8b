/**
 * `basicAuthDecoding`: the token endpoint reads Basic credentials as RFC 6749 §2.3.1 says
 * (default, oidc-provider's own reading) or as they are (`'raw'`); non-ASCII secrets, which
 * oidc-provider cannot store, work in both. Client authentication is probed with a refresh
 * grant for a token nobody issued: `invalid_client` means the credentials were refused,
 * `invalid_grant` that they were accepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SmartSandbox, startSmartSandbox } from '../../src/index.js'
import { postForm } from './support/http.js'

const secret = 'a~b+c/d=e:f%25g é🔑'
const clients = [
  {
    client_id: 'raw-client',
    token_endpoint_auth_method: 'client_secret_basic' as const,
    client_secret: secret,
  },
]

let rfc: SmartSandbox
let raw: SmartSandbox

beforeAll(async () => {
  ;[rfc, raw] = await Promise.all([
    startSmartSandbox({ clients }),
    startSmartSandbox({ clients, basicAuthDecoding: 'raw' }),
  ])
})
afterAll(async () => {
  await Promise.all([rfc?.close(), raw?.close()])
})

const formEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2)

/** The OAuth error of a refresh with the given `id:secret` text inside Basic. */
async function probe(sandbox: SmartSandbox, credentials: string): Promise<unknown> {
  const reply = await postForm(
    sandbox.endpoints.token,
    { grant_type: 'refresh_token', refresh_token: 'never-issued' },
    { authorization: `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}` },
  )
  return reply.body.error
}

const formEncoded = `raw-client:${formEncode(secret)}`
const asItIs = `raw-client:${secret}`

describe('basicAuthDecoding', () => {
  it('form-urlencoded (default): accepts form-encoded credentials, refuses them as they are', async () => {
    expect(await probe(rfc, formEncoded)).toBe('invalid_grant')
    // Read the RFC way, this secret comes out different ("+" is a space) and not VSCHAR, which
    // oidc-provider answers with invalid_request rather than invalid_client.
    expect(await probe(rfc, asItIs)).toMatch(/^invalid_(client|request)$/)
  })

  it("'raw': accepts credentials as they are, refuses them form-encoded", async () => {
    expect(await probe(raw, asItIs)).toBe('invalid_grant')
    expect(await probe(raw, formEncoded)).toBe('invalid_client')
  })

  it('refuses a wrong secret either way', async () => {
    expect(await probe(rfc, 'raw-client:wrong')).toBe('invalid_client')
    expect(await probe(raw, 'raw-client:wrong')).toBe('invalid_client')
  })

  it('refuses an unknown value', async () => {
    await expect(startSmartSandbox({ basicAuthDecoding: 'base64' as 'raw' })).rejects.toThrow(
      /basicAuthDecoding/,
    )
  })
})
