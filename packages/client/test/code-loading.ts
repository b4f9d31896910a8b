/**
 * The seam the code-loading tests (code-load-failure, code-load-aborts) share: a fresh copy of
 * the client package in which one on-demand part (ADR 0012) loads however the test says, a
 * `fetch` that records what the client tried to send, and the two client settings they drive.
 * Mocked paths are relative to this directory, as they are in those test files.
 */
import { vi } from 'vitest'
import { baseUrl, ecKeyPem, smartConfiguration } from './support.js'

const mocked: string[] = []

/**
 * A fresh copy of the client package in which importing `path` gives what `load` returns.
 * `load` gets the real part when `withReal` is set (imported first, into the same fresh module
 * graph), for a part that ends up loading after all.
 */
export async function clientLoadingThrough(
  path: string,
  load: (real: unknown) => Promise<unknown>,
  { withReal = false }: { readonly withReal?: boolean } = {},
) {
  vi.resetModules()
  mocked.push(path)
  const real = withReal ? await vi.importActual(path) : undefined
  vi.doMock(path, () => load(real))
  return import('../src/index.js')
}

/** Undoes every `clientLoadingThrough` of the test (call it in `afterEach`). */
export function restoreLoading(): void {
  for (const path of mocked) vi.doUnmock(path)
  mocked.length = 0
  vi.resetModules()
}

export type ClientModule = Awaited<ReturnType<typeof clientLoadingThrough>>

/** Every request the client tried to send; discovery is answered, anything else is refused. */
export function recordingFetch() {
  const sent: string[] = []
  const fetch = async (input: string | URL | Request) => {
    const url = String(input)
    sent.push(url)
    if (url.endsWith('/.well-known/smart-configuration')) return Response.json(smartConfiguration)
    throw new Error(`unexpected request to ${url}`)
  }
  return { fetch, sent }
}

export type RecordingFetch = ReturnType<typeof recordingFetch>['fetch']

/** A public SMART app launching a patient. */
export const launchConfig = {
  baseUrl,
  clientId: 'app',
  redirectUri: 'https://app.example.org/callback',
  scopes: ['launch/patient', 'openid'],
}

/** A backend service signing its assertions with an EC key (its token endpoint discovered). */
export const signingConfig = {
  baseUrl,
  clientId: 'service',
  privateKey: ecKeyPem(),
  kid: 'k1',
  scopes: ['system/*.rs'],
}
