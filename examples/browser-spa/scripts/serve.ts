/**
 * Serves the built page and its `config.json` on loopback, e.g. for a local SMART sandbox:
 *
 *   npx -y pnpm@10 build && FHIR_BASE_URL=http://127.0.0.1:8080/fhir CLIENT_ID=my-spa \
 *   ALLOW_INSECURE_LOCALHOST=true PORT=5173 npx -y pnpm@10 start
 *
 * Register `http://127.0.0.1:5173/` as the client's redirect URI. In production any static
 * host (a CDN, nginx) does this job; only `config.json` differs per environment.
 */
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, resolve, sep } from 'node:path'
import { pathToFileURL } from 'node:url'

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
}

/** A running static server. */
export interface SpaServer {
  /** `http://127.0.0.1:<port>`; the page is at `${origin}/`. */
  readonly origin: string
  close(): Promise<void>
}

/**
 * Serves `directory` (the build output) plus `config.json` from `config()`, which is called per
 * request so the caller can fill it in after learning the server's own origin.
 */
export async function serveSpa(
  directory: string,
  config: () => unknown,
  port = 0,
): Promise<SpaServer> {
  const root = resolve(directory)
  const server: Server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost')
    if (pathname === '/config.json') {
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      response.end(JSON.stringify(config()))
      return
    }
    // Resolve inside the build directory only: `..` segments must not escape it.
    const file = normalize(
      join(root, pathname === '/' ? 'index.html' : decodeURIComponent(pathname)),
    )
    if (!file.startsWith(root + sep)) {
      response.writeHead(404).end()
      return
    }
    readFile(file).then(
      (body) => {
        response.writeHead(200, {
          'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
        })
        response.end(body)
      },
      () => response.writeHead(404).end(),
    )
  })
  await new Promise<void>((resolveListen) => server.listen(port, '127.0.0.1', resolveListen))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections()
        server.close(() => resolveClose())
      }),
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { FHIR_BASE_URL, CLIENT_ID, PORT, ALLOW_INSECURE_LOCALHOST } = process.env
  if (!FHIR_BASE_URL || !CLIENT_ID) throw new Error('set FHIR_BASE_URL and CLIENT_ID')
  const port = Number(PORT ?? 5173)
  const server = await serveSpa(
    join(import.meta.dirname, '..', 'dist'),
    () => ({
      fhirBaseUrl: FHIR_BASE_URL,
      clientId: CLIENT_ID,
      redirectUri: `http://127.0.0.1:${port}/`,
      scopes: ['launch/patient', 'patient/Patient.rs', 'openid', 'fhirUser'],
      allowInsecureLocalhost: ALLOW_INSECURE_LOCALHOST === 'true',
    }),
    port,
  )
  console.log(`serving ${server.origin}/`)
}
