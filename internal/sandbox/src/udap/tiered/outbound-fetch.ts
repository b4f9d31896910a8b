import { parseJsonObject } from '../../http/body-format.js'

/** Outgoing requests of a data holder give up after this long. */
const timeoutMs = 5_000
/** JSON answers larger than this are refused. */
const maximumBodyBytes = 1024 * 1024
const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** A JSON answer of an outgoing request. */
export interface OutboundAnswer {
  readonly status: number
  /** The body when it was a JSON object, else `undefined`. */
  readonly json: Record<string, unknown> | undefined
}

/** Why an outgoing request was not made or failed. */
export class OutboundRequestError extends Error {}

/**
 * Whether the sandbox may contact `url`: http(s) on a loopback host. The sandbox never
 * reaches other machines, so an IdP elsewhere is simply unreachable (`invalid_idp`).
 */
export function isLoopbackUrl(url: URL): boolean {
  return (url.protocol === 'http:' || url.protocol === 'https:') && loopbackHosts.has(url.hostname)
}

/**
 * A request from the sandbox (as Tiered OAuth data holder) to an IdP: loopback only, no
 * redirects followed, 5 s timeout, JSON body of at most 1 MiB.
 *
 * @throws {OutboundRequestError} the URL is not loopback, or the request failed or timed out.
 */
export async function fetchJson(url: string, init: RequestInit = {}): Promise<OutboundAnswer> {
  const target = URL.canParse(url) ? new URL(url) : undefined
  if (target === undefined || !isLoopbackUrl(target)) {
    throw new OutboundRequestError(`${url} is not a loopback URL the sandbox may contact`)
  }
  let response: Response
  try {
    response = await fetch(target, {
      ...init,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    })
  } catch (cause) {
    throw new OutboundRequestError(`the request to ${target.href} failed`, { cause })
  }
  const text = await response.text().catch(() => '')
  const json = Buffer.byteLength(text) > maximumBodyBytes ? undefined : parseJsonObject(text)
  return { status: response.status, json }
}
