/**
 * The loopback HTTP server of the revocation tests: serves bytes by path, counts every request
 * per path, answers 404 for unknown paths, never answers `/hang.crl`, and streams 20 MiB for
 * `/huge.crl` (no Content-Length) and declares 20 MiB for `/huge-declared.crl`. CORS is open so
 * a browser page may fetch from it. Node only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** 20 MiB: twice the library's cap on a fetched CRL. */
export const hugeCrlBytes = 20 * 1024 * 1024

export interface RevocationServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string
  /** Serves `body` at `path` (`application/pkix-crl`, or `contentType`). */
  serve(path: string, body: Uint8Array, contentType?: string): void
  /** Requests per path (query included) since the start, or since `resetCounts`. */
  count(path: string): number
  readonly counts: ReadonlyMap<string, number>
  /** Answers POSTs at `path` with what `answer` returns for the request body (OCSP). */
  answerPosts(path: string, answer: (body: Uint8Array) => Promise<Uint8Array> | Uint8Array): void
  stop(): Promise<void>
}

const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' }

export async function startRevocationServer(): Promise<RevocationServer> {
  const documents = new Map<string, { body: Uint8Array; contentType: string }>()
  const posts = new Map<string, (body: Uint8Array) => Promise<Uint8Array> | Uint8Array>()
  const counts = new Map<string, number>()
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? '/'
    if (request.method === 'OPTIONS') {
      response.writeHead(204, { ...cors, 'access-control-allow-methods': 'GET, POST' })
      response.end()
      return
    }
    if (path === '/__counts') {
      response.writeHead(200, { ...cors, 'content-type': 'application/json' })
      response.end(JSON.stringify(Object.fromEntries(counts)))
      return
    }
    counts.set(path, (counts.get(path) ?? 0) + 1)
    if (path === '/hang.crl') return // never answers
    if (path === '/huge-declared.crl') {
      response.writeHead(200, { ...cors, 'content-length': String(hugeCrlBytes) })
      response.end()
      return
    }
    if (path === '/huge.crl') {
      response.writeHead(200, { ...cors, 'content-type': 'application/pkix-crl' })
      const chunk = new Uint8Array(64 * 1024).fill(0x30)
      let sent = 0
      const writeMore = () => {
        while (sent < hugeCrlBytes && !response.destroyed) {
          sent += chunk.byteLength
          if (!response.write(chunk)) {
            response.once('drain', writeMore)
            return
          }
        }
        response.end()
      }
      response.on('error', () => {})
      writeMore()
      return
    }
    const answer = request.method === 'POST' ? posts.get(path) : undefined
    if (answer !== undefined) {
      const chunks: Buffer[] = []
      for await (const chunk of request) chunks.push(chunk as Buffer)
      const body = await answer(new Uint8Array(Buffer.concat(chunks)))
      response.writeHead(200, { ...cors, 'content-type': 'application/ocsp-response' })
      response.end(body)
      return
    }
    const document = documents.get(path)
    if (document === undefined) {
      response.writeHead(404, cors)
      response.end('not found')
      return
    }
    response.writeHead(200, { ...cors, 'content-type': document.contentType })
    response.end(document.body)
  }
  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    serve: (path, body, contentType = 'application/pkix-crl') =>
      void documents.set(path, { body, contentType }),
    count: (path) => counts.get(path) ?? 0,
    counts,
    answerPosts: (path, answer) => void posts.set(path, answer),
    stop: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
