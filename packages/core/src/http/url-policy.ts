/**
 * True for loopback hosts: `localhost`, any IPv4 address in 127.0.0.0/8, and IPv6 `::1`.
 * Takes a WHATWG URL `hostname` (lowercased, IPv6 in brackets).
 */
export function isLoopbackHostname(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true
  const octets = hostname.split('.')
  return (
    octets.length === 4 &&
    octets[0] === '127' &&
    octets.every((octet) => /^\d{1,3}$/.test(octet) && Number(octet) <= 255)
  )
}

/** Parses an absolute URL; `undefined` for relative or malformed input. */
export function parseAbsoluteUrl(value: string): URL | undefined {
  if (!URL.canParse(value)) return undefined
  return new URL(value)
}

/** Why a URL is not usable for a request, or `undefined` when it is. */
export type UrlProblem = 'invalid-url' | 'insecure-url'

/**
 * Checks a URL against the transport policy: HTTPS, or HTTP to a loopback host when
 * `allowInsecureLocalhost` is set (an explicit development policy). Anything else —
 * `javascript:`, `data:`, `file:`, plain HTTP to another host — is refused.
 *
 * @returns `undefined` when usable, else the problem.
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0003-http-policy.md
 */
export function checkUrl(value: string, allowInsecureLocalhost: boolean): UrlProblem | undefined {
  const url = parseAbsoluteUrl(value)
  if (url === undefined) return 'invalid-url'
  if (url.protocol === 'https:' && url.hostname !== '') return undefined
  if (url.protocol === 'http:' && allowInsecureLocalhost && isLoopbackHostname(url.hostname)) {
    return undefined
  }
  return 'insecure-url'
}

/** True when {@link checkUrl} finds no problem. */
export function isUsableUrl(value: string, allowInsecureLocalhost: boolean): boolean {
  return checkUrl(value, allowInsecureLocalhost) === undefined
}
