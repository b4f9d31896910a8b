/** A response read once: status, headers and the parsed JSON body (or `undefined`). */
export interface JsonReply {
  readonly status: number
  readonly headers: Headers
  readonly body: Record<string, unknown>
}

/** POSTs an `application/x-www-form-urlencoded` body and reads the JSON reply. */
export async function postForm(
  url: string,
  form: Readonly<Record<string, string>>,
  headers: Readonly<Record<string, string>> = {},
): Promise<JsonReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  })
  return readJson(response)
}

/** POSTs a JSON body and reads the JSON reply. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): Promise<JsonReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
  return readJson(response)
}

/** GETs a URL and reads the JSON reply. */
export async function getJson(
  url: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<JsonReply> {
  return readJson(await fetch(url, { headers }))
}

async function readJson(response: Response): Promise<JsonReply> {
  const text = await response.text()
  let body: Record<string, unknown> = {}
  if (text !== '') body = JSON.parse(text) as Record<string, unknown>
  return { status: response.status, headers: response.headers, body }
}

/** HTTP Basic credentials with both parts form-encoded first (RFC 6749 §2.3.1). */
export function basicAuthorization(clientId: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+')
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(secret)}`).toString('base64')}`
}
