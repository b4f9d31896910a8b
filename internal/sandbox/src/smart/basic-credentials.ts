import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

/**
 * How the token endpoint reads HTTP Basic client credentials: `'form-urlencoded'` as RFC 6749
 * §2.3.1 (and oidc-provider) do, `'raw'` as `base64(id:secret)` taken as it is.
 */
export type BasicAuthDecoding = 'form-urlencoded' | 'raw'

// RFC 6749 Appendix A: client-id and client-secret are *VSCHAR (printable ASCII).
const visibleAscii = /^[\x20-\x7E]*$/

/**
 * Client secrets oidc-provider cannot store. The provider holds secrets to RFC 6749's VSCHAR
 * rule, but servers in the field issue and accept others (non-ASCII): such a secret is
 * registered with the provider as an ASCII stand-in, and the front swaps the real secret for
 * its stand-in when a client presents it, after reading the credentials the way the sandbox's
 * {@link BasicAuthDecoding} says. Whether the client sent the right bytes is still judged.
 */
export class SecretStandIns {
  readonly #byClient = new Map<string, { readonly secret: string; readonly standIn: string }>()

  /** The secret to register with the provider for `clientId`: `secret` itself when it is VSCHAR. */
  register(clientId: string, secret: string): string {
    if (visibleAscii.test(secret)) return secret
    const standIn = `stand-in-${createHash('sha256').update(secret).digest('base64url')}`
    this.#byClient.set(clientId, { secret, standIn })
    return standIn
  }

  /** The secret the provider knows for a presented one. */
  standInFor(clientId: string, presented: string): string {
    const entry = this.#byClient.get(clientId)
    return entry !== undefined && entry.secret === presented ? entry.standIn : presented
  }

  get isEmpty(): boolean {
    return this.#byClient.size === 0
  }
}

/**
 * Reads the Basic credentials of a request to the provider as `decoding` says and hands them
 * on in the form the provider reads (each part form-urlencoded), with any stand-in applied.
 * Leaves the request alone when it has no Basic credentials, when nothing needs changing, or
 * when form-decoding fails (the provider then reports the malformed header itself).
 */
export function presentBasicCredentials(
  request: IncomingMessage,
  decoding: BasicAuthDecoding,
  standIns: SecretStandIns,
): void {
  if (decoding === 'form-urlencoded' && standIns.isEmpty) return
  const header = request.headers.authorization
  const match = header === undefined ? null : /^basic\s+(\S+)\s*$/i.exec(header)
  if (match?.[1] === undefined) return
  const credentials = Buffer.from(match[1], 'base64').toString('utf8')
  const colon = credentials.indexOf(':')
  if (colon < 0) return
  const read = (part: string) => (decoding === 'raw' ? part : formDecode(part))
  const clientId = read(credentials.slice(0, colon))
  const secret = read(credentials.slice(colon + 1))
  if (clientId === undefined || secret === undefined) return
  const handedOn = `${formEncode(clientId)}:${formEncode(standIns.standInFor(clientId, secret))}`
  request.headers.authorization = `Basic ${Buffer.from(handedOn, 'utf8').toString('base64')}`
  request.rawHeaders = Object.entries(request.headers).flatMap(([name, value]) =>
    Array.isArray(value) ? value.flatMap((item) => [name, item]) : [name, value ?? ''],
  )
}

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2)
}

/** As oidc-provider reads each part: `+` is a space, then percent-decoding; `undefined` if malformed. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, '%20'))
  } catch {
    return undefined
  }
}
