/**
 * Serves one esbuild output to a browser from memory over loopback HTTP and records every file
 * the browser asks for: the chunks an app really loads, in the order it loads them.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A running chunk server. */
export interface ChunkServer {
  /** `http://127.0.0.1:<port>`: a secure context, so WebCrypto exists there. */
  readonly origin: string
  /** File names requested since the last {@link ChunkServer.takeRequested}, in order. */
  takeRequested(): string[]
  close(): Promise<void>
}

/** An empty page for the app's modules to run in. */
const page = '<!doctype html><meta charset="utf-8"><title>bundle measurement</title>'

/**
 * Starts a server on 127.0.0.1 answering `/` with an empty page and `/<name>` with the file of
 * that name. Unknown scripts are 404s and are recorded like the rest, so a chunk the bundle lacks
 * shows up as a loaded name no output has.
 */
export async function serveChunks(files: ReadonlyMap<string, Uint8Array>): Promise<ChunkServer> {
  let requested: string[] = []
  const server = createServer((request, response) => {
    const name = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname)
      .replace(/^\//, '')
      .trim()
    if (name === '') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page)
      return
    }
    // Chromium asks for /favicon.ico by itself; only scripts are the app's to load.
    if (name.endsWith('.js')) requested.push(name)
    const contents = files.get(name)
    if (contents === undefined) {
      response.writeHead(404).end()
      return
    }
    response
      .writeHead(200, {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'no-store',
      })
      .end(contents)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    takeRequested() {
      const taken = requested
      requested = []
      return taken
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
