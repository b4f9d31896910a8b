import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A running fixed-answer token endpoint. */
export interface FixedTokenServer {
  /** `http://127.0.0.1:<port>/fhir`. */
  readonly fhirBaseUrl: string
  /** `http://127.0.0.1:<port>/token`. */
  readonly tokenUrl: string
  close(): Promise<void>
}

const tokenBody = JSON.stringify({
  access_token: 'bench-access-token',
  token_type: 'Bearer',
  expires_in: 300,
  scope: 'system/*.rs',
})

/**
 * The cheapest token endpoint that still speaks HTTP: it reads the whole request body and
 * answers every `POST /token` with the same JSON token, verifying nothing. With the server
 * costing next to nothing, the client-side work is a large part of each request, so the
 * overhead ratio is as strict as it can be.
 */
export function startFixedTokenServer(): Promise<FixedTokenServer> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume()
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/token') {
        response.writeHead(200, {
          'content-type': 'application/json',
          'cache-control': 'no-store',
          'content-length': Buffer.byteLength(tokenBody),
        })
        response.end(tokenBody)
      } else {
        response.writeHead(404).end()
      }
    })
  })
  return new Promise((resolvePromise, rejectPromise) => {
    server.once('error', rejectPromise)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      const origin = `http://127.0.0.1:${port}`
      resolvePromise({
        fhirBaseUrl: `${origin}/fhir`,
        tokenUrl: `${origin}/token`,
        close: () =>
          new Promise((resolveClose) => {
            server.closeAllConnections()
            server.close(() => resolveClose())
          }),
      })
    })
  })
}
