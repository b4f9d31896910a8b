import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
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
import { type RedisServer, startRedisServer } from '@fhir-auth/test-utils/redis-server'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBackendClient, serviceTokens } from '../src/backend-services.js'
import { FhirReadError, readFhirResource } from '../src/fhir-read.js'
import { type Environment, readSettings } from '../src/settings.js'
import { connectSharedStore } from '../src/shared-store.js'

const run = promisify(execFile)
const packageDirectory = join(import.meta.dirname, '..')

let sandbox: SmartSandbox
let redisServer: RedisServer
let rsaKeys: ClientKeys
let ecKeys: ClientKeys
let temporaryDirectory: string

beforeAll(async () => {
  ;[rsaKeys, ecKeys, temporaryDirectory, redisServer] = await Promise.all([
    generateClientKeys('RS384'),
    generateClientKeys('ES384'),
    mkdtemp(join(tmpdir(), 'backend-services-')),
    startRedisServer(),
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
  await Promise.all([sandbox?.close(), redisServer?.stop()])
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

const tokenRequests = () => sandbox.requests.filter((request) => request.path === '/token')

/** The client assertion (a JWT) of the most recent token request. */
function lastClientAssertion(): string {
  const assertion = tokenRequests().at(-1)?.form?.client_assertion
  if (assertion === undefined) throw new Error('no client assertion was sent')
  return assertion
}

/** The JOSE header of the client assertion in the most recent token request. */
function lastClientAssertionHeader(): Record<string, unknown> {
  const [encodedHeader = ''] = lastClientAssertion().split('.')
  return JSON.parse(Buffer.from(encodedHeader, 'base64url').toString('utf8'))
}

/** Runs src/main.ts as a real script with `variables` added to the environment. */
function runScript(variables: Environment) {
  return run(
    process.execPath,
    ['--import', 'tsx', '--conditions=@fhir-auth/source', 'src/main.ts'],
    {
      cwd: packageDirectory,
      env: { ...process.env, ...variables },
      timeout: 30_000,
    },
  )
}

describe('backend services against the SMART sandbox', () => {
  it('reads the patient with a token from an RS384 key in PRIVATE_KEY_PEM', async () => {
    const settings = await readSettings(environment(rsaKeys, 'rsa-service'))
    const tokens = serviceTokens(createBackendClient(settings), settings)
    const resource = await readFhirResource(tokens, settings.resourcePath)

    expect(resource).toMatchObject({ resourceType: 'Patient', id: 'patient-7' })
    expect(tokenRequests().at(-1)?.form?.scope).toBe('system/Patient.rs')
    expect(lastClientAssertionHeader()).toMatchObject({
      alg: 'RS384',
      kid: rsaKeys.kid,
      typ: 'JWT',
    })
  })

  it('reads with an ES384 key from PRIVATE_KEY_FILE', async () => {
    const keyFile = join(temporaryDirectory, 'ec-key.pem')
    await writeFile(keyFile, ecKeys.privateKeyPem, { mode: 0o600 })
    const { PRIVATE_KEY_PEM: _unused, ...rest } = environment(ecKeys, 'ec-service')
    const settings = await readSettings({ ...rest, PRIVATE_KEY_FILE: keyFile })
    const tokens = serviceTokens(createBackendClient(settings), settings)

    expect(await readFhirResource(tokens, settings.resourcePath)).toMatchObject({ id: 'patient-7' })
    expect(lastClientAssertionHeader()).toMatchObject({ alg: 'ES384', kid: ecKeys.kid })
  })

  it('reuses the token: ten reads, five of them at once, one token request', async () => {
    const settings = await readSettings(environment(ecKeys, 'ec-service'))
    const tokens = serviceTokens(createBackendClient(settings), settings)
    const before = tokenRequests().length
    for (let read = 0; read < 5; read++) await readFhirResource(tokens, 'Patient/patient-1')
    await Promise.all(
      Array.from({ length: 5 }, () => readFhirResource(tokens, 'Patient/patient-2')),
    )
    expect(tokenRequests().length - before).toBe(1)
  })

  it('reports a key the server does not know as a TokenError without the key in it', async () => {
    // The EC key signs for the RSA client: the server cannot verify the assertion.
    const settings = await readSettings({
      ...environment(ecKeys, 'rsa-service'),
      KEY_ID: rsaKeys.kid,
    })
    const tokens = serviceTokens(createBackendClient(settings), settings)
    const failure = await readFhirResource(tokens, settings.resourcePath).catch(
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
    const tokens = serviceTokens(createBackendClient(settings), settings)
    const failure = await readFhirResource(tokens, settings.resourcePath).catch(
      (error: unknown) => error,
    )

    expect(failure).toBeInstanceOf(FhirReadError)
    expect(failure).toMatchObject({ status: 403 })
    expect((failure as Error).message).toContain('does not allow reading this Patient')
  })

  it('refuses a resource outside the FHIR base URL before sending the token', async () => {
    const settings = await readSettings(environment(ecKeys, 'ec-service'))
    const tokens = serviceTokens(createBackendClient(settings), settings)
    const failure = await readFhirResource(tokens, 'https://elsewhere.example/Patient/1').catch(
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(ConfigurationError)
  })

  it('runs src/main.ts as a script and prints the resource', async () => {
    const before = tokenRequests().length
    const { stdout } = await runScript({ ...environment(ecKeys, 'ec-service'), READ_COUNT: '3' })

    expect(stdout).toContain('read Patient/patient-7 3 time(s)')
    expect(stdout).toContain('"id": "patient-7"')
    expect(tokenRequests().length - before).toBe(1)
  })

  it('reports a failed discovery once: the thrown error, not a log line repeating it', async () => {
    sandbox.setDiscoveryOverride({ response: { status: 503, body: 'down' } })
    try {
      const failure = await runScript(environment(ecKeys, 'ec-service')).catch(
        (error: { code?: number; stderr?: string }) => error,
      )
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

describe('a fleet sharing Redis', () => {
  const encryptionKey = randomBytes(32)

  it('two processes of the service (two clients) share one token; Redis holds no token text', async () => {
    const settings = await readSettings(environment(ecKeys, 'ec-service'))
    const [first, second] = await Promise.all([
      connectSharedStore(redisServer.url, encryptionKey),
      connectSharedStore(redisServer.url, encryptionKey),
    ])
    try {
      const before = tokenRequests().length
      const a = serviceTokens(createBackendClient(settings), settings, first.store)
      const b = serviceTokens(createBackendClient(settings), settings, second.store)
      await Promise.all([
        readFhirResource(a, 'Patient/patient-1'),
        readFhirResource(b, 'Patient/patient-2'),
      ])
      expect(await a.accessToken()).toBe(await b.accessToken())
      expect(tokenRequests().length - before).toBe(1)

      const redis = await createClient({ url: redisServer.url }).connect()
      try {
        const token = await a.accessToken()
        const keys = await redis.keys('backend-service:*')
        expect(keys.length).toBeGreaterThan(0)
        for (const key of keys) expect(await redis.get(key)).not.toContain(token)
      } finally {
        await redis.quit()
      }
    } finally {
      await Promise.all([first.close(), second.close()])
    }
  })

  it('the script run twice with REDIS_URL: the second run asks the token endpoint nothing', async () => {
    const variables = {
      ...environment(rsaKeys, 'rsa-service'),
      REDIS_URL: redisServer.url,
      STORE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    }
    const before = tokenRequests().length
    const firstRun = await runScript(variables)
    const secondRun = await runScript(variables)
    expect(firstRun.stdout).toContain('"id": "patient-7"')
    expect(secondRun.stdout).toContain('"id": "patient-7"')
    expect(tokenRequests().length - before).toBe(1)
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

  it('reads REDIS_URL and a 32-byte STORE_ENCRYPTION_KEY; refuses another key without quoting it', async () => {
    const base = environment(rsaKeys, 'rsa-service')
    const plain = await readSettings(base)
    expect(plain.redisUrl).toBeUndefined()
    expect(plain.storeEncryptionKey).toBeUndefined()
    const hex = 'ab'.repeat(32)
    const fleet = await readSettings({
      ...base,
      REDIS_URL: 'redis://127.0.0.1:6379',
      STORE_ENCRYPTION_KEY: hex,
    })
    expect(fleet.redisUrl).toBe('redis://127.0.0.1:6379')
    expect(fleet.storeEncryptionKey).toEqual(new Uint8Array(32).fill(0xab))
    for (const wrong of ['ab'.repeat(31), `${'ab'.repeat(31)}zz`, 'not-hex-secret-value']) {
      const failure = await readSettings({ ...base, STORE_ENCRYPTION_KEY: wrong }).catch(
        (e: unknown) => e,
      )
      expect(failure).toMatchObject({ invalidAttribute: 'STORE_ENCRYPTION_KEY' })
      expect(inspect(failure)).not.toContain(wrong)
    }
  })
})
