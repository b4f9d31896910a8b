/**
 * A minimal browser stand-in for the app's own origin: keeps the cookies the app sets and
 * sends them back, and does not follow redirects, so each test sees every hop.
 */
export class CookieAgent {
  readonly #cookies = new Map<string, string>()
  /** The raw `Set-Cookie` headers received, newest last. */
  readonly setCookieHeaders: string[] = []

  async get(url: string | URL): Promise<Response> {
    const cookie = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    const response = await fetch(url, {
      redirect: 'manual',
      headers: cookie ? { cookie } : {},
      signal: AbortSignal.timeout(10_000),
    })
    for (const header of response.headers.getSetCookie()) {
      this.setCookieHeaders.push(header)
      const [pair = ''] = header.split(';')
      const separator = pair.indexOf('=')
      this.#cookies.set(pair.slice(0, separator).trim(), pair.slice(separator + 1).trim())
    }
    return response
  }

  forget(): void {
    this.#cookies.clear()
  }
}
