/**
 * The assertions every refusal shares: a `CertificateChainError` with the promised reason, and
 * no fragment of the private key anywhere a secret could leak (message, `toJSON`, `inspect`,
 * `cause`; DESIGN §6).
 */
import { inspect } from 'node:util'
import { CertificateChainError } from '@fhir-auth/client'
import { expect } from 'vitest'

/** Runs `attempt`, which must fail; returns what it threw. */
export async function failureOf(attempt: () => Promise<unknown>): Promise<unknown> {
  try {
    await attempt()
  } catch (error) {
    return error
  }
  throw new Error('expected the operation to fail, it succeeded')
}

/** Slices of the key's base64 body: none may appear in any rendering of the error. */
function secretFragments(privateKeyPem: string): string[] {
  const body = privateKeyPem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '')
  const slice = 24
  const fragments = [body.slice(0, slice), body.slice(-slice)]
  for (let start = slice; start + slice < body.length; start += slice * 2) {
    fragments.push(body.slice(start, start + slice))
  }
  return fragments
}

/** Every text a user could see of `error`. */
export function renderingsOf(error: unknown): string[] {
  const object = error as { message?: unknown; toJSON?: () => unknown; cause?: unknown }
  return [
    String(object.message),
    JSON.stringify(error),
    JSON.stringify(typeof object.toJSON === 'function' ? object.toJSON() : null),
    inspect(error, { depth: 8, showHidden: true }),
    inspect(object.cause, { depth: 8 }),
  ]
}

export function expectNoKeyMaterial(error: unknown, privateKeyPem: string): void {
  const fragments = secretFragments(privateKeyPem)
  for (const text of renderingsOf(error)) {
    expect(text).not.toContain('PRIVATE KEY')
    for (const fragment of fragments) expect(text).not.toContain(fragment)
  }
}

/** `error` is a `CertificateChainError` naming `reason`, with no key material in it. */
export function expectChainRefusal(error: unknown, reason: string, privateKeyPem: string): void {
  expect(error).toBeInstanceOf(CertificateChainError)
  const chainError = error as CertificateChainError
  expect({ code: chainError.code, reason: chainError.reason }).toEqual({
    code: 'ERR_CERTIFICATE_CHAIN',
    reason,
  })
  expect(chainError.message.length).toBeGreaterThan(0)
  expectNoKeyMaterial(error, privateKeyPem)
}
