import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { createClientAssertion } from '@fhir-auth/smart'
import { calculateJwkThumbprint, createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from './support/cli-harness.js'
import { type TemporaryDirectory, temporaryDirectory } from './support/temporary-files.js'

const privateMembers = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth']
let files: TemporaryDirectory

beforeAll(async () => {
  files = await temporaryDirectory()
})
afterAll(() => files?.remove())

async function generate(alg: string, name: string) {
  const out = join(files.path, name)
  const result = await runCli(['keys', 'generate', '--alg', alg, '--out', out, '--json'])
  expect(result.exitCode, result.stderr).toBe(0)
  return { out, printed: JSON.parse(result.stdout) as { kid: string; jwks: JSONWebKeySet } }
}

describe('keys generate and keys jwks', () => {
  it('prints a JWKS that jose verifies assertions signed by the generated keys against', async () => {
    const rsa = await generate('RS384', 'rsa.pem')
    const ec = await generate('ES384', 'ec.pem')
    expect((await stat(rsa.out)).mode & 0o777).toBe(0o600)
    const result = await runCli(['keys', 'jwks', rsa.out, ec.out, '--json'])
    expect(result.exitCode, result.stderr).toBe(0)
    const jwks = JSON.parse(result.stdout) as JSONWebKeySet
    expect(jwks.keys.map(({ kty, alg, use, kid }) => ({ kty, alg, use, kid }))).toEqual([
      { kty: 'RSA', alg: 'RS384', use: 'sig', kid: rsa.printed.kid },
      { kty: 'EC', alg: 'ES384', use: 'sig', kid: ec.printed.kid },
    ])
    for (const key of jwks.keys) {
      for (const member of privateMembers) expect(key).not.toHaveProperty(member)
      expect(key.kid).toBe(await calculateJwkThumbprint(key, 'sha256'))
    }
    const backend = createNodeCryptoBackend()
    const { readFile } = await import('node:fs/promises')
    for (const [generated, kid] of [
      [rsa, rsa.printed.kid],
      [ec, ec.printed.kid],
    ] as const) {
      const signer = await backend.importSigner(await readFile(generated.out, 'utf8'), {
        profile: 'smart',
        kid,
      })
      const assertion = await createClientAssertion({
        clientId: 'backend-app',
        tokenEndpoint: 'https://ehr.example/oauth2/token',
        signer,
      })
      const verified = await jwtVerify(assertion, createLocalJWKSet(jwks), {
        audience: 'https://ehr.example/oauth2/token',
        issuer: 'backend-app',
      })
      expect(verified.protectedHeader).toMatchObject({ kid, alg: signer.alg })
    }
  })

  it('prints the human listing with the kid and the JWKS to publish', async () => {
    const out = join(files.path, 'listed.pem')
    const result = await runCli(['keys', 'generate', '--alg', 'es384', '--out', out])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toContain(`ES384 private key written to ${out}`)
    const kid = (await runCli(['keys', 'jwks', out, '--json'])).stdout.match(/"kid":"([^"]+)"/)?.[1]
    expect(result.stdout).toMatch(new RegExp(`kid\\s+${kid}\\n`))
    expect(result.stdout).not.toContain('PRIVATE KEY')
  })

  it('writes the private key to stdout without --out', async () => {
    const result = await runCli(['keys', 'generate', '--alg', 'ES384'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toMatch(
      /^-----BEGIN PRIVATE KEY-----\n[\s\S]+-----END PRIVATE KEY-----\n$/,
    )
  })

  it('never overwrites a key file and refuses bad command lines', async () => {
    const existing = await files.write('taken.pem', 'keep me')
    const overwrite = await runCli(['keys', 'generate', '--alg', 'ES384', '--out', existing])
    expect(overwrite.exitCode).toBe(2)
    expect(overwrite.stderr).toContain('exists; keys are never overwritten')
    const { readFile } = await import('node:fs/promises')
    expect(await readFile(existing, 'utf8')).toBe('keep me')
    for (const [argv, message] of [
      [['keys', 'generate', '--alg', 'HS256'], '--alg must be RS384 or ES384'],
      [['keys', 'generate'], '--alg is required'],
      [['keys', 'jwks'], 'needs at least one key file'],
      [['keys', 'rotate'], 'unknown action'],
      [['keys'], 'an action is required'],
      [['keys', 'jwks', existing, '--alg', 'ES384'], '--alg is for `keys generate`'],
    ] as const) {
      const result = await runCli(argv)
      expect(result.exitCode, argv.join(' ')).toBe(2)
      expect(result.stderr).toContain(message)
    }
    const certificateOnly = await files.write(
      'certificate.pem',
      '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n',
    )
    const notAKey = await runCli(['keys', 'jwks', certificateOnly])
    expect(notAKey.exitCode).toBe(2)
    expect(notAKey.stderr).toContain('has no PEM private key block')
  })
})
