import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A loopback HTTP server that accepts requests and never answers them. */
export interface HangingServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string
  /** How many requests arrived (and are still waiting). */
  readonly requestCount: number
  close(): Promise<void>
}

/** A loopback HTTP server that serves one JSON document (a client's JWKS) on every GET. */
export interface JsonDocumentServer {
  /** The URL of the document: `http://127.0.0.1:<port>/jwks.json`. */
  readonly url: string
  readonly requestCount: number
  close(): Promise<void>
}

/** Starts a {@link JsonDocumentServer} serving `document` as `application/json`. */
export async function startJsonDocumentServer(document: unknown): Promise<JsonDocumentServer> {
  let requestCount = 0
  const body = JSON.stringify(document)
  const server = createServer((_request, response) => {
    requestCount += 1
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(body)
  })
  const origin = await listenOnLoopback(server)
  return {
    url: `${origin}/jwks.json`,
    get requestCount() {
      return requestCount
    },
    close: () => closeServer(server),
  }
}

/** Starts a {@link HangingServer}: the stand-in for a server that stopped responding. */
export async function startHangingServer(): Promise<HangingServer> {
  let requestCount = 0
  const server = createServer(() => {
    requestCount += 1
  })
  const origin = await listenOnLoopback(server)
  return {
    origin,
    get requestCount() {
      return requestCount
    },
    close: () => closeServer(server),
  }
}

/** Listens on 127.0.0.1 with an OS-assigned port and returns `http://127.0.0.1:<port>`. */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return `http://127.0.0.1:${port}`
}

/** Closes every connection (keep-alive ones included) and stops listening. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
}
