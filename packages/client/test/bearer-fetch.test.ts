/**
 * The Bearer fetch behind `session.fetch` and `backendTokens().fetch`: where the token may go,
 * redirects, and the one renewal + retry on a 401.
 */
import { ConfigurationError, type FetchLike } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import { bearerFetch } from '../src/tokens/bearer-fetch.js'

interface Sent {
  url: string
  authorization: string | null
  method: string
  body: string | undefined
  headers: Headers
}

/** A fetch that records what it was sent and answers from a list (last answer repeats). */
function recordingFetch(answers: (() => Response)[]) {
  const sent: Sent[] = []
  const fetch: FetchLike = async (url, init) => {
    const headers = new Headers(init.headers)
    const body =
      init.body === undefined || init.body === null
        ? undefined
        : await new Response(init.body).text()
    sent.push({
      url,
      authorization: headers.get('authorization'),
      method: init.method ?? 'GET',
      body,
      headers,
    })
    const answer = answers[Math.min(sent.length - 1, answers.length - 1)] as () => Response
    return answer()
  }
  return { fetch, sent }
}

const ok = () => new Response('{"resourceType":"Patient"}', { status: 200 })
const unauthorized = () => new Response('', { status: 401 })
const redirect =
  (location: string, status = 302) =>
  () =>
    new Response(null, { status, headers: { location } })

function session(
  answers: (() => Response)[],
  renew: (failed: string) => Promise<boolean> = async () => true,
  baseUrl = 'https://ehr.example.org/fhir',
) {
  let n = 1
  const recorded = recordingFetch(answers)
  const renewed: string[] = []
  const fetch = bearerFetch({
    baseUrl,
    fetch: recorded.fetch,
    accessToken: async () => `token-${n}`,
    renew: async (failed) => {
      renewed.push(failed)
      const again = await renew(failed)
      if (again) n += 1
      return again
    },
  })
  return { fetch, sent: recorded.sent, renewed }
}

describe('bearerFetch: where the token goes', () => {
  it('resolves relative URLs under the base URL and adds the Bearer header, keeping caller headers', async () => {
    const { fetch, sent } = session([ok])
    await fetch('Patient/123', { headers: { accept: 'application/fhir+json' } })
    await fetch('https://ehr.example.org/fhir/Observation?patient=123')
    await fetch(new URL('https://ehr.example.org/fhir'))
    expect(sent.map((s) => s.url)).toEqual([
      'https://ehr.example.org/fhir/Patient/123',
      'https://ehr.example.org/fhir/Observation?patient=123',
      'https://ehr.example.org/fhir',
    ])
    expect(sent.map((s) => s.authorization)).toEqual(Array(3).fill('Bearer token-1'))
    expect(sent[0]?.headers.get('accept')).toBe('application/fhir+json')
  })

  it('works the same with trailing slashes on the base URL', async () => {
    for (const slashes of ['/', '//']) {
      const { fetch, sent } = session([ok], undefined, `https://ehr.example.org/fhir${slashes}`)
      await fetch('Patient/1')
      expect(sent[0]?.url).toBe('https://ehr.example.org/fhir/Patient/1')
    }
  })

  it('refuses, sending nothing, any URL on another origin or outside the base path', async () => {
    const { fetch, sent } = session([ok])
    const outside = [
      'https://evil.example/fhir/Patient',
      '//evil.example/fhir/Patient',
      'http://ehr.example.org/fhir/Patient',
      'https://ehr.example.org:8443/fhir/Patient',
      'https://ehr.example.org/fhir-evil/Patient',
      'https://ehr.example.org/other',
      '/admin',
      '../admin',
      'Patient/../../admin',
      'https://user:pass@ehr.example.org/fhir/Patient',
      'http://[::1',
    ]
    for (const url of outside) {
      await expect(fetch(url), url).rejects.toSatisfy(
        (error: unknown) => error instanceof ConfigurationError && error.invalidAttribute === 'url',
      )
    }
    await expect(fetch(42 as unknown as string)).rejects.toThrow(ConfigurationError)
    expect(sent).toHaveLength(0)
  })

  it('follows a redirect under the base URL with the token, and returns one elsewhere as is', async () => {
    const inside = session([redirect('/fhir/Patient/2'), ok])
    const response = await inside.fetch('Patient/1')
    expect(response.status).toBe(200)
    expect(inside.sent.map((s) => [s.url, s.authorization])).toEqual([
      ['https://ehr.example.org/fhir/Patient/1', 'Bearer token-1'],
      ['https://ehr.example.org/fhir/Patient/2', 'Bearer token-1'],
    ])
    const outside = session([redirect('https://evil.example/steal'), ok])
    expect((await outside.fetch('Patient/1')).status).toBe(302)
    expect(outside.sent).toHaveLength(1)
  })

  it('does not follow a 302 after a POST (the method would change); a 307 keeps it', async () => {
    const post = session([redirect('/fhir/Patient/2'), ok])
    expect((await post.fetch('Patient', { method: 'POST', body: '{}' })).status).toBe(302)
    const kept = session([redirect('/fhir/Patient/2', 307), ok])
    expect((await kept.fetch('Patient', { method: 'POST', body: '{}' })).status).toBe(200)
    expect(kept.sent.map((s) => [s.method, s.body])).toEqual([
      ['POST', '{}'],
      ['POST', '{}'],
    ])
  })
})

describe('bearerFetch: 401', () => {
  it('renews once with the refused token and sends the request again, body included', async () => {
    const { fetch, sent, renewed } = session([unauthorized, ok])
    const response = await fetch('Patient', { method: 'POST', body: '{"resourceType":"Patient"}' })
    expect(response.status).toBe(200)
    expect(renewed).toEqual(['token-1'])
    expect(sent.map((s) => [s.authorization, s.body])).toEqual([
      ['Bearer token-1', '{"resourceType":"Patient"}'],
      ['Bearer token-2', '{"resourceType":"Patient"}'],
    ])
  })

  it('retries only once: a second 401 goes to the caller', async () => {
    const { fetch, sent } = session([unauthorized])
    expect((await fetch('Patient/1')).status).toBe(401)
    expect(sent).toHaveLength(2)
  })

  it('hands the 401 over when renewal says no, and when the body cannot be sent again', async () => {
    const refused = session([unauthorized, ok], async () => false)
    expect((await refused.fetch('Patient/1')).status).toBe(401)
    expect(refused.sent).toHaveLength(1)
    const streamed = session([unauthorized, ok])
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{}'))
        controller.close()
      },
    })
    const init = { method: 'POST', body, duplex: 'half' } as RequestInit
    expect((await streamed.fetch('Patient', init)).status).toBe(401)
    expect(streamed.renewed).toEqual([])
  })

  it('hands a response over whole, however large: no size cap (DESIGN §8), unlike token responses', async () => {
    const large = 'x'.repeat(3 * 1024 * 1024)
    const { fetch } = session([() => new Response(large, { status: 200 })])
    const response = await fetch('Binary/1')
    expect((await response.text()).length).toBe(large.length)
  })

  it('replays a Request input, body included', async () => {
    const { fetch, sent } = session([unauthorized, ok])
    const request = new Request('https://ehr.example.org/fhir/Patient', {
      method: 'PUT',
      body: 'payload',
      headers: { 'content-type': 'application/fhir+json' },
    })
    expect((await fetch(request)).status).toBe(200)
    expect(sent.map((s) => [s.method, s.body, s.headers.get('content-type')])).toEqual([
      ['PUT', 'payload', 'application/fhir+json'],
      ['PUT', 'payload', 'application/fhir+json'],
    ])
  })

  it('passes an error from renewal (e.g. a failed refresh) to the caller', async () => {
    const { fetch } = session([unauthorized], async () => {
      throw new Error('refresh failed')
    })
    await expect(fetch('Patient/1')).rejects.toThrow('refresh failed')
  })
})
