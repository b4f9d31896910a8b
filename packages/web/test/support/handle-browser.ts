/**
 * A browser stand-in that talks to `web.handle` directly (no HTTP): keeps the cookies the app
 * sets, sends them back, follows no redirect, and keeps every response's status, headers and
 * body so a test can scan them all for secrets. Portable: no `node:` module.
 */
import type { SmartWebApp } from '../../src/index.js'
import { authorizeAt, createLaunch, type Ehr } from './driver.js'

/** A response as the browser saw it, its body read. */
export interface SeenResponse {
  readonly status: number
  readonly headers: Headers
  readonly body: string
}

export class HandleBrowser {
  readonly #cookies = new Map<string, string>()
  /** Every response received, oldest first. */
  readonly seen: SeenResponse[] = []

  readonly web: SmartWebApp
  readonly origin: string

  constructor(web: SmartWebApp, origin = 'https://app.example') {
    this.web = web
    this.origin = origin
  }

  /** The `Cookie` header this browser sends (`undefined` without cookies). */
  get cookieHeader(): string | undefined {
    if (this.#cookies.size === 0) return undefined
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }

  /** The value of cookie `name`, if this browser holds it. */
  cookie(name: string): string | undefined {
    return this.#cookies.get(name)
  }

  /** Sets a cookie as another site (or an attacker) could have. */
  plant(name: string, value: string): void {
    this.#cookies.set(name, value)
  }

  /** The `Request` this browser would send for `path` (a path on the origin, or a URL). */
  request(path: string, method = 'GET'): Request {
    const cookie = this.cookieHeader
    return new Request(new URL(path, this.origin), {
      method,
      headers: cookie === undefined ? {} : { cookie },
    })
  }

  /** Sends a request through `web.handle`; `undefined` when the app left the path alone. */
  async send(path: string, method = 'GET'): Promise<SeenResponse | undefined> {
    const response = await this.web.handle(this.request(path, method))
    if (response === undefined) return undefined
    const seen = { status: response.status, headers: response.headers, body: await response.text() }
    this.seen.push(seen)
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';')
      const separator = pair.indexOf('=')
      const name = pair.slice(0, separator)
      const value = pair.slice(separator + 1)
      if (/Max-Age=0(?:;|$)/.test(header)) this.#cookies.delete(name)
      else this.#cookies.set(name, value)
    }
    return seen
  }

  /** Like {@link send}, for a path the app must answer. */
  async must(path: string, method = 'GET'): Promise<SeenResponse> {
    const seen = await this.send(path, method)
    if (seen === undefined) throw new Error(`the app did not answer ${method} ${path}`)
    return seen
  }

  /**
   * Begins a launch (`/launch` with a fresh EHR launch value, or `/login`), plays the user at
   * the sandbox and returns the callback path the sandbox redirected to, not yet sent.
   */
  async launchUntilCallback(
    ehr: Ehr,
    iss: string,
    kind: 'launch' | 'login' = 'launch',
    decision: 'approve' | 'deny' = 'approve',
  ): Promise<string> {
    const path =
      kind === 'launch'
        ? `/launch?iss=${encodeURIComponent(iss)}&launch=${encodeURIComponent(await createLaunch(ehr))}`
        : `/login?iss=${encodeURIComponent(iss)}`
    const started = await this.must(path)
    if (started.status !== 302)
      throw new Error(`launch answered ${started.status}: ${started.body}`)
    const callback = new URL(
      await authorizeAt(started.headers.get('location') ?? '', { ehr, decision }),
    )
    return `${callback.pathname}${callback.search}`
  }
}
