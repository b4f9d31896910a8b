/**
 * Bad caller input never crashes the web app: any method, path, query (repeated and
 * percent-encoded parameters included), `Cookie` header (malformed, repeated, huge) and host
 * gets a `Response` with a 3xx or 4xx status (or `undefined` for another path) from
 * `web.handle`, and `nodeHandler` ends every response it is given with a status below 500.
 * No generated `iss` is a sandbox's: no request but a plain `/login`'s discovery reaches one.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type NodeResponseLike, nodeHandler, smartWebApp } from '../src/index.js'
import { clearRequests, sandboxRequests, webClient } from './support/driver.js'

const routes = ['/launch', '/login', '/callback', '/logout']
const names = ['iss', 'launch', 'state', 'code', 'error', 'iss']
const base64url = fc.stringMatching(/^[A-Za-z0-9_-]{0,60}$/)

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  base64url,
  fc.constantFrom('%', '%zz', '%00', '%E2%82', '..%2F', 'https://attacker.example/fhir', ''),
)
const query = fc
  .array(fc.tuple(fc.constantFrom(...names), text), { maxLength: 6 })
  .map((pairs) => pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&'))
const rawQuery = fc.oneof(
  query,
  fc.string({ maxLength: 30 }).map((value) => value.replace(/[#\s]/g, '')),
)
const path = fc.oneof(
  fc.constantFrom(...routes),
  fc.constantFrom('/%6Cogin', '/launch/', '//launch', '/callback;x', '/LOGOUT', '/'),
)
const cookieName = fc.constantFrom(
  'fhir-auth',
  'fhir-auth-launch',
  '__Host-fhir-auth',
  '__Host-fhir-auth-launch',
  'x',
)
const cookiePair = fc.tuple(cookieName, fc.oneof(base64url, text)).map(([n, v]) => `${n}=${v}`)
const cookieHeader = fc.oneof(
  fc.array(cookiePair, { maxLength: 5 }).map((pairs) => pairs.join('; ')),
  fc.string({ maxLength: 60 }),
  base64url.map((id) => `fhir-auth=${id.repeat(2000)}`),
)
const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH')
const origin = fc.constantFrom('https://app.example', 'http://127.0.0.1:3000', 'http://localhost')

/** A header value the Fetch API accepts (Latin-1 without CR, LF or NUL). */
function headerSafe(value: string): string {
  return value.replace(/[\0\r\n\u0100-\uffff]/g, '')
}

describe('bad caller input', () => {
  it('web.handle answers every request with a 3xx or 4xx, or leaves it alone', async () => {
    await clearRequests()
    const web = smartWebApp({ clients: webClient('ehrA') })
    await fc.assert(
      fc.asyncProperty(origin, method, path, rawQuery, cookieHeader, async (o, m, p, q, c) => {
        const request = new Request(`${o}${p}?${q}`, {
          method: m,
          headers: { cookie: headerSafe(c) },
        })
        const response = await web.handle(request)
        if (response !== undefined) {
          expect(response.status).toBeGreaterThanOrEqual(300)
          expect(response.status).toBeLessThan(500)
        }
        expect(await web.session(request)).toBeUndefined()
      }),
      { numRuns: 300 },
    )
    // A plain `/login` is a real standalone launch: it may discover the one client's server.
    // Nothing else reaches a server (no token request, nothing at the other EHR).
    const requests = await sandboxRequests()
    expect(requests.ehrB).toEqual([])
    expect(
      requests.ehrA.filter((r) => !r.path.endsWith('/.well-known/smart-configuration')),
    ).toEqual([])
  })

  it('nodeHandler ends every response below 500, whatever the raw request', async () => {
    const handler = nodeHandler(smartWebApp({ clients: webClient('ehrA') }))
    const rawHeaders = fc.array(
      fc.tuple(
        fc.oneof(fc.constantFrom('host', 'cookie', 'Host'), fc.string({ maxLength: 10 })),
        fc.string({ maxLength: 40 }),
      ),
      { maxLength: 5 },
    )
    const url = fc.oneof(
      fc.tuple(path, rawQuery).map(([p, q]) => `${p}?${q}`),
      fc.string({ maxLength: 30 }),
      fc.constantFrom('*', 'http://other.example/launch', ''),
    )
    const anyMethod = fc.oneof(method, fc.constantFrom('TRACE', 'CONNECT', 'M-SEARCH', 'get', ''))
    await fc.assert(
      fc.asyncProperty(anyMethod, url, rawHeaders, async (m, u, headers) => {
        const status = await new Promise<number>((resolve) => {
          const response: NodeResponseLike = {
            headersSent: false,
            statusCode: 200,
            setHeader: () => response,
            end: () => resolve(response.statusCode),
            destroy: () => resolve(599),
          }
          handler({ method: m, url: u, rawHeaders: headers.flat() }, response, () => resolve(0))
        })
        expect(status).toBeLessThan(500)
      }),
      { numRuns: 300 },
    )
  })
})
