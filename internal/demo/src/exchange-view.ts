/**
 * Turns a recorded exchange into transcript lines: the request (method, URL, credentials,
 * parameters) and the response (status, fields), with secrets summarised and JWTs decoded.
 */
import { base64Decode } from '@fhir-auth/core'
import {
  compactJson,
  describeJwt,
  displayValue,
  maximumValueLength,
  secretSummary,
} from './display-values.js'
import type { RecordedExchange } from './exchange-recorder.js'
import { decodeFormComponent } from './form-component.js'
import type { Transcript, TranscriptRow } from './transcript.js'
import { wrapList } from './wrap-list.js'

/** What to show of one exchange. */
export interface ExchangeViewOptions {
  /** Response members to show, in this order; the others are only counted. Default: all. */
  readonly responseFields?: readonly string[]
  /** Request parameters to show (form or JSON members); the others are only named. Default: all. */
  readonly requestFields?: readonly string[]
  /** Show the request line without its parameters (they were shown for an identical request). */
  readonly hideRequestDetails?: boolean
  /** A short line instead of the full view: the same GET was shown earlier. */
  readonly repeated?: boolean
  /** Why the exchange happened, printed after the request line. */
  readonly purpose?: string
}

/** Writes `exchange` to the transcript. */
export function showExchange(
  transcript: Transcript,
  exchange: RecordedExchange,
  options: ExchangeViewOptions = {},
): void {
  const url = new URL(exchange.url)
  const path = `${url.origin}${url.pathname}`
  if (options.repeated === true) {
    transcript.request(
      exchange.method,
      path,
      `${options.purpose ?? 'same request as above'} → ${exchange.status ?? exchange.failure}`,
    )
    return
  }
  transcript.request(exchange.method, path, options.purpose ?? bodyKind(exchange))
  if (options.hideRequestDetails !== true) {
    transcript.rows([
      ...queryRows(url),
      ...authorizationRows(exchange.requestHeaders.authorization),
      ...selectRows(requestBodyRows(exchange), options.requestFields, 'as above'),
    ])
  }
  if (exchange.status === undefined) {
    transcript.refused(`no response: ${exchange.failure ?? 'transport failure'}`)
    return
  }
  const contentType = exchange.responseHeaders?.get('content-type')?.split(';')[0]
  const cacheControl = exchange.responseHeaders?.get('cache-control')
  const details = [contentType, cacheControl ? `cache-control: ${cacheControl}` : undefined]
  transcript.response(exchange.status, details.filter(Boolean).join(', ') || undefined)
  // An error response is shown whole: its members are the explanation.
  const fields = exchange.status < 300 ? options.responseFields : undefined
  transcript.rows(responseRows(exchange.responseBody, fields))
}

/** Display rows for the members of a JSON object: secrets summarised, JWTs decoded below. */
export function memberRows(record: Readonly<Record<string, unknown>>): TranscriptRow[] {
  return Object.entries(record).map(([name, value]) => memberRow(name, value))
}

/** One member: JWTs get their decoded header and claims as child rows. */
export function memberRow(name: string, value: unknown): TranscriptRow {
  if (name === 'jwks') return { name, value: describeJwks(value) }
  const shown = displayValue(name, value)
  const decoded = typeof value === 'string' ? jwtRows(value) : undefined
  return decoded === undefined
    ? { name, value: shown }
    : { name, value: `${shown}, decoded, signature omitted:`, children: decoded }
}

/** The decoded header and claims of a compact JWS as rows, or `undefined` if it does not decode. */
export function jwtRows(jwt: string): TranscriptRow[] | undefined {
  const decoded = describeJwt(jwt)
  if (decoded === undefined) return undefined
  const { x5c, ...header } = decoded.header
  const rows: TranscriptRow[] = [{ name: 'header', value: compactJson(header) }]
  if (Array.isArray(x5c)) rows.push({ name: 'x5c', value: x5c.map(String).join(' › ') })
  for (const [name, value] of Object.entries(decoded.claims))
    rows.push(claimRow(name, value, decoded.claims, 0))
  return rows
}

/** How deep object claims (`extensions` › `hl7-b2b` › members) unfold into rows. */
const maximumClaimDepth = 2

function claimRow(
  name: string,
  value: unknown,
  claims: Record<string, unknown>,
  depth: number,
): TranscriptRow {
  if (isRecord(value) && depth < maximumClaimDepth) {
    return {
      name,
      value: '',
      children: Object.entries(value).map(([member, child]) =>
        claimRow(member, child, value, depth + 1),
      ),
    }
  }
  return { name, value: claimValue(name, value, claims) }
}

function claimValue(name: string, value: unknown, claims: Record<string, unknown>): string {
  if (typeof value === 'number' && (name === 'iat' || name === 'exp' || name === 'nbf')) {
    const time = new Date(value * 1000).toISOString().replace('.000Z', 'Z')
    const issuedAt = claims.iat
    return name === 'exp' && typeof issuedAt === 'number'
      ? `${time} (iat + ${value - issuedAt} s)`
      : time
  }
  return displayValue(name, value)
}

function bodyKind(exchange: RecordedExchange): string | undefined {
  const contentType = exchange.requestHeaders['content-type']
  if (exchange.requestBody === undefined || contentType === undefined) return undefined
  if (contentType.includes('x-www-form-urlencoded')) return 'form'
  if (contentType.includes('json')) return 'JSON'
  return contentType
}

function queryRows(url: URL): TranscriptRow[] {
  return [...url.searchParams].map(([name, value]) => memberRow(name, value))
}

function authorizationRows(authorization: string | undefined): TranscriptRow[] {
  if (authorization === undefined) return []
  const [scheme = '', credentials = ''] = authorization.split(' ', 2)
  if (scheme.toLowerCase() === 'basic') {
    return [
      {
        name: 'Authorization',
        value: `Basic [REDACTED] base64(client_id ":" client_secret), each form-urlencoded`,
        children: basicCredentialRows(credentials),
      },
    ]
  }
  return [{ name: 'Authorization', value: `${scheme} ${secretSummary(credentials)}` }]
}

function basicCredentialRows(credentials: string): TranscriptRow[] {
  const decoded = base64Decode(credentials)
  if (decoded === undefined) return []
  const pair = new TextDecoder().decode(decoded)
  const separator = pair.indexOf(':')
  if (separator < 0) return []
  return [
    { name: 'client_id', value: decodeFormComponent(pair.slice(0, separator)) },
    { name: 'client_secret', value: secretSummary(pair.slice(separator + 1)) },
  ]
}

function requestBodyRows(exchange: RecordedExchange): TranscriptRow[] {
  const body = exchange.requestBody
  if (body === undefined || body === '') return []
  if (bodyKind(exchange) === 'form') {
    return [...new URLSearchParams(body)].map(([name, value]) => memberRow(name, value))
  }
  const json = parseJson(body)
  if (isRecord(json)) return memberRows(json)
  return [{ name: 'body', value: `${body.length} bytes` }]
}

/** Keeps the rows named in `fields` (all when undefined) and names the others in one row. */
function selectRows(
  rows: readonly TranscriptRow[],
  fields: readonly string[] | undefined,
  othersNote: string,
): TranscriptRow[] {
  if (fields === undefined) return [...rows]
  const kept = rows.filter((row) => fields.includes(row.name))
  const others = rows.filter((row) => !fields.includes(row.name)).map((row) => row.name)
  if (others.length === 0) return kept
  return [...kept, { name: '…', value: `${others.join(', ')}: ${othersNote}` }]
}

function responseRows(
  body: string | undefined,
  fields: readonly string[] | undefined,
): TranscriptRow[] {
  if (body === undefined || body === '') return []
  const json = parseJson(body)
  if (!isRecord(json)) return [{ name: 'body', value: `${body.length} bytes, not a JSON object` }]
  if (fields === undefined) return memberRows(json)
  const shown = fields.filter((field) => field in json)
  const rows = shown.map((field) => memberRow(field, json[field]))
  const others = Object.keys(json).filter((name) => !shown.includes(name))
  if (others.length > 0) {
    const listed = others.map((name, index) => (index < others.length - 1 ? `${name},` : name))
    const [first = '', ...rest] = wrapList(listed, maximumValueLength, ' ')
    rows.push({ name: '…', value: `${others.length} more: ${first}`, continuation: rest })
  }
  return rows
}

function describeJwks(value: unknown): string {
  const keys = isRecord(value) && Array.isArray(value.keys) ? value.keys : []
  const described = keys.filter(isRecord).map((key) => {
    const curve = typeof key.crv === 'string' ? ` ${key.crv}` : ''
    const kid = typeof key.kid === 'string' ? ` kid ${key.kid}` : ''
    return `${String(key.kty)}${curve}${kid}`
  })
  const text = `${described.length} public key(s): ${described.join('; ')}`
  return text.length > maximumValueLength ? `${text.slice(0, maximumValueLength - 1)}…` : text
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
