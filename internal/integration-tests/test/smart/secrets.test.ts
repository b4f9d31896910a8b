/**
 * No secret leaks. One run of every SMART flow (see `runSecretTour`) with an info-level
 * capturing logger, then a scan of every log line, every error (message, `cause` chain,
 * `JSON.stringify`, `util.inspect`) and every `Client` and `ClientConfig` as a user would print
 * them, for every secret used or received in the run: client secrets, private keys, access,
 * refresh and ID tokens, codes, verifiers, assertions and initial access tokens.
 */
import { TokenError } from '@fhir-auth/client'
import { compactJwsPattern, pemPrivateKeyPattern, SecretScanner } from '@fhir-auth/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runSecretTour, type SecretTour } from './support/secret-tour.js'
import { type SmartFixture, startSmartFixture } from './support/smart-fixture.js'

let fixture: SmartFixture
let tour: SecretTour

beforeAll(async () => {
  fixture = await startSmartFixture()
  tour = await runSecretTour(fixture)
}, 60_000)

afterAll(async () => {
  await fixture?.sandbox.close()
})

/**
 * A scanner loaded with every secret of the tour, and with two shapes no output may contain at
 * all: any compact JWS (covers tokens and assertions the test never saw, such as those sent to
 * a server that never answered) and PEM private-key armour.
 */
function scannerWithSecrets(): SecretScanner {
  const scanner = new SecretScanner()
    .addPattern('a compact JWS', compactJwsPattern)
    .addPattern('PEM private-key armour', pemPrivateKeyPattern)
  for (const secret of tour.secrets) scanner.addSecret(secret.label, secret.value)
  for (const key of tour.privateKeys) scanner.addPrivateKeyPem(key.label, key.value)
  return scanner
}

describe('the secret tour', () => {
  it('ran every flow: info for each operation, the fallback warning, the discovery error', () => {
    const events = new Set(tour.logger.entries.map((entry) => entry.fields?.event))
    for (const event of [
      'smart.discovery',
      'smart.authorization_url',
      'smart.token.authorization_code',
      'smart.token.refresh',
      'smart.token.client_credentials',
      'smart.registration',
      'smart.discovery.failed',
    ]) {
      expect(events).toContain(event)
    }
    expect(tour.logger.messages('warn').some((message) => message.includes('system/*.rs'))).toBe(
      true,
    )
    expect(tour.logger.messages('error').length).toBeGreaterThanOrEqual(1)
  })

  it('collected the secrets it must look for', () => {
    const labels = tour.secrets.map((secret) => secret.label).join('\n')
    for (const kind of [
      'access token',
      'refresh token',
      'ID token',
      'code',
      'verifier',
      'client assertion',
      'Basic credentials',
      'client secret',
      'initial access token',
      'registration access token',
    ]) {
      expect(labels).toContain(kind)
    }
    expect(tour.privateKeys).toHaveLength(4)
    expect(tour.tokenResponses.length).toBeGreaterThanOrEqual(20)
  })

  it('failed where it meant to, with the expected error classes', () => {
    expect(tour.errors.size).toBeGreaterThanOrEqual(20)
    expect(tour.errors.get('wrong code')).toBeInstanceOf(TokenError)
    expect(tour.errors.get('wrong client secret')).toMatchObject({ error: 'invalid_client' })
    expect(tour.errors.get('token endpoint timeout')).toMatchObject({
      cause: { reason: 'timeout' },
    })
    expect(tour.errors.get('registration without initial access token')).toMatchObject({
      status: 401,
      error: 'invalid_token',
    })
  })
})

describe('no secret appears', () => {
  it('in any log line, at any level', () => {
    const scanner = scannerWithSecrets().addLines('log', tour.logger.renderedLines())
    expect(scanner.textCount).toBeGreaterThan(50)
    expect(scanner.findings()).toEqual([])
  })

  it("in any error's message, cause chain, JSON or inspect output", () => {
    const scanner = scannerWithSecrets()
    for (const [name, error] of tour.errors) scanner.addError(`error "${name}"`, error)
    expect(scanner.findings()).toEqual([])
  })

  it('in JSON.stringify, util.inspect or String of any Client or its ClientConfig', () => {
    const scanner = scannerWithSecrets()
    for (const [name, client] of tour.clients) {
      scanner.addValue(`client "${name}"`, client)
      scanner.addValue(`config of "${name}"`, client.config)
      scanner.addValue(`toJSON of "${name}"`, client.toJSON())
    }
    expect(scanner.findings()).toEqual([])
  })

  it('while the same scan does find a secret planted in a text (the scan is not blind)', () => {
    const scanner = scannerWithSecrets()
    const accessToken = String(tour.tokenResponses[0]?.access_token)
    const pemLine = tour.privateKeys[1]?.value.split('\n')[2] ?? ''
    scanner.addText('planted token', `Authorization: Bearer ${accessToken}`)
    scanner.addText('planted key line', `key material ${pemLine}`)
    scanner.addValue('planted response', tour.tokenResponses[0])
    scanner.addText(
      'planted unseen JWT',
      'eyJhbGciOiJSUzM4NCJ9.eyJqdGkiOiJ1bnNlZW4ifQ.c2lnbmF0dXJl',
    )
    const sources = new Set(scanner.findings().map((finding) => finding.source))
    expect(sources).toContain('planted token')
    expect(sources).toContain('planted key line')
    expect(sources).toContain('planted response (JSON)')
    expect(sources).toContain('planted unseen JWT')
  })
})
