/**
 * `sendRequest`'s transport policy at its edges: which statuses are redirects, what each refusal
 * says, the body cap at its exact limit and the Content-Length pre-check, streams cancelled when
 * the cap or the deadline stops them, and the error names and codes that may travel in a cause.
 * Each case fails if its rule is dropped (see docs/testing.md, mutation testing).
 */
import { describe, expect, it } from 'vitest'
import { failureOf } from '../../../internal/test-utils/src/failure.js'
// By path: test-utils depends on core, so core cannot depend on it (a cycle in the workspace).
import { fakeFetch, jsonResponse } from '../../../internal/test-utils/src/fake-fetch.js'
import { type FetchLike, HttpError, sendRequest } from '../src/index.js'

const url = 'https://as.example.org/token'

const httpError = (promise: Promise<unknown>) => failureOf(promise, HttpError)

/** A fetch answering every call with `answer()`: for answers a real `Response` cannot be. */
function answering(answer: () => unknown): FetchLike {
  return async () => answer() as Response
}

/** A stream of `chunks`, recording whether it was cancelled and how many chunks were pulled. */
function recordedStream(chunks: readonly Uint8Array[], options: { endless?: boolean } = {}) {
  const state = { cancelled: false, pulled: 0 }
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[state.pulled]
      state.pulled++
      if (chunk !== undefined) controller.enqueue(chunk)
      else if (!options.endless) controller.close()
    },
    cancel() {
      state.cancelled = true
    },
  })
  return { stream, state }
}

const bytes = (text: string) => new TextEncoder().encode(text)

describe('sendRequest: which answers are redirects', () => {
  it.each([300, 399])('treats HTTP %i as a redirect', async (status) => {
    const fetch = fakeFetch({
      method: 'POST',
      url,
      respond: () => new Response(null, { status, headers: { location: '/elsewhere' } }),
    })
    const error = await httpError(sendRequest({ method: 'POST', url, form: {}, fetch }))
    expect(error).toMatchObject({ reason: 'redirect', status })
  })

  it.each([200, 299, 400, 401, 500])('returns HTTP %i with its body', async (status) => {
    const fetch = fakeFetch({
      method: 'GET',
      url,
      respond: () => jsonResponse({ status }, status, { location: 'https://elsewhere.example/' }),
    })
    const response = await sendRequest({ method: 'GET', url, fetch })
    expect(response).toMatchObject({ status, url, bodyText: JSON.stringify({ status }) })
  })

  it('reports the opaque redirect a browser gives for redirect: manual, even with a Location', async () => {
    const opaque = { type: 'opaqueredirect', status: 0, headers: new Headers(), body: null }
    const fetch = answering(() => ({ ...opaque, headers: new Headers({ location: '/x' }) }))
    const error = await httpError(sendRequest({ method: 'GET', url, fetch }))
    expect(error).toMatchObject({ reason: 'redirect', status: undefined })
    expect(error.message).toBe(
      `GET ${url} answered with a redirect (HTTP undefined): a redirect it cannot follow (no usable Location)`,
    )
  })

  it('says why each redirect is refused', async () => {
    const redirect = (location: string | undefined, status = 302) =>
      answering(() => new Response(null, { status, headers: location ? { location } : {} }))
    const post = await httpError(
      sendRequest({ method: 'POST', url, form: {}, fetch: redirect('/next', 307) }),
    )
    expect(post.message).toBe(
      `POST ${url} answered with a redirect (HTTP 307): POSTs are never re-sent`,
    )
    const missing = await httpError(sendRequest({ method: 'GET', url, fetch: redirect(undefined) }))
    expect(missing.message).toContain(
      '(HTTP 302): a redirect it cannot follow (no usable Location)',
    )
    const insecure = await httpError(
      sendRequest({ method: 'GET', url, fetch: redirect('http://as.example.org/x?code=secret') }),
    )
    expect(insecure.message).toContain(
      '(HTTP 302): http://as.example.org/x is refused by the HTTPS policy',
    )
    expect(insecure.message).not.toContain('secret')
    let hop = 0
    const endless = answering(
      () => new Response(null, { status: 302, headers: { location: `/hop/${++hop}` } }),
    )
    const many = await httpError(sendRequest({ method: 'GET', url, fetch: endless }))
    expect(many.message).toContain('(HTTP 302): more than 5 redirects')
    expect(many.url).toBe('https://as.example.org/hop/5')
  })

  it('refuses a redirect to loopback HTTP unless allowInsecureLocalhost is set', async () => {
    const toLoopback = () =>
      fakeFetch({
        method: 'GET',
        url,
        respond: () =>
          new Response(null, { status: 302, headers: { location: 'http://127.0.0.1:9/x' } }),
      })
    const refused = await httpError(sendRequest({ method: 'GET', url, fetch: toLoopback() }))
    expect(refused.reason).toBe('redirect')
    const fetch = fakeFetch(
      {
        method: 'GET',
        url,
        respond: () =>
          new Response(null, { status: 302, headers: { location: 'http://127.0.0.1:9/x' } }),
      },
      { method: 'GET', url: 'http://127.0.0.1:9/x', respond: () => jsonResponse({}) },
    )
    const followed = await sendRequest({ method: 'GET', url, fetch, allowInsecureLocalhost: true })
    expect(followed.url).toBe('http://127.0.0.1:9/x')
  })

  it('cancels the body of a redirect it follows', async () => {
    const { stream, state } = recordedStream([bytes('moved')])
    const fetch = fakeFetch(
      {
        method: 'GET',
        url,
        respond: () => new Response(stream, { status: 302, headers: { location: '/new' } }),
      },
      { method: 'GET', url: 'https://as.example.org/new', respond: () => jsonResponse({}) },
    )
    await sendRequest({ method: 'GET', url, fetch })
    expect(state.cancelled).toBe(true)
  })
})

describe('sendRequest: the request it sends', () => {
  it('lower-cases header names, so a caller header replaces the default', async () => {
    const seen: RequestInit[] = []
    const fetch: FetchLike = async (_url, init) => {
      seen.push(init)
      return jsonResponse({})
    }
    await sendRequest({ method: 'GET', url, fetch, headers: { Accept: 'application/jwt' } })
    expect(seen[0]?.headers).toEqual({ accept: 'application/jwt' })
  })

  it('sends a GET without a body or content type', async () => {
    const seen: RequestInit[] = []
    const fetch: FetchLike = async (_url, init) => {
      seen.push(init)
      return jsonResponse({})
    }
    await sendRequest({ method: 'GET', url, fetch })
    expect(seen[0]).toMatchObject({ method: 'GET', body: null, redirect: 'manual' })
    expect(seen[0]?.headers).toEqual({ accept: 'application/json' })
  })

  it('stops its timer once the answer is read: the signal it gave fetch never fires later', async () => {
    const seen: RequestInit[] = []
    const caller = new AbortController()
    const fetch: FetchLike = async (_url, init) => {
      seen.push(init)
      return jsonResponse({})
    }
    await sendRequest({ method: 'GET', url, fetch, timeoutMs: 20, signal: caller.signal })
    caller.abort()
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(seen[0]?.signal?.aborted).toBe(false)
  })
})

describe('sendRequest: what each refusal says', () => {
  it('names the policy that refused a URL, without its query', async () => {
    const relative = await httpError(
      sendRequest({ method: 'GET', url: '/token', fetch: fakeFetch() }),
    )
    expect(relative.message).toBe(
      'GET (invalid URL) refused: not an absolute URL without user info',
    )
    // A discovered endpoint with credentials in it is never fetched (nor its credentials logged).
    let fetched = 0
    const withUserInfo = await httpError(
      sendRequest({
        method: 'POST',
        url: 'https://u:secret-pass@auth.example.org/token',
        form: { grant_type: 'refresh_token' },
        fetch: async () => {
          fetched += 1
          return jsonResponse({})
        },
      }),
    )
    expect(withUserInfo.reason).toBe('invalid-url')
    expect(JSON.stringify([withUserInfo.message, withUserInfo.url])).not.toContain('secret-pass')
    expect(fetched).toBe(0)
    const refusedHttp = async (url: string, allowInsecureLocalhost: boolean) =>
      (
        await httpError(
          sendRequest({ method: 'GET', url, fetch: fakeFetch(), allowInsecureLocalhost }),
        )
      ).message
    // The option is named only where it would help: a loopback host without it.
    expect(await refusedHttp('http://127.0.0.1:9/t?x=1', false)).toBe(
      'GET http://127.0.0.1:9/t refused: HTTPS is required (loopback HTTP needs allowInsecureLocalhost)',
    )
    for (const allowInsecureLocalhost of [false, true]) {
      expect(await refusedHttp('http://as.example.org/t?x=1', allowInsecureLocalhost)).toBe(
        'GET http://as.example.org/t refused: HTTPS is required (plain HTTP is allowed only to a loopback host)',
      )
    }
  })

  it('says a JSON body cannot be serialised', async () => {
    const error = await httpError(
      sendRequest({ method: 'POST', url, json: { n: 1n }, fetch: fakeFetch() }),
    )
    expect(error.message).toBe(`POST ${url} refused: the JSON body cannot be serialised`)
    expect(error.cause).toBeUndefined()
  })

  it('says the caller aborted', async () => {
    const error = await httpError(
      sendRequest({ method: 'GET', url, fetch: fakeFetch(), signal: AbortSignal.abort() }),
    )
    expect(error.message).toBe(`GET ${url} was aborted by the caller`)
  })

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a number', 200],
    ['an object without status', { headers: new Headers() }],
    ['an object without headers', { status: 200 }],
    ['headers without get()', { status: 200, headers: {} }],
    ['null headers', { status: 200, headers: null }],
  ])('refuses a fetch that resolves to %s', async (_label, answer) => {
    const error = await httpError(
      sendRequest({ method: 'GET', url, fetch: answering(() => answer) }),
    )
    expect(error.reason).toBe('network')
    expect(error.message).toBe(`GET ${url} failed: fetch did not return a Response`)
  })
})

describe('sendRequest: the body and its cap', () => {
  it('accepts a body of exactly the cap, by Content-Length and by bytes read', async () => {
    const fetch = fakeFetch({
      method: 'GET',
      url,
      respond: () => new Response('x'.repeat(10), { headers: { 'content-length': '10' } }),
    })
    const response = await sendRequest({ method: 'GET', url, fetch, maxResponseBytes: 10 })
    expect(response.bodyText).toBe('x'.repeat(10))
  })

  it('refuses by Content-Length before reading, and cancels the body', async () => {
    const { stream, state } = recordedStream([bytes('x')])
    const fetch = fakeFetch({
      method: 'GET',
      url,
      respond: () => new Response(stream, { status: 201, headers: { 'content-length': '11' } }),
    })
    const error = await httpError(sendRequest({ method: 'GET', url, fetch, maxResponseBytes: 10 }))
    expect(error).toMatchObject({ reason: 'too-large', status: 201 })
    expect(error.message).toBe(`GET ${url} response body exceeds 10 bytes`)
    expect(state.pulled).toBeLessThanOrEqual(1)
    expect(state.cancelled).toBe(true)
  })

  it('stops reading a stream over the cap, cancels it, and refuses it', async () => {
    const { stream, state } = recordedStream([bytes('12345'), bytes('67890'), bytes('!')], {
      endless: true,
    })
    const fetch = fakeFetch({ method: 'GET', url, respond: () => new Response(stream) })
    const error = await httpError(sendRequest({ method: 'GET', url, fetch, maxResponseBytes: 10 }))
    expect(error.reason).toBe('too-large')
    expect(state.cancelled).toBe(true)
  })

  it('accepts a stream of exactly the cap, read to its end without cancelling', async () => {
    const { stream, state } = recordedStream([bytes('12345'), bytes('67890')])
    const fetch = fakeFetch({ method: 'GET', url, respond: () => new Response(stream) })
    const response = await sendRequest({ method: 'GET', url, fetch, maxResponseBytes: 10 })
    expect(response.bodyText).toBe('1234567890')
    expect(state.cancelled).toBe(false)
  })

  it('joins chunks before decoding, so a character split across chunks survives', async () => {
    const euro = bytes('€') // three bytes
    const { stream } = recordedStream([
      bytes('price: '),
      euro.slice(0, 1),
      euro.slice(1),
      bytes('5'),
    ])
    const fetch = fakeFetch({ method: 'GET', url, respond: () => new Response(stream) })
    expect((await sendRequest({ method: 'GET', url, fetch })).bodyText).toBe('price: €5')
  })

  it('cancels a stream the deadline stopped', async () => {
    const { stream, state } = recordedStream([bytes('{"partial":')], { endless: true })
    const fetch = fakeFetch({ method: 'GET', url, respond: () => new Response(stream) })
    const error = await httpError(sendRequest({ method: 'GET', url, fetch, timeoutMs: 50 }))
    expect(error.reason).toBe('timeout')
    expect(state.cancelled).toBe(true)
  })

  it('reports a stream that fails as a network error with the status, not a timeout', async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new TypeError('terminated'))
      },
    })
    const fetch = fakeFetch({
      method: 'GET',
      url,
      respond: () => new Response(stream, { status: 503 }),
    })
    const error = await httpError(sendRequest({ method: 'GET', url, fetch }))
    expect(error).toMatchObject({ reason: 'network', status: 503 })
    expect(error.message).toBe(`GET ${url} failed reading the response: network error`)
  })

  it('reads a body without a stream as empty', async () => {
    const fetch = answering(() => ({ status: 204, headers: new Headers(), body: null }))
    expect((await sendRequest({ method: 'GET', url, fetch })).bodyText).toBe('')
    const noBody = answering(() => ({ status: 200, headers: new Headers() }))
    expect((await sendRequest({ method: 'GET', url, fetch: noBody })).bodyText).toBe('')
  })

  it('reads a polyfilled body (no getReader) whole, then applies the cap', async () => {
    const polyfilled = (text: string) => ({
      status: 200,
      headers: new Headers(),
      body: { pipe() {} },
      arrayBuffer: async () => bytes(text).buffer,
    })
    const small = answering(() => polyfilled('{"ok":true}'))
    expect((await sendRequest({ method: 'GET', url, fetch: small })).bodyText).toBe('{"ok":true}')
    const large = answering(() => polyfilled('x'.repeat(11)))
    const error = await httpError(
      sendRequest({ method: 'GET', url, fetch: large, maxResponseBytes: 10 }),
    )
    expect(error.reason).toBe('too-large')
  })
})

describe('sendRequest: what a transport error may say', () => {
  /** The network error for `thrown`, and its cause. */
  async function networkError(thrown: unknown): Promise<{ error: HttpError; cause: Error }> {
    const fetch: FetchLike = async () => {
      throw thrown
    }
    const error = await httpError(sendRequest({ method: 'GET', url, fetch }))
    expect(error.reason).toBe('network')
    return { error, cause: error.cause as Error }
  }

  it('keeps an error name of letters, and a code shaped like one', async () => {
    const { error, cause } = await networkError(
      Object.assign(new Error('socket closed: code=secret'), {
        name: 'SocketError',
        code: 'UND_ERR_SOCKET',
      }),
    )
    expect(error.message).toBe(`GET ${url} failed: UND_ERR_SOCKET`)
    expect(cause.name).toBe('SocketError')
    expect(cause.message).toBe('SocketError (UND_ERR_SOCKET)')
    expect(Object.entries(cause)).toContainEqual(['code', 'UND_ERR_SOCKET'])
  })

  it.each([
    ['ENOTFOUND', 'the host name could not be resolved'],
    ['EAI_AGAIN', 'the host name could not be resolved (DNS did not answer)'],
    ['ECONNREFUSED', 'the connection was refused'],
    ['ECONNRESET', 'the connection was reset'],
    ['ETIMEDOUT', 'the connection timed out'],
    ['EHOSTUNREACH', 'the host is unreachable'],
    ['ENETUNREACH', 'the network is unreachable'],
    ['CERT_HAS_EXPIRED', 'the server’s TLS certificate has expired'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'the server’s TLS certificate is self-signed'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'the server’s TLS certificate chain is not trusted'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'the server’s TLS certificate chain is not trusted'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'the server’s TLS certificate does not name this host'],
  ])('says what %s means in Node, and shows the bare code in a browser', async (code, meaning) => {
    const { error } = await networkError(
      Object.assign(new TypeError('fetch failed'), { cause: { code } }),
    )
    // Browser builds carry no table of Node's codes (`#network-code-meanings`, ADR 0012): a
    // browser's fetch never reports one, so one that does appear is shown as it is.
    const inChromium = typeof navigator !== 'undefined' && /Chrome\//.test(navigator.userAgent)
    const described = inChromium ? code : `${meaning} (${code})`
    expect(error.message).toBe(`GET ${url} failed: ${described}`)
  })

  it('reads the code from the cause, as undici reports it', async () => {
    const { cause } = await networkError(
      Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }),
    )
    expect(cause.message).toBe('TypeError (ECONNREFUSED)')
  })

  it('says "network error" for a plain TypeError or Error, and the name otherwise', async () => {
    expect((await networkError(new TypeError('fetch failed'))).error.message).toBe(
      `GET ${url} failed: network error`,
    )
    expect((await networkError(new Error('x'))).error.message).toBe(
      `GET ${url} failed: network error`,
    )
    const named = await networkError(Object.assign(new Error('x'), { name: 'ConnectTimeoutError' }))
    expect(named.error.message).toBe(`GET ${url} failed: ConnectTimeoutError`)
    expect(named.cause.message).toBe('ConnectTimeoutError')
    expect(named.cause).not.toHaveProperty('code')
  })

  it.each([
    ['a name with spaces', { name: 'Bad Name' }],
    ['a name with digits', { name: 'Error2' }],
    ['a name that starts like one', { name: 'TypeError: code=secret-value' }],
    ['a name that ends like one', { name: 'secret-value TypeError' }],
    ['a name too long', { name: 'E'.repeat(41) }],
  ])('drops %s', async (_label, fields) => {
    const { error, cause } = await networkError(Object.assign(new Error('x'), fields))
    expect(cause.name).toBe('Error')
    expect(error.message).toBe(`GET ${url} failed: network error`)
  })

  it('does not take a name from something that is not an Error', async () => {
    const { cause } = await networkError({ name: 'TypeError', message: 'fake' })
    expect(cause.name).toBe('Error')
  })

  it.each([
    ['lower case', 'econnrefused'],
    ['a code inside text', 'see ECONNREFUSED here'],
    ['a code followed by text', 'ECONNREFUSED secret-value'],
    ['text followed by a code', 'secret-value ECONNREFUSED'],
    ['a number', 61],
    ['not a string, though it prints as one', ['ECONNREFUSED']],
  ])('drops a code that is %s', async (_label, code) => {
    const { error, cause } = await networkError(Object.assign(new TypeError('x'), { code }))
    expect(cause).not.toHaveProperty('code')
    expect(cause.message).toBe('TypeError')
    expect(error.message).toBe(`GET ${url} failed: network error`)
  })

  it('survives a thrown value whose getters throw', async () => {
    const hostile = new Proxy(new Error('x'), {
      get() {
        throw new Error('getter trap')
      },
    })
    const { cause } = await networkError(hostile)
    expect(cause.name).toBe('Error')
    expect(cause.message).toBe('Error')
  })

  it('gives an error that has no cause none', async () => {
    const error = await httpError(
      sendRequest({ method: 'GET', url: 'http://as.example.org/', fetch: fakeFetch() }),
    )
    expect(error.cause).toBeUndefined()
  })
})
