/**
 * The one refresh and retry of `session.fetch` after a 401 (DESIGN §8), for every body that can
 * be sent again — an explicit `null`, and a `Blob` — and the refused answer's body released
 * before the retry. Written for the survivors of `pnpm test:mutation` in
 * `src/tokens/bearer-fetch.ts` (docs/testing.md); the main cases are in bearer-fetch.test.ts.
 */
import { expect, it } from 'vitest'
import { baseUrl, sessionOn } from './support.js'

const patient = `${baseUrl}/Patient/1`

/** 401 to `at-1`, 200 to anything else; `released` tells whether the 401's body was cancelled. */
function refusingOldToken() {
  const outcome = { released: false }
  const route = {
    [patient]: (request: { headers: Headers }) =>
      request.headers.get('authorization') === 'Bearer at-1'
        ? new Response(
            new ReadableStream({
              cancel: () => {
                outcome.released = true
              },
            }),
            { status: 401 },
          )
        : new Response('{"resourceType":"Patient"}', { status: 200 }),
  }
  return { route, outcome }
}

for (const [name, body] of [
  ['an explicit null body', null],
  ['a Blob body', new Blob(['{"resourceType":"Patient"}'], { type: 'application/fhir+json' })],
] as const) {
  it(`session.fetch with ${name}: a 401 refreshes once and sends the request again`, async () => {
    const { route } = refusingOldToken()
    const { session, bearers } = sessionOn(route)
    const response = await session.fetch(patient, { method: body === null ? 'GET' : 'PUT', body })
    expect(response.status).toBe(200)
    expect(bearers()).toEqual(['Bearer at-1', 'Bearer at-2'])
  })
}

it('session.fetch releases the body of the 401 it retries', async () => {
  const { route, outcome } = refusingOldToken()
  const { session } = sessionOn(route)
  expect((await session.fetch(patient)).status).toBe(200)
  expect(outcome.released).toBe(true)
})
