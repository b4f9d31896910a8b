/**
 * How `session.fetch` fails when the request cannot be sent (DESIGN §8, §12): an `HttpError`
 * whose message names the method and URL, `aborted` with the caller's abort as its cause, or
 * `network` with only the failure's kind as its cause, never the fetch's own text. Written for
 * the survivors of `pnpm test:mutation` in `src/tokens/bearer-fetch.ts` (docs/testing.md); the
 * main cases are in bearer-fetch.test.ts and aborts.test.ts.
 */
import { HttpError } from '@fhir-auth/client'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { describe, expect, it } from 'vitest'
import { baseUrl, hangingRoute, sessionOn } from './support.js'

const patient = `${baseUrl}/Patient/1`

describe('session.fetch aborted by the caller', () => {
  it('while a fetch that ignores the signal hangs: an aborted HttpError at once', async () => {
    const { route, requestReceived } = hangingRoute()
    const { session } = sessionOn({ [patient]: route })
    const controller = new AbortController()
    const fetching = session.fetch(patient, { signal: controller.signal })
    await requestReceived
    controller.abort()
    const error = await failureOf(fetching, HttpError)
    expect(error).toMatchObject({ reason: 'aborted', url: patient })
    expect(error.message).toBe(`GET ${patient} was aborted by the caller`)
    expect(error.cause).toMatchObject({ name: 'HttpError', reason: 'aborted', url: patient })
  })

  it('before it starts: nothing is sent', async () => {
    const { session, server } = sessionOn({})
    const error = await failureOf(
      session.fetch(patient, { method: 'DELETE', signal: AbortSignal.abort() }),
      HttpError,
    )
    expect(error.message).toBe(`DELETE ${patient} was aborted by the caller`)
    expect(server.requests).toEqual([])
  })
})

describe('session.fetch when the fetch fails', () => {
  it('a rejection is a network HttpError naming the method; its cause keeps only the kind', async () => {
    const { session } = sessionOn({
      [patient]: () => Promise.reject(new TypeError('socket closed; body: secret-resource')),
    })
    const error = await failureOf(session.fetch(patient, { method: 'put', body: '{}' }), HttpError)
    expect(error).toMatchObject({ reason: 'network', url: patient })
    expect(error.message).toBe(`PUT ${patient} failed: network error`)
    expect(error.cause).toBeInstanceOf(Error)
    expect(error.cause).toMatchObject({ name: 'TypeError', message: 'TypeError' })
  })

  it('something other than a Response is a network HttpError without a cause', async () => {
    for (const notAResponse of [
      { headers: new Headers() },
      { status: '200', headers: new Headers() },
      { status: 200, headers: null },
      null,
    ]) {
      const { session } = sessionOn({ [patient]: () => notAResponse as never })
      const error = await failureOf(session.fetch(patient), HttpError)
      expect(error).toMatchObject({ reason: 'network', url: patient })
      expect(error.message).toBe(`GET ${patient} failed: fetch did not return a Response`)
      expect(error.cause).toBeUndefined()
    }
  })
})
