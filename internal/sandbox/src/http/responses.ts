import type { ServerResponse } from 'node:http'

/** Sends `body` as JSON with the given status and extra headers. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
  contentType = 'application/json',
): void {
  const text = JSON.stringify(body)
  response.writeHead(status, {
    'content-type': `${contentType}; charset=utf-8`,
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  })
  response.end(text)
}

/** Sends a text body with an explicit content type (used for deliberately broken responses). */
export function sendText(
  response: ServerResponse,
  status: number,
  contentType: string,
  body: string,
): void {
  response.writeHead(status, {
    'content-type': contentType,
    'content-length': String(Buffer.byteLength(body)),
  })
  response.end(body)
}
