import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inspect, promisify } from 'node:util'
import { ConfigurationError, TokenError } from '@fhir-auth/client'
import {
  type ClientKeys,
  generateClientKeys,
  type SmartSandbox,
  startSmartSandbox,
} from '@fhir-auth/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBackendClient, readWithBackendToken } from '../src/backend-services.js'
import { FhirReadError } from '../src/fhir-read.js'
import { type Environment, readSettings } from '../src/settings.js'

const run = promisify(execFile)
const packageDirectory = join(import.meta.dirname, '..')

let sandbox: SmartSandbox
let rsaKeys: ClientKeys
let ecKeys: ClientKeys
let temporaryDirectory: string

beforeAll(async () => {
  ;[rsaKeys, ecKeys, temporaryDirectory] = await Promise.all([
    generateClientKeys('RS384'),
    generateClientKeys('ES384'),
    mkdtemp(join(tmpdir(), 'backend-services-')),
  ])
  sandbox = await startSmartSandbox({
    clients: [
      {
        client_id: 'rsa-service',
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [rsaKeys.publicJwk] },
      },
      {
        client_id: 'ec-service',
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [ecKeys.publicJwk] },
      },
    ],
  })
})

afterAll(async () => {
  await sandbox?.close()
  if (temporaryDirectory) await rm(temporaryDirectory, { recursive: true, force: true })
})

function environment(keys: ClientKeys, clientId: string): Environment {
  return {
    FHIR_BASE_URL: sandbox.fhirBaseUrl,
    CLIENT_ID: clientId,
    KEY_ID: keys.kid,
    PRIVATE_KEY_PEM: keys.privateKeyPem,
    FHIR_RESOURCE: 'Patient/patient-7',
    ALLOW_INSECURE_LOCALHOST: 'true',
  }
}

/** The client assertion (a JWT) of the most recent token request. */
function lastClientAssertion(): string {
  const tokenRequest = sandbox.requests.filter((request) => request.path === '/token').at(-1)
  const assertion = tokenRequest?.form?.client_assertion
  if (assertion === undefined) throw new Error('no client assertion was sent')
  return assertion
}

/** The JOSE header of the client assertion in the most recent token request. */
function lastClientAssertionHeader(): Record<string, unknown> {
  const [encodedHeader = ''] = lastClientAssertion().split('.')
  return JSON.parse(Buffer.from(encodedHeader, 'base64url').toString('utf8'))
}

describe('backend services against the SMART sandbox', () => {
  it('gets a token with an RS384 key from PRIVATE_KEY_PEM and reads the patient', async () => {
    const settings = await readSettings(environment(rsaKeys, 'rsa-service'))
    const result = await readWithBackendToken(createBackendClient(settings), settings)

    expect(result.resource).toMatchObject({ resourceType: 'Patient', id: 'patient-7' })
    expect(result.grantedScope).toBe('system/Patient.rs')
    expect(result.expiresInSeconds).toBe(300)
    expect(lastClientAssertionHeader()).toMatchObject({
      alg: 'RS384',
      kid: rsaKeys.kid,
      typ: 'JWT',
    })
  })

  it('gets a token with an ES384 key from PRIVATE_KEY_FILE', async () => {
    const keyFile = join(temporaryDirectory, 'ec-key.pem')
    await writeFile(keyFile, ecKeys.privateKeyPem, { mode: 0o600 })
    const { PRIVATE_KEY_PEM: _unused, ...rest } = environment(ecKeys, 'ec-service')
    const settings = await readSettings({ ...rest, PRIVATE_KEY_FILE: keyFile })
    const result = await readWithBackendToken(createBackendClient(settings), settings)

    expect(result.resource).toMatchObject({ resourceType: 'Patient', id: 'patient-7' })
    expect(lastClientAssertionHeader()).toMatchObject({ alg: 'ES384', kid: ecKeys.kid })
  })

  it('reports a key the server does not know as a TokenError without the key in it', async () => {
    // The EC key signs for the RSA client: the server cannot verify the assertion.
    const settings = await readSettings({
      ...environment(ecKeys, 'rsa-service'),
      KEY_ID: rsaKeys.kid,
    })
    const failure = await readWithBackendToken(createBackendClient(settings), settings).catch(
      (error: unknown) => error,
    )

    expect(failure).toBeInstanceOf(TokenError)
    expect((failure as TokenError).error).toBe('invalid_client')
    // Neither the key nor the signed assertion may leak into the error or its cause chain.
    const printed = inspect(failure, { depth: 10 })
    expect(printed).not.toContain(ecKeys.privateKeyPem.slice(40, 80))
    expect(printed).not.toContain(lastClientAssertion())
  })

  it('reports a FHIR read the granted scope does not allow as FhirReadError 403', async () => {
    const settings = await readSettings({
      ...environment(rsaKeys, 'rsa-service'),
      SCOPES: 'system/Observation.rs',
    })
    const failure = await readWithBackendToken(createBackendClient(settings), settings).catch(
      (error: unknown) => error,
    )

    expect(failure).toBeInstanceOf(FhirReadError)
    expect(failure).toMatchObject({ status: 403 })
    expect((failure as Error).message).toContain('does not allow reading this Patient')
  })

  it('runs src/main.ts as a script and prints the resource', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', '--conditions=@fhir-auth/source', 'src/main.ts'],
      {
        cwd: packageDirectory,
        env: { ...process.env, ...environment(ecKeys, 'ec-service') },
        timeout: 20_000,
      },
    )

    expect(stdout).toContain('granted scope: system/Patient.rs (expires in 300 s)')
    expect(stdout).toContain('"id": "patient-7"')
  })

  it('reports a failed discovery once: the thrown error, not a log line repeating it', async () => {
    sandbox.setDiscoveryOverride({ response: { status: 503, body: 'down' } })
    try {
      const failure = await run(
        process.execPath,
        ['--import', 'tsx', '--conditions=@fhir-auth/source', 'src/main.ts'],
        {
          cwd: packageDirectory,
          env: { ...process.env, ...environment(ecKeys, 'ec-service') },
          timeout: 20_000,
        },
      ).catch((error: { code?: number; stderr?: string }) => error)
      expect(failure).toMatchObject({ code: 1 })
      const lines = String((failure as { stderr?: string }).stderr)
        .trim()
        .split('\n')
      expect(lines).toEqual([
        expect.stringMatching(/^DiscoveryError: SMART discovery failed .*503/),
      ])
    } finally {
      sandbox.setDiscoveryOverride(undefined)
    }
  })
})

describe('settings from the environment', () => {
  it('names the missing variable', async () => {
    const { CLIENT_ID: _unused, ...rest } = environment(rsaKeys, 'rsa-service')
    await expect(readSettings(rest)).rejects.toMatchObject({
      constructor: ConfigurationError,
      invalidAttribute: 'CLIENT_ID',
    })
  })

  it('asks for PRIVATE_KEY_PEM or PRIVATE_KEY_FILE when neither is set', async () => {
    const { PRIVATE_KEY_PEM: _unused, ...rest } = environment(rsaKeys, 'rsa-service')
    await expect(readSettings(rest)).rejects.toThrow(/PRIVATE_KEY_PEM .* or PRIVATE_KEY_FILE/)
  })

  it('reports an unreadable key file with its path and error code', async () => {
    const { PRIVATE_KEY_PEM: _unused, ...rest } = environment(rsaKeys, 'rsa-service')
    const missing = join(temporaryDirectory, 'missing.pem')
    await expect(readSettings({ ...rest, PRIVATE_KEY_FILE: missing })).rejects.toMatchObject({
      invalidAttribute: 'PRIVATE_KEY_FILE',
      message: expect.stringContaining('ENOENT'),
    })
  })

  it('splits SCOPES on whitespace and defaults to system/Patient.rs', async () => {
    const base = environment(rsaKeys, 'rsa-service')
    expect((await readSettings(base)).scopes).toEqual(['system/Patient.rs'])
    expect(
      (await readSettings({ ...base, SCOPES: ' system/Patient.rs  system/Observation.rs ' }))
        .scopes,
    ).toEqual(['system/Patient.rs', 'system/Observation.rs'])
  })
})
