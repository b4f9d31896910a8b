/**
 * `sendRequest` for signed documents (issue 30: CRLs, OCSP, CA certificates): plain HTTP to any
 * host only with `allowPlainHttp`, binary bodies, another `Accept`, bodies kept as bytes.
 */
import { describe, expect, it } from 'vitest'
import { HttpError, sendRequest } from '../src/index.js'
import { revocationMemory } from '../src/revocation.js'

const der = Uint8Array.of(0x30, 0x03, 0x02, 0x01, 0xff)

function recordingFetch(respond: () => Response = () => new Response(der)) {
  const calls: { url: string; init: RequestInit }[] = []
  const fetch = async (url: string, init: RequestInit) => {
    calls.push({ url, init })
    return respond()
  }
  return { fetch, calls }
}

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof HttpError) return error
    throw error
  }
  throw new Error('expected an HttpError')
}

describe('sendRequest for signed documents', () => {
  it('allows plain HTTP to any host only with allowPlainHttp', async () => {
    const { fetch, calls } = recordingFetch()
    const url = 'http://crl.example.test/ca.crl'
    expect((await failure(sendRequest({ method: 'GET', url, fetch }))).reason).toBe('insecure-url')
    expect(
      (await failure(sendRequest({ method: 'GET', url, fetch, allowPlainHttp: false }))).reason,
    ).toBe('insecure-url')
    await sendRequest({ method: 'GET', url, fetch, allowPlainHttp: true })
    expect(calls.map((call) => call.url)).toEqual([url])
  })

  it('still refuses other schemes and user info with allowPlainHttp', async () => {
    const { fetch, calls } = recordingFetch()
    for (const [url, reason] of [
      ['ldap://ldap.example.test/cn=CA', 'insecure-url'],
      ['file:///etc/ca.crl', 'insecure-url'],
      ['http://user:secret@crl.example.test/ca.crl', 'invalid-url'],
    ] as const) {
      const error = await failure(sendRequest({ method: 'GET', url, fetch, allowPlainHttp: true }))
      expect(error.reason).toBe(reason)
    }
    expect(calls).toEqual([])
  })

  it('follows a redirect to plain HTTP only with allowPlainHttp', async () => {
    let first = true
    const { fetch, calls } = recordingFetch(() => {
      if (!first) return new Response(der)
      first = false
      return new Response(null, {
        status: 302,
        headers: { location: 'http://mirror.example.test/ca.crl' },
      })
    })
    const response = await sendRequest({
      method: 'GET',
      url: 'https://crl.example.test/ca.crl',
      fetch,
      allowPlainHttp: true,
      responseBody: 'bytes',
    })
    expect(response.url).toBe('http://mirror.example.test/ca.crl')
    expect(calls).toHaveLength(2)
    first = true
    const refused = await failure(
      sendRequest({ method: 'GET', url: 'https://crl.example.test/ca.crl', fetch }),
    )
    expect(refused.reason).toBe('redirect')
  })

  it('sends a binary body with its content type and the Accept asked for, and keeps the answer as bytes', async () => {
    const { fetch, calls } = recordingFetch()
    const response = await sendRequest({
      method: 'POST',
      url: 'http://ocsp.example.test/',
      fetch,
      allowPlainHttp: true,
      accept: 'application/ocsp-response',
      bytes: { contentType: 'application/ocsp-request', data: Uint8Array.of(1, 2, 3) },
      responseBody: 'bytes',
    })
    const headers = calls[0]?.init.headers as Record<string, string>
    expect(headers.accept).toBe('application/ocsp-response')
    expect(headers['content-type']).toBe('application/ocsp-request')
    expect(new Uint8Array(calls[0]?.init.body as Uint8Array)).toEqual(Uint8Array.of(1, 2, 3))
    expect(response.bodyBytes).toEqual(der)
    expect(response.bodyText).toBe('')
  })

  it('reads text as before when bytes are not asked for, and caps bytes like text', async () => {
    const { fetch } = recordingFetch(() => new Response('é{"a":1}'))
    const text = await sendRequest({ method: 'GET', url: 'https://x.example.test/', fetch })
    expect(text.bodyText).toBe('é{"a":1}')
    expect(text.bodyBytes).toBeUndefined()
    const big = recordingFetch(() => new Response(new Uint8Array(2048)))
    const error = await failure(
      sendRequest({
        method: 'GET',
        url: 'https://x.example.test/',
        fetch: big.fetch,
        responseBody: 'bytes',
        maxResponseBytes: 1024,
      }),
    )
    expect(error.reason).toBe('too-large')
  })
})

describe('revocationMemory', () => {
  it('keeps at most maxEntries, oldest out first; a time to live of zero stores nothing', async () => {
    const store = revocationMemory(2)
    await store.set('a', '1', 60)
    await store.set('b', '2', 60)
    expect(await store.get('a')).toBe('1')
    await store.set('c', '3', 60)
    expect(await store.get('a')).toBeUndefined()
    expect(await store.get('c')).toBe('3')
    await store.set('b', 'gone', 0)
    expect(await store.get('b')).toBeUndefined()
    expect(await store.setIfAbsent('c', 'x', 60)).toBe(false)
    expect(await store.setIfAbsent('d', '4', 60)).toBe(true)
    await store.delete('d')
    expect(await store.get('d')).toBeUndefined()
  })
})
