import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A loopback "app" that records the authorization responses a real browser brings it. */
export interface CallbackServer {
  /** `http://127.0.0.1:<port>/callback`. */
  readonly redirectUri: string
  /** Every request to `/callback`, oldest first. */
  readonly callbacks: readonly URL[]
  close(): Promise<void>
}

/** Starts a {@link CallbackServer} on a free loopback port. */
export async function startCallbackServer(): Promise<CallbackServer> {
  const callbacks: URL[] = []
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    if (url.pathname === '/callback') callbacks.push(url)
    response.end('ok')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    redirectUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    callbacks,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
