/**
 * HTTP Basic client authentication with secrets that form encoding changes (DESIGN §12),
 * against two real SMART sandboxes (oidc-provider): one reading Basic credentials the RFC 6749
 * §2.3.1 way (id and secret form-urlencoded, oidc-provider's own reading), one reading them as
 * they are (`base64(id:secret)`, as the SMART IG example and some SMART servers do). Each secret
 * holds one of `~ + / = : %` or non-ASCII. The matching `basicAuthEncoding` gets a token; the
 * other one gets `invalid_client` with a message that names the option and never the secret.
 */
import { randomBytes } from 'node:crypto'
import {
  type BasicAuthEncoding,
  Client,
  ConfigurationError,
  silentLogger,
  TokenError,
} from '@fhir-auth/client'
import {
  type SandboxClient,
  type SmartSandbox,
  sandboxDefaultRedirectUri,
  startSmartSandbox,
} from '@fhir-auth/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authorizeWithClient, codeExchange, lastRequestTo, rejectionOf } from './support/flows.js'

/** The character each secret is built around; the id of its client says which. */
const specials = [
  ['tilde', '~'],
  ['plus', '+'],
  ['slash', '/'],
  ['equals', '='],
  ['colon', ':'],
  // A '%' that starts no valid escape: followed by random text, it did in (22/64)² of runs.
  ['percent', '%-'],
  ['non-ASCII', 'é🔑'],
  ['all of them', '~+/=:%é🔑 '],
] as const

/** A fresh secret with the special text in the middle: random on both sides, as real ones are. */
function secretAround(special: string): string {
  return `${randomBytes(9).toString('base64url')}${special}${randomBytes(9).toString('base64url')}`
}

const secrets = new Map<string, string>(
  specials.map(([name, special]) => [name, secretAround(special)]),
)
const clientIdOf = (name: string) => `basic-${name.replace(/\W+/g, '-')}`
const clients: SandboxClient[] = specials.map(([name]) => ({
  client_id: clientIdOf(name),
  token_endpoint_auth_method: 'client_secret_basic',
  client_secret: secrets.get(name) ?? '',
}))

let rfcServer: SmartSandbox
let rawServer: SmartSandbox

beforeAll(async () => {
  ;[rfcServer, rawServer] = await Promise.all([
    startSmartSandbox({ clients }),
    startSmartSandbox({ clients, basicAuthDecoding: 'raw' }),
  ])
})

afterAll(async () => {
  await Promise.all([rfcServer?.close(), rawServer?.close()])
})

function symmetricClient(
  sandbox: SmartSandbox,
  name: string,
  basicAuthEncoding?: BasicAuthEncoding,
): Client {
  return new Client(
    {
      baseUrl: sandbox.fhirBaseUrl,
      allowInsecureLocalhost: true,
      clientId: clientIdOf(name),
      clientSecret: secrets.get(name),
      redirectUri: sandboxDefaultRedirectUri,
      scopes: ['launch/patient', 'patient/*.rs'],
    },
    {
      clientType: 'confidential_symmetric',
      logger: silentLogger,
      ...(basicAuthEncoding === undefined ? {} : { basicAuthEncoding }),
    },
  )
}

/** Authorizes and redeems the code; the token response, or what the redemption threw. */
async function redeem(client: Client, sandbox: SmartSandbox): Promise<unknown> {
  const authorization = await authorizeWithClient(client, sandbox)
  try {
    return await client.requestAccessToken(codeExchange(authorization))
  } catch (error) {
    return error
  }
}

describe.each(specials.map(([name]) => name))('a client secret with %s', (name) => {
  it('form-urlencoded (the default) gets a token from the RFC 6749 server', async () => {
    const tokens = await redeem(symmetricClient(rfcServer, name), rfcServer)
    expect(tokens).toMatchObject({ access_token: expect.any(String), token_type: 'Bearer' })
    const header = String(lastRequestTo(rfcServer, rfcServer.endpoints.token).headers.authorization)
    const sent = Buffer.from(header.replace(/^Basic /, ''), 'base64').toString('utf8')
    expect(sent).toBe(
      `${clientIdOf(name)}:${new URLSearchParams({ v: secrets.get(name) ?? '' }).toString().slice(2)}`,
    )
  })

  it("'raw' gets a token from the server that reads base64(id:secret) as it is", async () => {
    const tokens = await redeem(symmetricClient(rawServer, name, 'raw'), rawServer)
    expect(tokens).toMatchObject({ access_token: expect.any(String), token_type: 'Bearer' })
    const header = String(lastRequestTo(rawServer, rawServer.endpoints.token).headers.authorization)
    expect(Buffer.from(header.replace(/^Basic /, ''), 'base64').toString('utf8')).toBe(
      `${clientIdOf(name)}:${secrets.get(name)}`,
    )
  })

  it("form-urlencoded against the raw server: invalid_client, and the message names basicAuthEncoding 'raw'", async () => {
    const error = await redeem(symmetricClient(rawServer, name), rawServer)
    expect(error).toBeInstanceOf(TokenError)
    expect(error).toMatchObject({ error: 'invalid_client' })
    const message = (error as TokenError).message
    expect(message).toContain("set basicAuthEncoding to 'raw'")
    expect(JSON.stringify([message, error, (error as Error).stack])).not.toContain(
      secrets.get(name)?.slice(0, 12),
    )
  })
})

describe("'raw' against the RFC 6749 server", () => {
  it('works where form decoding leaves the secret unchanged (~ / = : non-ASCII)', async () => {
    for (const name of ['tilde', 'slash', 'equals', 'colon', 'non-ASCII']) {
      const tokens = await redeem(symmetricClient(rfcServer, name, 'raw'), rfcServer)
      expect(tokens, name).toMatchObject({ access_token: expect.any(String) })
    }
  })

  it("fails for '+' (read as a space) with invalid_client naming basicAuthEncoding 'form-urlencoded'", async () => {
    const error = await redeem(symmetricClient(rfcServer, 'plus', 'raw'), rfcServer)
    expect(error).toMatchObject({ name: 'TokenError', error: 'invalid_client' })
    expect((error as TokenError).message).toContain("set basicAuthEncoding to 'form-urlencoded'")
  })

  it("fails for '%' (not a valid escape): the server refuses the header as badly encoded", async () => {
    const error = await redeem(symmetricClient(rfcServer, 'percent', 'raw'), rfcServer)
    expect(error).toBeInstanceOf(TokenError)
    expect((error as TokenError).error).toBe('invalid_request')
  })
})

describe('refused before any request', () => {
  it("an unknown basicAuthEncoding, and a client id with ':' under 'raw'", async () => {
    expect(
      () =>
        new Client(
          { baseUrl: rfcServer.fhirBaseUrl, allowInsecureLocalhost: true },
          { basicAuthEncoding: 'base64' as BasicAuthEncoding },
        ),
    ).toThrow(expect.objectContaining({ invalidAttribute: 'basicAuthEncoding' }))
    const client = new Client(
      {
        baseUrl: rfcServer.fhirBaseUrl,
        allowInsecureLocalhost: true,
        clientId: 'an:id',
        clientSecret: 'secret-value',
        redirectUri: sandboxDefaultRedirectUri,
      },
      { clientType: 'confidential_symmetric', basicAuthEncoding: 'raw', logger: silentLogger },
    )
    const tokenRequests = rfcServer.requests.filter((request) => request.path === '/token').length
    const error = await rejectionOf(
      client.requestAccessToken({ code: 'code-value-1234', codeVerifier: 'v'.repeat(43) }),
    )
    expect(error).toBeInstanceOf(ConfigurationError)
    expect(error).toMatchObject({ invalidAttribute: 'clientId' })
    expect(rfcServer.requests.filter((request) => request.path === '/token')).toHaveLength(
      tokenRequests,
    )
  })
})
