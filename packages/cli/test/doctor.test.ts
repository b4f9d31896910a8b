import { generateClientKeys, type SmartSandbox, startSmartSandbox } from '@fhir-auth/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from './support/cli-harness.js'
import { type TemporaryDirectory, temporaryDirectory } from './support/temporary-files.js'

let sandbox: SmartSandbox
let files: TemporaryDirectory
let keyFile: string
let kid: string
let privateKeyPem: string
const local = '--allow-insecure-localhost'

beforeAll(async () => {
  const keys = await generateClientKeys('ES384')
  ;({ kid, privateKeyPem } = keys)
  ;[sandbox, files] = await Promise.all([
    startSmartSandbox({
      clients: [
        {
          client_id: 'backend',
          token_endpoint_auth_method: 'private_key_jwt',
          grant_types: ['client_credentials'],
          jwks: { keys: [keys.publicJwk] },
          scope: 'system/Patient.rs',
        },
      ],
    }),
    temporaryDirectory(),
  ])
  keyFile = await files.write('backend.pem', privateKeyPem)
})
afterAll(async () => {
  await Promise.all([sandbox?.close(), files?.remove()])
})

const backendFlags = (overrides: { kid?: string } = {}) => [
  'doctor',
  '--base-url',
  sandbox.fhirBaseUrl,
  '--client-id',
  'backend',
  '--key',
  keyFile,
  '--kid',
  overrides.kid ?? kid,
  '--scope',
  'system/Patient.rs',
  '--try-token',
  local,
]

describe('doctor', () => {
  it('prints the report as JSON and exits 0 when no check fails', async () => {
    const result = await runCli([...backendFlags(), '--json'])
    expect(result.exitCode, result.stderr).toBe(0)
    const report = JSON.parse(result.stdout)
    expect(report.ok).toBe(true)
    expect(report.checks.map((check: { id: string }) => check.id)).toEqual([
      'discovery',
      'issuer-binding',
      'capabilities',
      'pkce',
      'signing-algorithm',
      'key-strength',
      'jwks',
      'clock',
      'redirect-uri',
      'scopes',
      'token',
    ])
    // No jwksUri given: the one warning, with its hint.
    const warned = report.checks.filter((check: { status: string }) => check.status !== 'pass')
    expect(warned).toEqual([
      expect.objectContaining({ id: 'jwks', status: 'warn', hint: expect.any(String) }),
    ])
  })

  it('prints a table with a hint under each failure and exits 1 when a check fails', async () => {
    const result = await runCli(backendFlags({ kid: 'not-registered' }))
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toMatch(/^NOT OK: 1 failed, 1 warned, 9 passed\n/)
    expect(result.stdout).toMatch(/\ntoken\s+FAIL\s+the server answered invalid_client/)
    expect(result.stdout).toMatch(/\n\s+hint: first check: the assertion's aud must be exactly/)
    expect(result.stdout).toMatch(/\ndiscovery\s+pass\s+SMART configuration read from/)
    for (const output of [result.stdout, result.stderr]) {
      expect(output).not.toContain('PRIVATE KEY')
      expect(output).not.toContain(privateKeyPem.split('\n')[1])
    }
  })

  it('checks a public app’s redirect URI and refuses --kid without --key', async () => {
    const result = await runCli([
      'doctor',
      '--base-url',
      sandbox.fhirBaseUrl,
      '--client-id',
      'app',
      '--redirect-uri',
      'http://app.example.org/callback',
      '--scope',
      'launch/patient patient/*.rs',
      local,
      '--json',
    ])
    expect(result.exitCode).toBe(1)
    const redirect = JSON.parse(result.stdout).checks.find(
      (check: { id: string }) => check.id === 'redirect-uri',
    )
    expect(redirect).toMatchObject({ status: 'fail', hint: expect.stringContaining('https:') })
    const usage = await runCli(['doctor', '--base-url', sandbox.fhirBaseUrl, '--kid', 'k', local])
    expect(usage.exitCode).toBe(2)
  })
})
