/**
 * The same SMART flows with the WebCrypto backend injected (`crypto: createWebCryptoBackend()`)
 * instead of the default Node backend: private_key_jwt code exchange, refresh and backend
 * services with RS384 and ES384 keys, verified by the real server and by jose.
 */
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectAssertionAuthentication } from './support/assertions.js'
import { authorizeWithClient, lastRequestTo, readPatientStatus } from './support/flows.js'
import {
  appClient,
  backendClient,
  clientIds,
  keysOf,
  type SmartFixture,
  startSmartFixture,
} from './support/smart-fixture.js'

let fixture: SmartFixture

beforeAll(async () => {
  fixture = await startSmartFixture()
})

afterAll(async () => {
  await fixture?.sandbox.close()
})

/**
 * The WebCrypto backend over the runtime's real `SubtleCrypto`, wrapped only to count `sign`
 * calls: the proof that this backend, not the default one, made the signatures.
 */
function countingWebCryptoBackend() {
  const subtle = globalThis.crypto.subtle
  const counter = { signatures: 0 }
  const counted = new Proxy(subtle, {
    get(target, property) {
      const member: unknown = Reflect.get(target, property, target)
      if (typeof member !== 'function') return member
      if (property === 'sign') {
        return (...parameters: Parameters<SubtleCrypto['sign']>) => {
          counter.signatures += 1
          return target.sign(...parameters)
        }
      }
      return member.bind(target)
    },
  })
  return { backend: createWebCryptoBackend({ subtle: counted }), counter }
}

describe.each(['RS384', 'ES384'] as const)('the WebCrypto backend with an %s key', (algorithm) => {
  it('signs the assertions of a code exchange and a refresh', async () => {
    const { sandbox } = fixture
    const { backend, counter } = countingWebCryptoBackend()
    const client = appClient(fixture, algorithm, {}, { crypto: backend })
    const authorization = await authorizeWithClient(client, sandbox, { method: 'post' })
    const tokens = await client.requestAccessToken({
      code: authorization.code,
      codeVerifier: authorization.codeVerifier,
    })
    await expectAssertionAuthentication(
      lastRequestTo(sandbox, sandbox.endpoints.token),
      keysOf(fixture, algorithm),
      clientIds[algorithm],
      sandbox.endpoints.token,
    )
    const refreshed = await client.refreshToken({ refreshToken: String(tokens.refresh_token) })
    await expectAssertionAuthentication(
      lastRequestTo(sandbox, sandbox.endpoints.token),
      keysOf(fixture, algorithm),
      clientIds[algorithm],
      sandbox.endpoints.token,
    )
    expect(counter.signatures).toBe(2)
    expect(client.isTokenResponseValid(refreshed)).toBe(true)
    expect(
      await readPatientStatus(sandbox, String(refreshed.patient), refreshed.access_token),
    ).toBe(200)
  })

  it('signs backend-services assertions, 50 of them concurrently', async () => {
    const { sandbox } = fixture
    const { backend, counter } = countingWebCryptoBackend()
    const client = backendClient(
      fixture,
      algorithm,
      { scopes: ['system/*.rs'] },
      { crypto: backend },
    )
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => client.requestBackendToken()),
    )
    expect(new Set(responses.map((response) => response.access_token)).size).toBe(50)
    expect(counter.signatures).toBe(50)
    await expectAssertionAuthentication(
      lastRequestTo(sandbox, sandbox.endpoints.token),
      keysOf(fixture, algorithm),
      algorithm === 'RS384' ? clientIds.backendRs384 : clientIds.backendEs384,
      sandbox.endpoints.token,
    )
  })
})
