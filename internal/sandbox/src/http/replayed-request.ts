import { IncomingMessage } from 'node:http'

/**
 * A copy of `original` whose body stream yields `body` again.
 *
 * The front reads every body (to record it, and to add `prompt=consent` to an authorize-POST
 * form) before oidc-provider sees the request; the provider then reads this copy as if it were
 * the wire. Method, URL, headers and socket are the original's; `content-length` is set to the
 * new body's length.
 */
export function replayRequest(original: IncomingMessage, body: Buffer): IncomingMessage {
  const copy = new IncomingMessage(original.socket)
  copy.method = original.method
  copy.url = original.url
  copy.httpVersion = original.httpVersion
  copy.httpVersionMajor = original.httpVersionMajor
  copy.httpVersionMinor = original.httpVersionMinor
  copy.headers = { ...original.headers }
  delete copy.headers['transfer-encoding']
  if (body.length > 0 || original.headers['content-length'] !== undefined) {
    copy.headers['content-length'] = String(body.length)
  }
  copy.rawHeaders = Object.entries(copy.headers).flatMap(([name, value]) =>
    Array.isArray(value) ? value.flatMap((item) => [name, item]) : [name, value ?? ''],
  )
  // The body is already in memory: reading must not touch the socket, which the original owns.
  copy._read = () => {}
  if (body.length > 0) copy.push(body)
  copy.push(null)
  copy.complete = true
  return copy
}
