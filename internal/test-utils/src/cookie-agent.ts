/**
 * A minimal browser stand-in for the app's own origin: keeps the cookies the app sets and
 * sends them back, and does not follow redirects, so each test sees every hop.
 */
export class CookieAgent {
  readonly #cookies = new Map<string, string>()
  /** The raw `Set-Cookie` headers received, newest last. */
  readonly setCookieHeaders: string[] = []

  async get(url: string | URL): Promise<Response> {
    return this.#send(url, 'GET')
  }

  /** A form post without a body, e.g. a sign-out button. */
  async post(url: string | URL): Promise<Response> {
    return this.#send(url, 'POST')
  }

  /** The value of the cookie `name` this agent holds, if any. */
  cookie(name: string): string | undefined {
    return this.#cookies.get(name)
  }

  async #send(url: string | URL, method: 'GET' | 'POST'): Promise<Response> {
    const cookie = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      headers: cookie ? { cookie } : {},
      signal: AbortSignal.timeout(10_000),
    })
    for (const header of response.headers.getSetCookie()) {
      this.setCookieHeaders.push(header)
      const [pair = ''] = header.split(';')
      const separator = pair.indexOf('=')
      const name = pair.slice(0, separator).trim()
      // A cookie set to expire now is removed, as a browser does.
      if (/;\s*Max-Age=0\s*(?:;|$)/i.test(header)) this.#cookies.delete(name)
      else this.#cookies.set(name, pair.slice(separator + 1).trim())
    }
    return response
  }

  forget(): void {
    this.#cookies.clear()
  }
}
