/**
 * Hand-written nasties for every exchange the library makes: what broken servers, proxies and
 * `fetch` implementations really do, one case each.
 */
import {
  type FetchCall,
  type JsonNode,
  literal,
  objectNode,
  pollutingValue,
  renderJson,
  type ScriptedAnswer,
  toJsonNode,
  withMember,
} from '../../src/index.js'

/** What a case needs to know about the exchange it breaks. */
export interface ExchangeShape {
  readonly method: 'GET' | 'POST'
  /**
   * True when any JSON object is a usable answer (SMART discovery: every field is optional and
   * a field of the wrong type reads as absent), so a wrong-typed document may succeed.
   */
  readonly acceptsAnyObject?: boolean | undefined
  /** The valid success body of the exchange. */
  validDocument(): Record<string, unknown>
  /** Discovery only: a valid document (signed, for UDAP) whose endpoints are replaced. */
  readonly withEndpoints?:
    | ((endpoints: Readonly<Record<string, string>>) => Record<string, unknown>)
    | undefined
}

/** One nasty. */
export interface TransportCase {
  readonly name: string
  /** True when no library may accept the answer (a success would itself be a finding). */
  readonly mustFail: boolean | ((shape: ExchangeShape) => boolean)
  /** The library's own timeout is what ends the case. */
  readonly hangs?: boolean
  /** False when the case does not apply to the exchange (e.g. endpoint URLs for a token request). */
  applies?(shape: ExchangeShape): boolean
  answer(call: FetchCall, shape: ExchangeShape): ScriptedAnswer
}

const json = { 'content-type': 'application/json' }
const mebibyte = 1_048_576

function documentWith(shape: ExchangeShape, name: string, value: JsonNode): string {
  return renderJson(withMember(toJsonNode(shape.validDocument()), name, value))
}

/** A `fetch` error of the kind undici throws for a refused connection. */
function networkError(): TypeError {
  return new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
  })
}

/** A thrown object whose every member read throws: code that inspects errors must cope. */
function explosiveThrown(): object {
  return new Proxy(
    {},
    {
      get() {
        throw new Error('member read exploded')
      },
      getPrototypeOf() {
        throw new Error('prototype read exploded')
      },
      has() {
        throw new Error('member test exploded')
      },
    },
  )
}

/** A response object the way node-fetch 2 (or another polyfill) shapes it: no WHATWG stream. */
function polyfillResponse(body: string): unknown {
  return {
    status: 200,
    ok: true,
    type: 'basic',
    url: '',
    redirected: false,
    headers: new Headers(json),
    body: { pipe: () => undefined, on: () => undefined },
    text: async () => body,
    json: async () => JSON.parse(body) as unknown,
    arrayBuffer: async () => new TextEncoder().encode(body).buffer,
  }
}

const endpointHostile = {
  authorization_endpoint: 'javascript:alert(document.cookie)',
  token_endpoint: 'data:application/json,{"access_token":"forged"}',
  registration_endpoint: 'http://attacker.example/register',
}

/** Every hand-written case. */
export const transportCases: readonly TransportCase[] = [
  {
    name: 'HTML instead of JSON',
    mustFail: true,
    answer: () => ({
      body: '<!doctype html><h1>Welcome</h1>',
      headers: { 'content-type': 'text/html' },
    }),
  },
  { name: 'JSON array', mustFail: true, answer: () => ({ body: '[1,2,3]', headers: json }) },
  {
    name: 'JSON string',
    mustFail: true,
    answer: () => ({ body: '"access_token"', headers: json }),
  },
  { name: 'JSON null', mustFail: true, answer: () => ({ body: 'null', headers: json }) },
  { name: 'JSON number', mustFail: true, answer: () => ({ body: '1e400', headers: json }) },
  { name: 'empty body', mustFail: true, answer: () => ({ body: '', headers: json }) },
  {
    name: 'truncated JSON',
    mustFail: true,
    answer: (_, shape) => ({
      body: JSON.stringify(shape.validDocument()).slice(0, 40),
      headers: json,
    }),
  },
  {
    name: 'object whose members all have the wrong type',
    mustFail: (shape) => shape.acceptsAnyObject !== true,
    answer: () => ({
      body: JSON.stringify({
        access_token: 123,
        token_type: ['Bearer'],
        expires_in: 'soon',
        client_id: {},
        grant_types: 'client_credentials',
        issuer: 7,
        token_endpoint: [],
        authorization_endpoint: false,
        capabilities: 'launch-ehr',
        udap_versions_supported: '1',
        signed_metadata: 5,
        registration_endpoint_jwt_signing_alg_values_supported: 'RS256',
        token_endpoint_auth_signing_alg_values_supported: null,
      }),
      headers: json,
    }),
  },
  {
    name: 'body over 1 MiB with content-length',
    mustFail: true,
    answer: () => {
      const body = `{"padding":"${'A'.repeat(mebibyte + 16)}"}`
      return { body, headers: { ...json, 'content-length': String(body.length) } }
    },
  },
  {
    name: 'body over 1 MiB streamed without content-length',
    mustFail: true,
    answer: () => ({
      chunks: [
        new TextEncoder().encode('{"padding":"'),
        ...Array.from({ length: 24 }, () => new Uint8Array(65_536).fill(0x41)),
      ],
      headers: json,
    }),
  },
  {
    name: 'body over 1 MiB under a small lying content-length',
    mustFail: true,
    answer: () => ({
      body: `{"padding":"${'A'.repeat(2 * mebibyte)}"}`,
      headers: { ...json, 'content-length': '10' },
    }),
  },
  {
    name: 'content-length that is not a number',
    mustFail: false,
    answer: (_, shape) => ({
      body: JSON.stringify(shape.validDocument()),
      headers: { ...json, 'content-length': 'abc' },
    }),
  },
  {
    name: '100 000 nested arrays as the body',
    mustFail: true,
    answer: () => ({
      body: renderJson({ kind: 'deep', depth: 100_000, container: 'array' }),
      headers: json,
    }),
  },
  {
    name: '100 000 nested objects as the body',
    mustFail: false,
    answer: () => ({
      body: renderJson({ kind: 'deep', depth: 100_000, container: 'object' }),
      headers: json,
    }),
  },
  {
    name: '100 000 nested objects in an extra member of a valid document',
    mustFail: false,
    answer: (_, shape) => ({
      body: documentWith(shape, 'extension', { kind: 'deep', depth: 100_000, container: 'object' }),
      headers: json,
    }),
  },
  {
    name: '100 000 nested arrays in an extra member of a valid document',
    mustFail: false,
    answer: (_, shape) => ({
      body: documentWith(shape, 'extension', { kind: 'deep', depth: 100_000, container: 'array' }),
      headers: json,
    }),
  },
  {
    name: 'a 900 KB string member in a valid document',
    mustFail: false,
    answer: (_, shape) => ({
      body: documentWith(shape, 'note', { kind: 'huge', length: 900_000 }),
      headers: json,
    }),
  },
  {
    name: '__proto__ and constructor.prototype members in a valid document',
    mustFail: false,
    answer: (_, shape) => ({
      body: renderJson(
        withMember(
          withMember(toJsonNode(shape.validDocument()), '__proto__', pollutingValue),
          'constructor',
          objectNode([['prototype', objectNode([['polluted', literal('yes')]])]]),
        ),
      ),
      headers: json,
    }),
  },
  {
    name: 'valid body as text/plain',
    mustFail: false,
    answer: (_, shape) => ({
      body: JSON.stringify(shape.validDocument()),
      headers: { 'content-type': 'text/plain' },
    }),
  },
  {
    name: 'valid body without content type',
    mustFail: false,
    answer: (_, shape) => ({ body: JSON.stringify(shape.validDocument()) }),
  },
  {
    name: 'valid body as application/xml',
    mustFail: false,
    answer: (_, shape) => ({
      body: JSON.stringify(shape.validDocument()),
      headers: { 'content-type': 'application/xml' },
    }),
  },
  {
    name: 'valid body with a UTF-8 BOM',
    mustFail: false,
    answer: (_, shape) => ({
      body: `\ufeff${JSON.stringify(shape.validDocument())}`,
      headers: json,
    }),
  },
  {
    name: '302 to another HTTPS origin',
    // GET redirects to HTTPS are followed; a 3xx answer to a POST is always an error.
    mustFail: (shape) => shape.method === 'POST',
    answer: () => ({ status: 302, headers: { location: 'https://attacker.example/elsewhere' } }),
  },
  {
    name: '302 to the same URL (redirect loop)',
    mustFail: true,
    answer: (call) => ({ status: 302, headers: { location: call.url } }),
  },
  {
    name: '307 to javascript:',
    mustFail: true,
    answer: () => ({ status: 307, headers: { location: 'javascript:alert(1)' } }),
  },
  {
    name: '301 to plain HTTP',
    mustFail: true,
    answer: () => ({ status: 301, headers: { location: 'http://attacker.example/metadata' } }),
  },
  {
    name: '302 to data:',
    mustFail: true,
    answer: () => ({ status: 302, headers: { location: 'data:application/json,{}' } }),
  },
  { name: '303 without Location', mustFail: true, answer: () => ({ status: 303 }) },
  {
    name: '308 with an unparsable Location',
    mustFail: true,
    answer: () => ({ status: 308, headers: { location: 'https://[::1' } }),
  },
  {
    name: '400 with an OAuth error body',
    mustFail: true,
    answer: () => ({
      status: 400,
      body: JSON.stringify({ error: 'invalid_request', error_description: 'no' }),
      headers: json,
    }),
  },
  {
    name: '400 with OAuth error members of the wrong type',
    mustFail: true,
    answer: () => ({
      status: 400,
      body: JSON.stringify({ error: 5, error_description: {}, error_uri: [] }),
      headers: json,
    }),
  },
  {
    name: '401 without a body',
    mustFail: true,
    answer: () => ({
      status: 401,
      headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
    }),
  },
  {
    name: '404 with JSON',
    mustFail: true,
    answer: () => ({ status: 404, body: '{"message":"not found"}', headers: json }),
  },
  {
    name: '500 with an HTML page',
    mustFail: true,
    answer: () => ({
      status: 500,
      body: '<html><body>Internal Server Error</body></html>',
      headers: { 'content-type': 'text/html' },
    }),
  },
  {
    name: '503 with a huge OAuth error description',
    mustFail: true,
    answer: () => ({
      status: 503,
      body: JSON.stringify({
        error: 'temporarily_unavailable',
        error_description: 'x'.repeat(500_000),
      }),
      headers: json,
    }),
  },
  { name: '204 No Content', mustFail: true, answer: () => ({ status: 204 }) },
  {
    name: 'fetch throws an Error synchronously',
    mustFail: true,
    answer: () => ({ throws: new Error('synchronous failure'), synchronously: true }),
  },
  {
    name: 'fetch throws a string synchronously',
    mustFail: true,
    answer: () => ({ throws: 'synchronous string', synchronously: true }),
  },
  {
    name: 'fetch rejects like undici on a refused connection',
    mustFail: true,
    answer: () => ({ throws: networkError() }),
  },
  { name: 'fetch rejects with undefined', mustFail: true, answer: () => ({ throws: undefined }) },
  { name: 'fetch rejects with null', mustFail: true, answer: () => ({ throws: null }) },
  {
    name: 'fetch rejects with a symbol',
    mustFail: true,
    answer: () => ({ throws: Symbol('failure') }),
  },
  {
    name: 'fetch rejects with an object whose members throw when read',
    mustFail: true,
    answer: () => ({ throws: explosiveThrown() }),
  },
  {
    name: 'fetch rejects with an Error quoting the whole request in its message',
    mustFail: true,
    answer: (call) => ({
      throws: new Error(
        `request ${call.method} ${call.url} failed; headers ${JSON.stringify(call.headers)}; body ${call.body ?? ''}`,
      ),
    }),
  },
  {
    name: 'fetch rejects with an Error carrying the request as members (request, code)',
    mustFail: true,
    answer: (call) => ({
      throws: Object.assign(new Error('request failed'), {
        request: call,
        code: `E_${call.body ?? call.headers.authorization ?? 'NOBODY'}`,
      }),
    }),
  },
  {
    name: 'fetch never settles and ignores the abort signal',
    mustFail: true,
    hangs: true,
    answer: () => ({ hangs: true }),
  },
  {
    name: 'body stream that never ends',
    mustFail: true,
    hangs: true,
    answer: () => ({ stream: 'never-ends', headers: json }),
  },
  {
    name: 'body stream that errors midway',
    mustFail: true,
    answer: () => ({ stream: 'errors', headers: json }),
  },
  {
    name: 'fetch resolves to undefined',
    mustFail: true,
    answer: () => ({ resolvesTo: undefined }),
  },
  {
    name: 'fetch resolves to a polyfill response without a WHATWG body',
    mustFail: false,
    answer: (_, shape) => ({ resolvesTo: polyfillResponse(JSON.stringify(shape.validDocument())) }),
  },
  {
    name: 'discovered endpoints on javascript:, data: and plain HTTP',
    mustFail: true,
    applies: (shape) => shape.withEndpoints !== undefined,
    answer: (_, shape) => ({
      body: JSON.stringify(shape.withEndpoints?.(endpointHostile)),
      headers: json,
    }),
  },
]
