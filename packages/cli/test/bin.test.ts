import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  type ClientKeys,
  generateClientKeys,
  type SmartSandbox,
  sandboxDefaultRedirectUri,
  startSmartSandbox,
  startUdapSandbox,
  type UdapSandbox,
} from '@fhir-auth/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packageVersion } from '../src/version.js'
import { spawnCli, stderrLines } from './support/cli-harness.js'
import { type TemporaryDirectory, temporaryDirectory } from './support/temporary-files.js'
import { writeTrustFiles } from './support/udap-files.js'

let smart: SmartSandbox
let udap: UdapSandbox
let files: TemporaryDirectory
let keys: ClientKeys
let keyFile: string

const local = '--allow-insecure-localhost'

beforeAll(async () => {
  keys = await generateClientKeys('ES384')
  ;[smart, udap, files] = await Promise.all([
    startSmartSandbox({
      clients: [
        { client_id: 'bin-public', token_endpoint_auth_method: 'none' },
        {
          client_id: 'bin-backend',
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: [keys.publicJwk] },
        },
      ],
    }),
    startUdapSandbox({ hostile: 'untrusted-root' }),
    temporaryDirectory(),
  ])
  keyFile = await files.write('bin-key.pem', keys.privateKeyPem)
})
afterAll(async () => {
  await Promise.all([smart?.close(), udap?.close(), files?.remove()])
})

describe('the fhir-auth binary (real processes)', () => {
  it('starts with a node shebang and prints its version (exit 0)', async () => {
    const main = await readFile(join(import.meta.dirname, '..', 'src', 'main.ts'), 'utf8')
    expect(main.startsWith('#!/usr/bin/env node\n')).toBe(true)
    const result = await spawnCli(['--version'])
    expect(result).toEqual({ exitCode: 0, stdout: `${packageVersion()}\n`, stderr: '' })
  })

  it('exits 2 for a bad flag, with the error line and the usage on stderr', async () => {
    const result = await spawnCli(['token', '--frobnicate'])
    expect(result.exitCode, result.stderr).toBe(2)
    expect(result.stdout).toBe('')
    expect(stderrLines(result)[0]).toBe('error: unknown option --frobnicate')
    expect(result.stderr).toContain('Usage:\n  fhir-auth token ')
  })

  it('exits 1 for a server failure (registration without an initial access token)', async () => {
    const result = await spawnCli([
      'register',
      '--base-url',
      smart.fhirBaseUrl,
      '--metadata',
      '{"client_name":"bin"}',
      local,
    ])
    expect(result.exitCode, result.stderr).toBe(1)
    expect(stderrLines(result)).toHaveLength(1)
    expect(result.stderr).toMatch(/^error: client registration to .* failed with HTTP 401/)
  })

  it('exits 3 with one error line when signed_metadata is not trusted', async () => {
    const trustFlags = await writeTrustFiles(files, udap.trust)
    const result = await spawnCli(['discover', udap.fhirBaseUrl, '--udap', ...trustFlags, local])
    expect(result.exitCode, result.stderr).toBe(3)
    expect(result.stdout).toBe('')
    expect(stderrLines(result)).toHaveLength(1)
    expect(result.stderr).toMatch(
      /^error: signed_metadata from .* certificate chain is not trusted/,
    )
  })

  it('prints a backend services token as JSON (exit 0)', async () => {
    const result = await spawnCli([
      'token',
      '--base-url',
      smart.fhirBaseUrl,
      '--client-id',
      'bin-backend',
      '--key',
      keyFile,
      '--kid',
      keys.kid,
      '--scope',
      'system/*.rs',
      local,
      '--json',
    ])
    expect(result.stderr).toBe('')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ token_type: 'Bearer', scope: 'system/*.rs' })
  })

  it('reads the redirect URL from a real stdin pipe and exchanges the code', async () => {
    let isAnswered = false
    const result = await spawnCli(
      [
        'authorize',
        '--base-url',
        smart.fhirBaseUrl,
        '--client-id',
        'bin-public',
        '--redirect-uri',
        sandboxDefaultRedirectUri,
        '--scope',
        'launch/patient patient/*.rs',
        local,
        '--json',
      ],
      {
        onStdout: (stdout, stdin) => {
          if (isAnswered || !stdout.includes('\n')) return
          isAnswered = true
          const { authorizationRequest } = JSON.parse(stdout.slice(0, stdout.indexOf('\n')))
          void smart.authorize({ url: authorizationRequest.url }).then((authorized) => {
            stdin.end(`${authorized.redirectUrl?.href ?? ''}\n`)
          })
        },
      },
    )
    expect(result.stderr).toBe('')
    expect(result.exitCode, result.stderr).toBe(0)
    const [, tokenLine] = result.stdout.trim().split('\n')
    expect(JSON.parse(tokenLine ?? '')).toMatchObject({
      token_type: 'Bearer',
      patient: 'patient-1',
    })
  })
})
