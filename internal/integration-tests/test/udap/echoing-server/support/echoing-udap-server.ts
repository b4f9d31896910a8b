/**
 * A hostile UDAP server on 127.0.0.1 that echoes what it received. Discovery (and every other
 * GET) is the project's UDAP sandbox, reached through this server: the sandbox advertises this
 * server's origin, so its `signed_metadata` (RS256, a chain to the test community's anchor, CRLs)
 * is valid for it and the client trusts it as it would a real server. The token and registration
 * endpoints are answered here by the test's {@link Echo}, which sees the request as sent.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import { closeServer, listenOnLoopback } from '../../../smart/support/local-servers.js'
import {
  identityOf,
  type SigningIdentity,
  type TrustInputs,
  trustInputsOf,
} from '../../support/udap-test-context.js'

/** The client URI of the test client: the URI SAN of its certificate. */
export const echoClientUri = 'https://client.example.test/echo'

/** A request one of the echoing endpoints received. */
export interface EchoedRequest {
  readonly path: string
  /** The body exactly as sent (form-encoded for tokens, JSON for registration). */
  readonly bodyText: string
  /** The body's string members: form parameters, or the JSON object's string members. */
  readonly members: Readonly<Record<string, string>>
}

/** What the echoing endpoint answers. */
export interface EchoAnswer {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  readonly body: string
}

/** The test's script for the token and registration endpoints. */
export type Echo = (request: EchoedRequest) => EchoAnswer

/** A running echoing server; see the module comment. */
export interface EchoingUdapServer {
  /** The base URL the client is configured with (`iss` of the signed metadata). */
  readonly fhirBaseUrl: string
  readonly tokenEndpoint: string
  readonly registrationEndpoint: string
  /** The community's anchors and CRLs as `Client` takes them. */
  readonly trust: TrustInputs
  /** A P-256 identity the community's CA issued for {@link echoClientUri}. */
  readonly identity: SigningIdentity
  /** Every request the echoing endpoints received, oldest first. */
  readonly received: readonly EchoedRequest[]
  /** Sets the script of the echoing endpoints (until the next call). */
  answerWith(echo: Echo): void
  close(): Promise<void>
}

/** Starts the sandbox behind a loopback server that echoes on the token and registration endpoints. */
export async function startEchoingUdapServer(): Promise<EchoingUdapServer> {
  const received: EchoedRequest[] = []
  let echo: Echo = () => ({ status: 500, body: '{"error":"server_error"}' })
  let sandbox: UdapSandbox | undefined
  let echoingPaths: readonly string[] = []
  const server = createServer((request, response) => {
    void handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(502)
      response.end()
    })
  })
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const bodyText = await readText(request)
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname
    if (request.method === 'POST' && echoingPaths.includes(path)) {
      const echoed = { path, bodyText, members: membersOf(bodyText) }
      received.push(echoed)
      const answer = echo(echoed)
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
      response.end(answer.body)
      return
    }
    const upstream = await fetch(`${sandbox?.origin}${request.url}`, {
      method: request.method ?? 'GET',
      headers: { accept: 'application/json' },
      ...(request.method === 'GET' ? {} : { body: bodyText }),
    })
    response.writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
    })
    response.end(Buffer.from(await upstream.arrayBuffer()))
  }
  const origin = await listenOnLoopback(server)
  try {
    sandbox = await startUdapSandbox({
      publicOrigin: origin,
      grantTypes: ['client_credentials', 'authorization_code', 'refresh_token'],
    })
  } catch (error) {
    await closeServer(server)
    throw error
  }
  const running = sandbox
  echoingPaths = [running.endpoints.token, running.endpoints.registration].map(
    (url) => new URL(url).pathname,
  )
  const issued = await running.certificateAuthority.issue({
    commonName: 'echo test client',
    sanUris: [echoClientUri],
    keyType: 'p256',
  })
  return {
    fhirBaseUrl: running.fhirBaseUrl,
    tokenEndpoint: running.endpoints.token,
    registrationEndpoint: running.endpoints.registration,
    trust: trustInputsOf(running.trust),
    identity: identityOf(issued),
    get received() {
      return [...received]
    },
    answerWith(next) {
      echo = next
    },
    async close() {
      await Promise.all([closeServer(server), running.close()])
    },
  }
}

async function readText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function membersOf(bodyText: string): Record<string, string> {
  if (!bodyText.startsWith('{')) return Object.fromEntries(new URLSearchParams(bodyText))
  const parsed = JSON.parse(bodyText) as Record<string, unknown>
  return Object.fromEntries(
    Object.entries(parsed).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  )
}
