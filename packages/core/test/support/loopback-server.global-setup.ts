/**
 * Vitest global setup (runs in Node for every project): a loopback HTTP server the portable
 * `sendRequest` tests reach with the runtime's own `fetch` — Node's, the edge runtime's and
 * Chromium's. It answers with `Access-Control-Allow-Origin: *` so the browser page (another
 * origin) may read the responses, and it hands its origin and a closed port to the tests through
 * `provide`/`inject`.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestProject } from 'vitest/node'
// By path: test-utils depends on core, so core cannot depend on it (a cycle in the workspace).
import { refusingLoopbackOrigin } from '../../../../internal/test-utils/src/refusing-port.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** `http://127.0.0.1:<port>` of the loopback server. */
    loopbackOrigin: string
    /** `http://127.0.0.1:<port>` where nothing listens, held so that nothing can. */
    closedLoopbackOrigin: string
  }
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  )
}

function close(server: Server): Promise<void> {
  server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = createServer((request, response) => {
    const cors = { 'access-control-allow-origin': '*' }
    if (request.url === '/hang') return // never answers
    if (request.url === '/slow-body') {
      response.writeHead(200, { ...cors, 'content-type': 'application/json' })
      response.write('{"partial":')
      return // the body never ends
    }
    if (request.url === '/moved') {
      response.writeHead(307, { ...cors, location: '/ok' })
      response.end()
      return
    }
    if (request.url === '/big') {
      response.writeHead(200, cors)
      response.end('x'.repeat(2 * 1024 * 1024))
      return
    }
    response.writeHead(200, { ...cors, 'content-type': 'application/json' })
    response.end(JSON.stringify({ method: request.method, url: request.url }))
  })
  project.provide('loopbackOrigin', await listen(server))

  // Refuses connections until teardown: a port merely released could be taken by a server
  // another test starts meanwhile.
  const down = await refusingLoopbackOrigin()
  project.provide('closedLoopbackOrigin', down.origin)

  return async () => {
    await Promise.all([close(server), down.close()])
  }
}
