import { createPrivateKey, generateKeyPairSync } from 'node:crypto'
import { ConfigurationError, TokenError } from '@fhir-auth/core'
import { describe, expect, it } from 'vitest'
import { compactJwsPattern, pemPrivateKeyPattern, SecretScanner } from './secret-scan.js'

const { privateKey: rsaPem } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
})

describe('SecretScanner', () => {
  it('finds nothing when no collected text contains a secret', () => {
    const scan = new SecretScanner().addSecret('client secret', 'correct-horse-battery')
    scan
      .addText('log', 'token request failed: invalid_client')
      .addValue('config', { clientId: 'app' })
    expect(scan.findings()).toEqual([])
    expect(scan.textCount).toBeGreaterThan(0)
  })

  it('names the secret and the place, never the value', () => {
    const scan = new SecretScanner().addSecret('client secret', 'correct-horse-battery')
    scan.addText('log line 2', 'sent correct-horse-battery to the server')
    expect(scan.findings()).toEqual([{ secret: 'client secret', source: 'log line 2' }])
  })

  it('finds the URL-encoded form of a secret', () => {
    const scan = new SecretScanner().addSecret('code', 'a+b/c=d secret')
    scan.addText('url', 'https://app.example/callback?code=a%2Bb%2Fc%3Dd%20secret')
    expect(scan.findings().map((finding) => finding.secret)).toEqual(['code (URL-encoded)'])
  })

  it('follows the cause chain of an error, including JSON and inspect output', () => {
    const inner = new Error('upstream said: refresh-token-value-123')
    const middle = Object.assign(new Error('wrapped'), {
      detail: { token: 'access-token-value-456' },
    })
    middle.cause = inner
    const outer = new TokenError(
      { message: 'token request failed', status: 400 },
      { cause: middle },
    )
    const scan = new SecretScanner()
      .addSecret('refresh token', 'refresh-token-value-123')
      .addSecret('access token', 'access-token-value-456')
      .addError('refresh', outer)
    const secrets = new Set(scan.findings().map((finding) => finding.secret))
    expect(secrets).toEqual(new Set(['refresh token', 'access token']))
    expect(scan.findings().some((finding) => finding.source.includes('› cause › cause'))).toBe(true)
  })

  it('finds a secret in a hidden member, as util.inspect with showHidden prints it', () => {
    const holder = {}
    Object.defineProperty(holder, 'hidden', { value: 'hidden-refresh-token', enumerable: false })
    const scan = new SecretScanner().addSecret('refresh token', 'hidden-refresh-token')
    expect(scan.addValue('holder', holder).findings()).toEqual([
      { secret: 'refresh token', source: 'holder (inspect, showHidden)' },
    ])
  })

  it('looks into the members of an AggregateError', () => {
    const scan = new SecretScanner().addSecret('assertion', 'eyJhbGciOiJSUzM4NCJ9.e30.sig')
    scan.addError(
      'batch',
      new AggregateError([new Error('bad eyJhbGciOiJSUzM4NCJ9.e30.sig')], 'two failed'),
    )
    expect(scan.findings().some((finding) => finding.source.includes('errors[0]'))).toBe(true)
  })

  it('survives a cyclic cause chain', () => {
    const first = new Error('first')
    const second = new Error('second', { cause: first })
    first.cause = second
    const scan = new SecretScanner()
      .addSecret('secret', 'not-in-here-at-all')
      .addError('cycle', first)
    expect(scan.findings()).toEqual([])
  })

  it('finds a private key by a single PEM line, the whole body and its JWK private exponent', () => {
    const scan = new SecretScanner().addPrivateKeyPem('RS384 key', rsaPem)
    const lines = rsaPem.split('\n').filter((line) => line !== '' && !line.startsWith('-----'))
    // A PEM-imported key: the Node 20 EC-JWK export deadlock does not apply.
    const jwk = createPrivateKey(rsaPem).export({ format: 'jwk' })
    scan.addText('one line', `key fragment ${lines[3]} in a message`)
    scan.addText('whole body', lines.join(''))
    scan.addText('jwk', `{"d":"${jwk.d}"}`)
    const bySource = (source: string) =>
      scan
        .findings()
        .filter((finding) => finding.source === source)
        .map((finding) => finding.secret)
    expect(bySource('one line')).toEqual(['RS384 key (PEM line 4)'])
    expect(bySource('whole body')).toContain('RS384 key (PEM body)')
    expect(bySource('jwk')).toContain('RS384 key (JWK d)')
  })

  it('reports texts matching a registered pattern, such as any compact JWS or PEM armour', () => {
    const scan = new SecretScanner()
      .addPattern('a compact JWS', compactJwsPattern)
      .addPattern('a PEM private key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/g)
      .addPattern('PEM armour', pemPrivateKeyPattern)
    scan.addText('jwt', 'assertion eyJhbGciOiJFUzM4NCJ9.eyJpc3MiOiJhcHAifQ.c2ln was refused')
    scan.addText('pem', rsaPem)
    scan.addText('again', rsaPem)
    scan.addText('event id', 'smart.token.client_credentials eyJ.not.a-jwt')
    expect(scan.findings()).toEqual([
      { secret: 'a compact JWS', source: 'jwt' },
      { secret: 'a PEM private key', source: 'pem' },
      { secret: 'PEM armour', source: 'pem' },
      { secret: 'a PEM private key', source: 'again' },
      { secret: 'PEM armour', source: 'again' },
    ])
  })

  it('refuses secrets too short to be told apart from ordinary text', () => {
    expect(() => new SecretScanner().addSecret('pin', '1234')).toThrow(ConfigurationError)
  })

  it('refuses a private key that is not PEM', () => {
    expect(() => new SecretScanner().addPrivateKeyPem('key', 'not a key')).toThrow(
      /is not a PEM private key/,
    )
  })
})
