/**
 * DESIGN §12 "Redaction happens before any truncation: no prefix or fragment of a secret survives
 * in a message, however long the server's error text or the echoed assertion", with §6's list of
 * places (log output, error messages, `cause`, `toJSON()`, `util.inspect`). A hostile server
 * echoes the secrets it received inside a 10 KB error_description: at the start, in the middle,
 * and straddling the point where the library truncates.
 */
import { inspect } from 'node:util'
import type { Client, Logger } from '@fhir-auth/client'
import { describe, expect, it } from 'vitest'
import {
  base,
  json,
  redirectUri,
  registerUrl,
  rejectionOf,
  rsaPrivateKeyPem,
  secretFragments,
  secretValue,
  smartClient,
  smartServer,
  tokenBody,
  tokenUrl,
  visibleTexts,
} from './support/index.js'

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = []
  const record = (level: string) => (message: string, fields?: unknown) => {
    lines.push(
      `${level} ${message} ${inspect(fields, { depth: 8 })} ${JSON.stringify(fields) ?? ''}`,
    )
  }
  return {
    lines,
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    debug: record('debug'),
  }
}

const filler = (length: number) => 'x'.repeat(Math.max(0, length))

/** A 10 KB description with `payload` at `offset`. */
function description(offset: number, payload: string): string {
  const total = 10_240
  return `${filler(offset)}${payload}${filler(total - offset - payload.length)}`
}

interface Scenario {
  readonly name: string
  /** Builds a client whose failing operation sends the secrets; `describe` is what the server echoes. */
  setup(echo: (secrets: Record<string, string>) => string): {
    client: Client
    logger: ReturnType<typeof recordingLogger>
    run(): Promise<unknown>
    secrets: Record<string, string>
  }
}

const code = () => secretValue('code')
const verifier = () => secretValue('verifier').padEnd(50, 'v')

const scenarios: readonly Scenario[] = [
  {
    name: 'requestAccessToken (symmetric: client secret, code, verifier)',
    setup(echo) {
      const secrets = { clientSecret: secretValue('secret'), code: code(), verifier: verifier() }
      const logger = recordingLogger()
      const server = smartServer({
        [tokenUrl]: (_request) =>
          json({ error: 'invalid_grant', error_description: echo(secrets) }, 400),
      })
      const client = smartClient(
        server.fetch,
        { clientSecret: secrets.clientSecret },
        { clientType: 'confidential_symmetric', logger },
      )
      return {
        client,
        logger,
        secrets,
        run: () =>
          client.requestAccessToken({ code: secrets.code, codeVerifier: secrets.verifier }),
      }
    },
  },
  {
    name: 'refreshToken (public: refresh token)',
    setup(echo) {
      const secrets = { refreshToken: secretValue('refresh') }
      const logger = recordingLogger()
      const server = smartServer({
        [tokenUrl]: (_request) =>
          json({ error: 'invalid_grant', error_description: echo(secrets) }, 400),
      })
      const client = smartClient(server.fetch, {}, { logger })
      return {
        client,
        logger,
        secrets,
        run: () => client.refreshToken({ refreshToken: secrets.refreshToken }),
      }
    },
  },
  {
    name: 'session.refresh (refresh token and access token)',
    setup(echo) {
      const secrets = { refreshToken: secretValue('refresh'), accessToken: secretValue('access') }
      const logger = recordingLogger()
      const server = smartServer({
        [tokenUrl]: (_request) =>
          json({ error: 'invalid_grant', error_description: echo(secrets) }, 400),
      })
      const client = smartClient(server.fetch, {}, { logger })
      const session = client.resumeSession(
        tokenBody({
          access_token: secrets.accessToken,
          refresh_token: secrets.refreshToken,
          expires_in: 0,
        }),
      )
      return { client, logger, secrets, run: () => session.accessToken() }
    },
  },
  {
    name: 'requestBackendToken (asymmetric: the echoed client assertion)',
    setup(echo) {
      const secrets: Record<string, string> = {}
      const logger = recordingLogger()
      const server = smartServer({
        [tokenUrl]: (request) => {
          secrets.assertion = new URLSearchParams(request.bodyText).get('client_assertion') ?? ''
          return json({ error: 'invalid_client', error_description: echo(secrets) }, 401)
        },
      })
      const client = smartClient(
        server.fetch,
        { privateKey: rsaPrivateKeyPem(), kid: 'kid-1', scopes: ['system/*.rs'] },
        { clientType: 'confidential_asymmetric', logger },
      )
      return { client, logger, secrets, run: () => client.requestBackendToken() }
    },
  },
  {
    name: 'registerClient (SMART: the initial access token)',
    setup(echo) {
      const secrets = { initialAccessToken: secretValue('iat') }
      const logger = recordingLogger()
      const server = smartServer({
        [registerUrl]: (_request) =>
          json({ error: 'invalid_client_metadata', error_description: echo(secrets) }, 400),
      })
      const client = smartClient(server.fetch, {}, { logger })
      return {
        client,
        logger,
        secrets,
        run: () =>
          client.registerClient(
            { client_name: 'x', redirect_uris: [redirectUri] },
            { authorization: `Bearer ${secrets.initialAccessToken}` },
          ),
      }
    },
  },
]

/** Every fragment of every secret in every text the caller or the logs can see. */
function leaks(
  error: unknown,
  logLines: readonly string[],
  secrets: Record<string, string>,
): string[] {
  const texts = [...visibleTexts(error), ...logLines]
  return Object.entries(secrets).flatMap(([label, value]) =>
    secretFragments(value, texts).map((where) => `${label} ${where}`),
  )
}

/** How many filler characters of a 10 KB description survive in the error message. */
async function truncationPoint(scenario: Scenario): Promise<number> {
  const { run } = scenario.setup(() => filler(10_240))
  const error = (await rejectionOf(run())) as Error
  const runs = error.message.match(/x+/g) ?? ['']
  return Math.max(...runs.map((r) => r.length))
}

describe('DESIGN §12: redaction before truncation — a secret echoed in a 10 KB error_description', () => {
  for (const scenario of scenarios) {
    it(`${scenario.name}: secret at the start, middle and end`, async () => {
      const found: string[] = []
      for (const offset of [0, 5_000, 10_000]) {
        const { run, logger, secrets } = scenario.setup((seen) => {
          const payload = Object.values(seen).join(' ')
          return description(Math.min(offset, 10_240 - payload.length), payload)
        })
        const error = await rejectionOf(run())
        expect(error).toBeInstanceOf(Error)
        found.push(
          ...leaks(error, logger.lines, secrets).map((leak) => `offset ${offset}: ${leak}`),
        )
      }
      expect(found.slice(0, 5)).toEqual([])
    })

    it(`${scenario.name}: each secret straddling the truncation point of the message`, async () => {
      const point = await truncationPoint(scenario)
      const found: string[] = []
      const labels = Object.keys(scenario.setup(() => '').secrets)
      // The assertion is only known once sent: its label is added by the route (assertion).
      if (labels.length === 0) labels.push('assertion')
      for (const label of labels) {
        for (let shift = -400; shift <= 4; shift += 3) {
          const { run, logger, secrets } = scenario.setup((seen) => {
            const payload = seen[label] ?? ''
            return description(Math.max(0, point + Math.max(shift, -payload.length)), payload)
          })
          const error = await rejectionOf(run())
          found.push(
            ...leaks(error, logger.lines, secrets).map(
              (leak) => `${label} shift ${shift}: ${leak}`,
            ),
          )
        }
      }
      expect(found.slice(0, 5)).toEqual([])
    })
  }

  it('a plain-text (non-JSON) 10 KB error body echoing the client secret', async () => {
    const clientSecret = secretValue('secret')
    const logger = recordingLogger()
    const server = smartServer({
      [tokenUrl]: (request) =>
        new Response(
          description(200, `got ${request.headers.get('authorization')} and ${clientSecret}`),
          {
            status: 500,
            headers: { 'content-type': 'text/plain' },
          },
        ),
    })
    const client = smartClient(
      server.fetch,
      { clientSecret },
      { clientType: 'confidential_symmetric', logger },
    )
    const error = await rejectionOf(client.refreshToken({ refreshToken: secretValue('refresh') }))
    expect(leaks(error, logger.lines, { clientSecret })).toEqual([])
  })

  it('a secret echoed in error and error_uri as well (short fields)', async () => {
    const refreshToken = secretValue('refresh')
    const logger = recordingLogger()
    const server = smartServer({
      [tokenUrl]: () =>
        json(
          {
            error: `bad_${refreshToken}`,
            error_description: 'no',
            error_uri: `https://e.example/${refreshToken}`,
          },
          400,
        ),
    })
    const client = smartClient(server.fetch, {}, { logger })
    const error = await rejectionOf(client.refreshToken({ refreshToken }))
    expect(leaks(error, logger.lines, { refreshToken })).toEqual([])
  })
})

describe('§6: the private key never surfaces, even when a server echoes it', () => {
  it('requestBackendToken: a server echoing the PEM body in its error', async () => {
    const pem = rsaPrivateKeyPem()
    const body = pem
      .split('\n')
      .filter((line) => !line.startsWith('-----'))
      .join('')
    const logger = recordingLogger()
    const server = smartServer({
      [tokenUrl]: () =>
        json(
          { error: 'invalid_client', error_description: description(4_000, body.slice(0, 400)) },
          401,
        ),
    })
    const client = smartClient(
      server.fetch,
      { baseUrl: base, privateKey: pem, kid: 'k', scopes: ['system/*.rs'] },
      { clientType: 'confidential_asymmetric', logger },
    )
    const error = await rejectionOf(client.requestBackendToken())
    // Lines of the PEM body (64 characters each) must not appear anywhere.
    const texts = [...visibleTexts(error), ...logger.lines, inspect(client), JSON.stringify(client)]
    const lines = pem
      .split('\n')
      .filter((line) => line.length >= 16 && !line.startsWith('-----'))
      .slice(0, 6)
    expect(lines.filter((line) => texts.some((text) => text.includes(line)))).toEqual([])
  })
})
