import { describe, expect, inject, it } from 'vitest'
// By path: test-utils depends on core, so core cannot depend on it (a cycle in the workspace).
import { type ExpectedRequest, fakeFetch } from '../../../internal/test-utils/src/fake-fetch.js'
import {
  defaultTimeoutMs,
  type FetchLike,
  HttpError,
  parseJsonBody,
  parseJsonObjectBody,
  sendRequest,
  tryParseJsonBody,
} from '../src/index.js'

async function httpError(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError)
    return error as HttpError
  }
  throw new Error('expected an HttpError')
}

/** An expectation of the shared fake fetch answering `respond`. */
function answer(
  method: ExpectedRequest['method'],
  url: string,
  respond: ExpectedRequest['respond'],
): ExpectedRequest {
  return { method, url, respond }
}

describe('sendRequest with an injected fetch', () => {
  it('sends Accept: application/json, redirect manual, and form bodies with their content type', async () => {
    const fetch = fakeFetch({
      method: 'POST',
      url: 'https://as.example.org/token',
      headers: { accept: 'application/json', authorization: 'Basic x' },
      form: { grant_type: 'authorization_code', code: 'a b+c' },
      respond: () => new Response('{"ok":true}', { status: 200 }),
    })
    const response = await sendRequest({
      method: 'POST',
      url: 'https://as.example.org/token',
      form: { grant_type: 'authorization_code', code: 'a b+c', skipped: undefined },
      headers: { Authorization: 'Basic x' },
      fetch,
    })
    expect(response.status).toBe(200)
    expect(response.bodyText).toBe('{"ok":true}')
    expect(fetch.calls[0]?.bodyText).toBe('grant_type=authorization_code&code=a+b%2Bc')
  })

  it('encodes JSON bodies with their content type', async () => {
    const fetch = fakeFetch({
      method: 'POST',
      url: 'https://as.example.org/reg',
      json: { client_name: 'x' },
      respond: () => new Response('{}', { status: 201 }),
    })
    const response = await sendRequest({
      method: 'POST',
      url: 'https://as.example.org/reg',
      json: { client_name: 'x' },
      fetch,
    })
    expect(response.status).toBe(201)
    expect(fetch.calls[0]?.bodyText).toBe('{"client_name":"x"}')
  })

  it.each([
    ['http://as.example.org/token', false, 'insecure-url'],
    ['http://127.0.0.1/token', false, 'insecure-url'],
    ['javascript:alert(1)', true, 'insecure-url'],
    ['data:application/json,{}', true, 'insecure-url'],
    ['/relative', true, 'invalid-url'],
  ] as const)(
    'refuses %s (allowInsecureLocalhost %s) before calling fetch',
    async (url, allow, reason) => {
      const fetch = fakeFetch()
      const error = await httpError(
        sendRequest({ method: 'GET', url, fetch, allowInsecureLocalhost: allow }),
      )
      expect(error.reason).toBe(reason)
      expect(fetch.calls).toHaveLength(0)
    },
  )

  it('allows loopback HTTP under allowInsecureLocalhost', async () => {
    const fetch = fakeFetch(answer('GET', 'http://127.0.0.1:9/x', () => new Response('{}')))
    const response = await sendRequest({
      method: 'GET',
      url: 'http://127.0.0.1:9/x',
      fetch,
      allowInsecureLocalhost: true,
    })
    expect(response.status).toBe(200)
  })

  it.each([301, 302, 303, 307, 308])(
    'treats a %i answer to a POST as an error and never re-sends',
    async (status) => {
      const fetch = fakeFetch(
        answer(
          'POST',
          'https://as.example.org/token',
          () =>
            new Response(null, {
              status,
              headers: { location: 'https://as.example.org/elsewhere' },
            }),
        ),
      )
      const error = await httpError(
        sendRequest({ method: 'POST', url: 'https://as.example.org/token', form: {}, fetch }),
      )
      expect(error.reason).toBe('redirect')
      expect(error.status).toBe(status)
      expect(fetch.calls).toHaveLength(1)
    },
  )

  it('follows GET redirects to HTTPS, resolving relative locations', async () => {
    const fetch = fakeFetch(
      answer(
        'GET',
        'https://ehr.example.org/old',
        () => new Response(null, { status: 302, headers: { location: '/new' } }),
      ),
      answer('GET', 'https://ehr.example.org/new', () => new Response('{"moved":true}')),
    )
    const response = await sendRequest({ method: 'GET', url: 'https://ehr.example.org/old', fetch })
    expect(response.url).toBe('https://ehr.example.org/new')
    expect(response.bodyText).toBe('{"moved":true}')
  })

  it('refuses a GET redirect to plain HTTP', async () => {
    const fetch = fakeFetch(
      answer(
        'GET',
        'https://ehr.example.org/x',
        () =>
          new Response(null, { status: 301, headers: { location: 'http://ehr.example.org/x' } }),
      ),
    )
    const error = await httpError(
      sendRequest({ method: 'GET', url: 'https://ehr.example.org/x', fetch }),
    )
    expect(error.reason).toBe('redirect')
    expect(fetch.calls).toHaveLength(1)
  })

  it('stops after five redirects', async () => {
    // The first request and five redirects are fetched; the sixth redirect is refused.
    const hops = [0, 1, 2, 3, 4, 5].map((hop) =>
      answer(
        'GET',
        `https://ehr.example.org/${hop}`,
        () =>
          new Response(null, {
            status: 302,
            headers: { location: `https://ehr.example.org/${hop + 1}` },
          }),
      ),
    )
    const fetch = fakeFetch(...hops)
    const error = await httpError(
      sendRequest({ method: 'GET', url: 'https://ehr.example.org/0', fetch }),
    )
    expect(error.reason).toBe('redirect')
    expect(fetch.calls).toHaveLength(6)
  })

  it('reports a redirect without Location', async () => {
    const fetch = fakeFetch(
      answer('GET', 'https://e.example/x', () => new Response(null, { status: 302 })),
    )
    expect(
      (await httpError(sendRequest({ method: 'GET', url: 'https://e.example/x', fetch }))).reason,
    ).toBe('redirect')
  })

  it('wraps a rejecting fetch as a network error without the request body', async () => {
    const fetch: FetchLike = async (_url, init) => {
      throw Object.assign(new TypeError(`fetch failed for body ${String(init.body)}`), {
        cause: { code: 'ECONNREFUSED' },
      })
    }
    const error = await httpError(
      sendRequest({
        method: 'POST',
        url: 'https://as.example.org/token?x=secret-query',
        form: { client_secret: 'hunter2' },
        fetch,
      }),
    )
    expect(error.reason).toBe('network')
    expect(error.message).toContain('ECONNREFUSED')
    expect(error.url).toBe('https://as.example.org/token')
    expect(JSON.stringify(error)).not.toContain('secret-query')
    expect(String((error.cause as Error).message)).not.toContain('secret-query')
  })

  it.each([
    ['ENOTFOUND', 'the host name could not be resolved (ENOTFOUND)'],
    ['EAI_AGAIN', 'the host name could not be resolved (DNS did not answer) (EAI_AGAIN)'],
    ['ECONNREFUSED', 'the connection was refused (ECONNREFUSED)'],
    ['ESOMETHINGNEW', 'failed: ESOMETHINGNEW'],
  ])('says what the transport error %s means (in a browser: the bare code)', async (code, text) => {
    const fetch: FetchLike = async () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code } })
    }
    const error = await httpError(
      sendRequest({ method: 'GET', url: 'https://unknown-host.invalid/fhir', fetch }),
    )
    // Browser builds carry no table of Node's codes (`#network-code-meanings`).
    const inChromium = typeof navigator !== 'undefined' && /Chrome\//.test(navigator.userAgent)
    expect(error.message).toBe(
      `GET https://unknown-host.invalid/fhir failed: ${inChromium ? code : text.replace(/^failed: /, '')}`,
    )
  })

  it('names the option only when it would help: loopback HTTP without allowInsecureLocalhost', async () => {
    const refused = async (url: string, allowInsecureLocalhost: boolean) =>
      (await httpError(sendRequest({ method: 'GET', url, allowInsecureLocalhost }))).message
    expect(await refused('http://127.0.0.1:9/x', false)).toMatch(
      /HTTPS is required \(loopback HTTP needs allowInsecureLocalhost\)$/,
    )
    for (const allowInsecureLocalhost of [false, true]) {
      const message = await refused('http://ehr.example.org/x', allowInsecureLocalhost)
      expect(message).toMatch(/plain HTTP is allowed only to a loopback host/)
      expect(message).not.toMatch(/needs allowInsecureLocalhost/)
    }
  })

  it('wraps a fetch that throws synchronously', async () => {
    const fetch: FetchLike = () => {
      throw new Error('sync boom')
    }
    expect(
      (await httpError(sendRequest({ method: 'GET', url: 'https://e.example/x', fetch }))).reason,
    ).toBe('network')
  })

  it('times out a fetch that never settles, even one ignoring its signal', async () => {
    const fetch: FetchLike = () => new Promise<Response>(() => {})
    const error = await httpError(
      sendRequest({ method: 'GET', url: 'https://e.example/x', fetch, timeoutMs: 50 }),
    )
    expect(error.reason).toBe('timeout')
    expect(error.message).toContain('timed out after 50 ms')
  })

  it('reports an already-aborted caller signal without calling fetch', async () => {
    const fetch = fakeFetch()
    const error = await httpError(
      sendRequest({
        method: 'GET',
        url: 'https://e.example/x',
        fetch,
        signal: AbortSignal.abort(),
      }),
    )
    expect(error.reason).toBe('aborted')
    expect(fetch.calls).toHaveLength(0)
  })

  it('reports a caller abort during the request as aborted, not timeout', async () => {
    const controller = new AbortController()
    const fetch: FetchLike = () => new Promise<Response>(() => {})
    const pending = sendRequest({
      method: 'GET',
      url: 'https://e.example/x',
      fetch,
      signal: controller.signal,
    })
    setTimeout(() => controller.abort(), 10)
    expect((await httpError(pending)).reason).toBe('aborted')
  })

  it('rejects a body above the size cap by Content-Length', async () => {
    const fetch = fakeFetch(
      answer(
        'GET',
        'https://e.example/x',
        () => new Response('x'.repeat(100), { headers: { 'content-length': '100' } }),
      ),
    )
    const error = await httpError(
      sendRequest({ method: 'GET', url: 'https://e.example/x', fetch, maxResponseBytes: 10 }),
    )
    expect(error.reason).toBe('too-large')
  })

  it('rejects a streamed body above the size cap without Content-Length', async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(1024))
      },
    })
    const fetch = fakeFetch(answer('GET', 'https://e.example/x', () => new Response(stream)))
    const error = await httpError(
      sendRequest({ method: 'GET', url: 'https://e.example/x', fetch, maxResponseBytes: 4096 }),
    )
    expect(error.reason).toBe('too-large')
  })

  it('documents a default timeout of 10 seconds', () => {
    expect(defaultTimeoutMs).toBe(10_000)
  })
})

describe('JSON body helpers', () => {
  const response = (bodyText: string) => ({
    url: 'https://e.example/x?community=a',
    status: 200,
    headers: new Headers({ 'content-type': 'text/html' }),
    bodyText,
  })

  it('parses JSON whatever the content type', () => {
    expect(parseJsonObjectBody(response('{"a":1}'))).toEqual({ a: 1 })
  })

  it.each(['', 'not json', '{"a":', '<html></html>'])(
    'reports %j as invalid-json naming the content type',
    (body) => {
      expect(() => parseJsonBody(response(body))).toThrow(
        expect.objectContaining({
          name: 'HttpError',
          reason: 'invalid-json',
          message: expect.stringContaining('text/html'),
        }),
      )
      expect(() => parseJsonBody(response(body))).toThrow(
        expect.objectContaining({ message: expect.not.stringContaining('community=') }),
      )
    },
  )

  it.each(['[]', '"text"', '42', 'null', 'true'])('reports %s as not-an-object', (body) => {
    expect(() => parseJsonObjectBody(response(body))).toThrow(
      expect.objectContaining({ name: 'HttpError', reason: 'not-an-object' }),
    )
  })

  it('parses deeply nested JSON without crashing', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
    expect(() => parseJsonObjectBody(response(deep))).toThrow(HttpError)
  })

  it('tryParseJsonBody returns undefined instead of throwing', () => {
    expect(tryParseJsonBody(response('<html>'))).toBeUndefined()
    expect(tryParseJsonBody(response('{"error":"x"}'))).toEqual({ error: 'x' })
  })
})

describe("sendRequest with the runtime's own fetch against a loopback server", () => {
  // Started by test/support/loopback-server.global-setup.ts, in Node, for every project.
  const origin = inject('loopbackOrigin')

  it('talks to loopback HTTP with allowInsecureLocalhost', async () => {
    const response = await sendRequest({
      method: 'GET',
      url: `${origin}/ok`,
      allowInsecureLocalhost: true,
    })
    expect(parseJsonObjectBody(response)).toEqual({ method: 'GET', url: '/ok' })
  })

  it('follows a GET redirect where fetch shows it, and names it where a browser hides it', async ({
    task,
  }) => {
    const outcome = await sendRequest({
      method: 'GET',
      url: `${origin}/moved`,
      allowInsecureLocalhost: true,
    }).then(parseJsonObjectBody, (error: unknown) => error)
    if (task.file.projectName?.startsWith('chromium')) {
      // Browsers answer redirect: 'manual' with an opaque response: no status, no Location.
      expect(outcome).toBeInstanceOf(HttpError)
      expect(outcome).toMatchObject({ reason: 'redirect' })
      expect((outcome as HttpError).message).toContain('cannot follow')
    } else {
      expect(outcome).toEqual({ method: 'GET', url: '/ok' })
    }
  })

  it('never re-sends a POST that is redirected, in any runtime', async () => {
    const error = await httpError(
      sendRequest({
        method: 'POST',
        url: `${origin}/moved`,
        form: { grant_type: 'client_credentials' },
        allowInsecureLocalhost: true,
      }),
    )
    expect(error.reason).toBe('redirect')
  })

  it('times out a server that never answers', async () => {
    const error = await httpError(
      sendRequest({
        method: 'GET',
        url: `${origin}/hang`,
        allowInsecureLocalhost: true,
        timeoutMs: 100,
      }),
    )
    expect(error.reason).toBe('timeout')
  })

  it('times out a body that never ends', async () => {
    const error = await httpError(
      sendRequest({
        method: 'GET',
        url: `${origin}/slow-body`,
        allowInsecureLocalhost: true,
        timeoutMs: 150,
      }),
    )
    expect(error.reason).toBe('timeout')
  })

  it('caps a 2 MiB body at the default 1 MiB', async () => {
    const error = await httpError(
      sendRequest({ method: 'GET', url: `${origin}/big`, allowInsecureLocalhost: true }),
    )
    expect(error.reason).toBe('too-large')
  })

  it('reports a closed port as a network error', async () => {
    const error = await httpError(
      sendRequest({
        method: 'GET',
        url: `${inject('closedLoopbackOrigin')}/`,
        allowInsecureLocalhost: true,
      }),
    )
    expect(error.reason).toBe('network')
  })
})

describe('sendRequest keeps secrets out of its errors', () => {
  it('drops the message of an error thrown by a custom fetch, keeping name and code', async () => {
    const fetch: FetchLike = async (_url, init) => {
      throw Object.assign(new TypeError(`failed posting ${String(init.body)}`), {
        code: 'ECONNRESET',
      })
    }
    const error = await httpError(
      sendRequest({
        method: 'POST',
        url: 'https://as.example.org/token',
        form: { code: 'auth-code-secret' },
        fetch,
      }),
    )
    const cause = error.cause as Error & { code?: string }
    expect(cause.message).toBe('TypeError (ECONNRESET)')
    expect(cause.code).toBe('ECONNRESET')
    expect(
      `${error.message} ${cause.message} ${cause.stack} ${JSON.stringify(error)}`,
    ).not.toContain('auth-code-secret')
  })

  it('refuses a JSON body that cannot be serialised with a typed error', async () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    const fetch = fakeFetch()
    const error = await httpError(
      sendRequest({ method: 'POST', url: 'https://as.example.org/reg', json: cyclic, fetch }),
    )
    expect(error.reason).toBe('invalid-body')
    expect(fetch.calls).toHaveLength(0)
    await expect(
      sendRequest({ method: 'POST', url: 'https://as.example.org/reg', json: { n: 1n }, fetch }),
    ).rejects.toBeInstanceOf(HttpError)
  })
})
