import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A running HTTP server on 127.0.0.1. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly origin: string
  readonly server: Server
  /** Stops listening and closes every open connection, keep-alive ones included. */
  close(): Promise<void>
}

/** A request handler that may be async; its rejections are the handler's own business. */
export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void

/**
 * Starts an HTTP server on 127.0.0.1 with an OS-assigned port. Loopback only: the sandbox is
 * never reachable from another machine.
 */
export async function startLoopbackServer(handler: RequestHandler): Promise<LoopbackServer> {
  const server = createServer(handler)
  // Keep-alive sockets from fetch would otherwise hold `close()` open until they time out.
  server.keepAliveTimeout = 1_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)))
        server.closeAllConnections()
      }),
  }
}
