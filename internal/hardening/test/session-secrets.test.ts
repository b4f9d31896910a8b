/**
 * The secrets harness for DESIGN §8 (`support/session-secret-run.ts`): launches, sessions that
 * fetch, refresh, persist and resume, ID token validation, and the failures of the new error
 * classes, through `Client` against the SMART sandbox with one debug-level capturing logger.
 * Then a scan of every log line, every error (message, stack, `cause` chain, `JSON.stringify`,
 * `util.inspect` with hidden members) and every public object — sessions, token sets, clients,
 * stores, validated claims — as a user would print them, for every secret of the run: access,
 * refresh and ID tokens, serialized sessions, codes, verifiers, Authorization headers, the client
 * secret. Zero findings; a control proves the scan sees a planted one.
 */
import {
  AuthorizationError,
  ConfigurationError,
  type FhirAuthError,
  HttpError,
  IdTokenError,
  StoreError,
  TokenError,
} from '@fhir-auth/client'
import { compactJwsPattern, SecretScanner } from '@fhir-auth/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countHandWrittenCases, printCaseLedger } from '../src/index.js'
import { runSessionFlows, type SessionSecretRun } from './support/session-secret-run.js'

let run: SessionSecretRun

beforeAll(async () => {
  run = await runSessionFlows()
  countHandWrittenCases(
    'session secrets flows and failures',
    run.completed.length + run.errors.size,
  )
}, 120_000)

afterAll(async () => {
  await run?.sandbox.close()
  printCaseLedger('session-secrets')
})

function scannerWithSecrets(withJwsShape: boolean): SecretScanner {
  const scanner = new SecretScanner()
  if (withJwsShape) scanner.addPattern('a compact JWS', compactJwsPattern)
  for (const secret of run.secrets) scanner.addSecret(secret.label, secret.value)
  return scanner
}

describe('the session run', () => {
  it('ran every flow and failed where it meant to, each with its typed error', () => {
    expect(run.completed).toEqual([
      'store launch, fetch, refresh, resume',
      'kept values launch, validateIdToken',
      '401, refresh, retry',
    ])
    const expected: Record<string, new (...args: never[]) => FhirAuthError> = {
      'AuthorizationError access_denied': AuthorizationError,
      'AuthorizationError replayed callback': AuthorizationError,
      'AuthorizationError another issuer': AuthorizationError,
      'AuthorizationError quoting the code': AuthorizationError,
      'IdTokenError wrong-nonce': IdTokenError,
      'IdTokenError hs256-client-secret': IdTokenError,
      'IdTokenError bad-signature': IdTokenError,
      'IdTokenError alg-none': IdTokenError,
      'StoreError set quoting the record': StoreError,
      'StoreError take that never answers': StoreError,
      'StoreError onTokens quoting the tokens': StoreError,
      'TokenError revoked refresh token': TokenError,
      'TokenError expired without refresh token': TokenError,
      'HttpError transport quoting the header': HttpError,
      'ConfigurationError outside the base URL': ConfigurationError,
    }
    expect([...run.errors.keys()].sort()).toEqual(Object.keys(expected).sort())
    for (const [name, errorClass] of Object.entries(expected)) {
      expect(run.errors.get(name), name).toBeInstanceOf(errorClass)
    }
    const labels = run.secrets.map((secret) => secret.label).join('\n')
    for (const kind of [
      'access token',
      'refresh token',
      'ID token',
      'serialized tokens',
      'persisted tokens',
      'a code',
      'code verifier',
      'authorization header',
      'symmetric client secret',
    ]) {
      expect(labels).toContain(kind)
    }
    console.info(
      `[hardening] session secrets: ${run.secrets.length} secret values, ${run.logger.entries.length} log entries, ${run.errors.size} errors, ${run.objects.size} public objects`,
    )
  })
})

describe('no secret of a session appears', () => {
  it('in any log line, at any level', () => {
    const scanner = scannerWithSecrets(true).addLines('log', run.logger.renderedLines())
    expect(scanner.textCount).toBeGreaterThan(20)
    expect(scanner.findings()).toEqual([])
  })

  it("in any error's message, stack, cause chain, JSON or inspect output", () => {
    const scanner = scannerWithSecrets(true)
    for (const [name, error] of run.errors) scanner.addError(`error "${name}"`, error)
    expect(scanner.findings()).toEqual([])
  })

  it('as a prefix: the code quoted past the 512-character cut is gone before the cut', () => {
    const error = run.errors.get('AuthorizationError quoting the code') as AuthorizationError
    expect(error.errorDescription).toMatch(/^x{500}\[REDACTED\]/)
  })

  it('in JSON.stringify or util.inspect of any session, token set, client, store or claims', () => {
    const scanner = scannerWithSecrets(false)
    for (const [name, value] of run.objects) {
      scanner.addValue(name, value)
      scanner.addText(`${name} (String)`, String(value))
    }
    expect(scanner.textCount).toBeGreaterThan(30)
    expect(scanner.findings()).toEqual([])
  })

  it('while the same scan finds a planted one of each kind (the scan is not blind)', () => {
    const scanner = scannerWithSecrets(true)
    const find = (label: string) =>
      run.secrets.find((secret) => secret.label.includes(label))?.value
    scanner.addText('planted access token', `Bearer ${find('access token')}`)
    scanner.addText('planted serialized tokens', `saved ${find('serialized tokens')}`)
    scanner.addText('planted verifier', `verifier ${find('code verifier')}`)
    const sources = new Set(scanner.findings().map((finding) => finding.source))
    expect(sources).toEqual(
      new Set(['planted access token', 'planted serialized tokens', 'planted verifier']),
    )
  })
})
