/**
 * Two installed copies of `@fhir-auth/core` (two versions in node_modules, or a bundle beside
 * them): their classes are different objects, so `instanceof` fails across them; `isInstance`
 * must not, and a `ClientConfig` of one copy must configure the other with its secrets. The
 * second copy is this package's source copied to a temporary directory and imported from there,
 * so it shares no module with the first.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as first from '../src/index.js'

/** What every error class offers, whichever one it is. */
interface Recognizer {
  isInstance(value: unknown): boolean
}

let copyDirectory: string
let second: typeof first

beforeAll(async () => {
  copyDirectory = mkdtempSync(join(tmpdir(), 'fhir-auth-core-copy-'))
  const packageDirectory = join(import.meta.dirname, '..')
  cpSync(join(packageDirectory, 'src'), join(copyDirectory, 'src'), { recursive: true })
  // The copy's own package.json, for the package's `#` imports.
  const { imports } = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8'))
  writeFileSync(join(copyDirectory, 'package.json'), JSON.stringify({ type: 'module', imports }))
  second = (await import(
    pathToFileURL(join(copyDirectory, 'src', 'index.ts')).href
  )) as typeof first
})

afterAll(() => rmSync(copyDirectory, { recursive: true, force: true }))

describe('isInstance across two copies of the library', () => {
  it('the copies really are separate: instanceof fails across them', () => {
    expect(second.TokenError).not.toBe(first.TokenError)
    expect(new second.TokenError({ message: 'm' })).not.toBeInstanceOf(first.TokenError)
  })

  it.each([
    'ConfigurationError',
    'DiscoveryError',
    'TokenError',
    'RegistrationError',
    'HttpError',
    'CryptoError',
    'CertificateChainError',
  ] as const)('%s.isInstance recognises an error of the other copy, both ways', (name) => {
    const make = (copy: typeof first) => {
      switch (name) {
        case 'ConfigurationError':
          return new copy.ConfigurationError({ invalidAttribute: 'x' })
        case 'DiscoveryError':
          return new copy.DiscoveryError({ message: 'm', endpoint: undefined })
        case 'TokenError':
          return new copy.TokenError({ message: 'm' })
        case 'RegistrationError':
          return new copy.RegistrationError({ message: 'm' })
        case 'HttpError':
          return new copy.HttpError({ message: 'm', reason: 'network', url: 'https://e' })
        case 'CryptoError':
          return new copy.CryptoError('invalid-key', 'm')
        case 'CertificateChainError':
          return new copy.CertificateChainError('untrusted', 'm')
      }
    }
    const recognizer = (copy: typeof first, className: string) =>
      copy[className as typeof name] as unknown as Recognizer
    expect(recognizer(first, name).isInstance(make(second))).toBe(true)
    expect(recognizer(second, name).isInstance(make(first))).toBe(true)
    expect(first.FhirAuthError.isInstance(make(second))).toBe(true)
    const other = name === 'TokenError' ? 'RegistrationError' : 'TokenError'
    expect(recognizer(first, other).isInstance(make(second))).toBe(false)
  })
})

describe('ClientConfig across two copies of the library', () => {
  it("keeps the other copy's secret and key, read through its accessors", () => {
    const foreign = new second.ClientConfig({
      baseUrl: 'https://ehr.example.org/fhir',
      clientId: 'app',
      clientSecret: 'foreign-secret',
      privateKey: 'pem-text',
    })
    const config = first.ClientConfig.from(foreign as never)
    expect(config).toBeInstanceOf(first.ClientConfig)
    expect(config.clientId).toBe('app')
    expect(config.clientSecret).toBe('foreign-secret')
    expect(config.privateKey).toBe('pem-text')
  })
})
