/**
 * One secrets harness for the whole library: every flow through `Client` against both
 * sandboxes (see `support/secret-run.ts`), with one debug-level capturing logger, then a scan
 * of every log line (message and fields, as JSON and through `util.inspect`), every error
 * (message, stack, `cause` chain, `JSON.stringify`, `util.inspect` with hidden members) and
 * every public object the run created (clients, their configs, SMART and UDAP metadata) as a
 * user would print them — for every secret used or received: client secrets, private keys (PEM
 * lines, body, JWK members), access, refresh and ID tokens, codes, verifiers, client
 * assertions, software statements, Authorization headers, the initial access token and PKCS#12
 * passwords. `state` is not a secret. Zero findings; a control proves the scan sees a planted one.
 */
import { ConfigurationError, FhirAuthError } from '@fhir-auth/client'
import { compactJwsPattern, pemPrivateKeyPattern, SecretScanner } from '@fhir-auth/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countHandWrittenCases, printCaseLedger } from '../src/index.js'
import { runEveryFlow, type SecretRun } from './support/secret-run.js'

let run: SecretRun

beforeAll(async () => {
  run = await runEveryFlow()
  countHandWrittenCases(
    'secrets harness flows and failures',
    run.completed.length + run.errors.size,
  )
}, 120_000)

afterAll(async () => {
  await Promise.all([run?.smart.close(), run?.udap.close()])
  printCaseLedger('secrets')
})

/**
 * A scanner with every secret of the run. `withShapes` adds two shapes no log line or error may
 * contain at all: any compact JWS (covers tokens and assertions the test never saw) and PEM
 * private-key armour. Public objects legitimately hold a JWS (UDAP `signed_metadata`), so they
 * are scanned for the run's values only.
 */
function scannerWithSecrets(withShapes: boolean): SecretScanner {
  const scanner = new SecretScanner().addPattern('PEM private-key armour', pemPrivateKeyPattern)
  if (withShapes) scanner.addPattern('a compact JWS', compactJwsPattern)
  for (const secret of run.secrets) scanner.addSecret(secret.label, secret.value)
  for (const key of run.privateKeyPems) scanner.addPrivateKeyPem(key.label, key.value)
  return scanner
}

describe('the run', () => {
  it('ran every flow of both protocols', () => {
    for (const flow of [
      'SMART discovery',
      'SMART h-public get',
      'SMART h-public post refresh',
      'SMART h-symmetric get',
      'SMART h-rs384 post',
      'SMART h-es384 get refresh',
      'SMART backend RS384',
      'SMART backend ES384',
      'SMART backend scope fallback',
      'SMART registration',
      'SMART registered',
      'UDAP discovery',
      'UDAP registration',
      'UDAP modification',
      'UDAP P-256 token',
      'UDAP cancellation',
      'PKCS#12 load',
      'UDAP RSA token',
      'UDAP unregistered token',
    ]) {
      expect(run.completed).toContain(flow)
    }
    expect(run.logger.messages('warn').some((message) => message.includes('system/*.rs'))).toBe(
      true,
    )
  })

  it('failed where it meant to, each with a typed error', () => {
    // SMART: 4 replayed codes, wrong code, wrong secret, registration without and with a wrong
    // initial access token, failed discovery, token time-out, spent refresh token, two long
    // echoes (13); UDAP: token after cancellation, wrong PKCS#12 password, two hostile
    // discoveries, time-out, one long echo (6).
    expect([...run.errors.keys()]).toHaveLength(19)
    for (const [name, error] of run.errors) {
      expect(error, name).toBeInstanceOf(FhirAuthError)
    }
    expect(run.errors.get('SMART wrong client secret')).toMatchObject({ error: 'invalid_client' })
    expect(run.errors.get('SMART token time-out')).toMatchObject({ cause: { reason: 'timeout' } })
    expect(run.errors.get('UDAP token time-out')).toMatchObject({ cause: { reason: 'timeout' } })
    expect(run.errors.get('UDAP hostile discovery (alg none)')).toMatchObject({
      name: 'DiscoveryError',
    })
    expect(run.errors.get('UDAP wrong PKCS#12 password')).toMatchObject({
      reason: 'pkcs12-password',
    })
    expect(run.errors.get('SMART discovery failure')).not.toBeInstanceOf(ConfigurationError)
    for (const name of [
      'SMART long echo (code near the cut)',
      'SMART long echo (client_assertion over 512 characters)',
      'UDAP long echo (authentication token with x5c)',
    ]) {
      expect(run.errors.get(name), name).toMatchObject({
        name: 'TokenError',
        error: 'invalid_grant',
        errorDescription: expect.stringContaining('[REDACTED]'),
      })
    }
    expect(run.echoedPrefixes).toHaveLength(3)
  })

  it('collected the secrets of every kind', () => {
    const labels = run.secrets.map((secret) => secret.label).join('\n')
    for (const kind of [
      'access token',
      'refresh token',
      'ID token',
      ' code',
      'verifier',
      'client assertion',
      'software statement',
      'authorization credentials',
      'symmetric client secret',
      'registered client secret',
      'initial access token',
      'PKCS#12 password',
    ]) {
      expect(labels).toContain(kind)
    }
    expect(run.privateKeyPems).toHaveLength(5)
    console.info(
      `[hardening] secrets harness: ${run.secrets.length} secret values, ${run.privateKeyPems.length} private keys, ${run.logger.entries.length} log entries, ${run.errors.size} errors, ${run.objects.size} public objects`,
    )
  })
})

describe('no secret appears', () => {
  it('in any log line, at any level (debug included)', () => {
    const scanner = scannerWithSecrets(true).addLines('log', run.logger.renderedLines())
    expect(scanner.textCount).toBeGreaterThan(100)
    expect(scanner.findings()).toEqual([])
  })

  it("in any error's message, stack, cause chain, JSON or inspect output", () => {
    const scanner = scannerWithSecrets(true)
    for (const [name, error] of run.errors) scanner.addError(`error "${name}"`, error)
    expect(scanner.findings()).toEqual([])
  })

  it('as a fragment: no prefix of a secret echoed past the 512-character cut, in errors or logs', () => {
    const scanner = new SecretScanner().addLines('log', run.logger.renderedLines())
    for (const prefix of run.echoedPrefixes) scanner.addSecret(prefix.label, prefix.value)
    for (const [name, error] of run.errors) scanner.addError(`error "${name}"`, error)
    expect(scanner.secretCount).toBeGreaterThanOrEqual(3)
    expect(scanner.findings()).toEqual([])
  })

  it('in JSON.stringify or util.inspect of any client, config or metadata object', () => {
    const scanner = scannerWithSecrets(false)
    for (const [name, value] of run.objects) {
      scanner.addValue(name, value)
      const config = (value as { config?: unknown }).config
      if (config !== undefined) {
        scanner.addValue(`${name} config`, config)
      }
    }
    expect(scanner.textCount).toBeGreaterThan(50)
    expect(scanner.findings()).toEqual([])
  })

  it('while the same scan finds a planted secret of each kind (the scan is not blind)', () => {
    const scanner = scannerWithSecrets(true)
    const accessToken = String(run.tokenResponses[0]?.access_token)
    const keyLine = run.privateKeyPems[0]?.value.split('\n')[3] ?? ''
    const password = run.secrets.find((secret) => secret.label === 'PKCS#12 password')?.value ?? ''
    scanner.addText('planted token', `Authorization: Bearer ${accessToken}`)
    scanner.addText('planted key line', `key ${keyLine}`)
    scanner.addText('planted password', `could not open the file with ${password}`)
    scanner.addValue('planted response', run.tokenResponses[1])
    const sources = new Set(scanner.findings().map((finding) => finding.source))
    expect(sources).toContain('planted token')
    expect(sources).toContain('planted key line')
    expect(sources).toContain('planted password')
    expect(sources).toContain('planted response (JSON)')
  })
})
