/**
 * A launch kept in Redis (`redisStore`, sealed): `beginAuthorization` in one `Client`,
 * `completeAuthorization` in another — in this process and in a process of its own, as two
 * servers behind a load balancer — against the real oidc-provider sandbox and a real
 * `redis-server`. The launch is taken with `GETDEL`: a replayed callback finds nothing.
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { AuthorizationError, type Client } from '@fhir-auth/client'
import { redisStore } from '@fhir-auth/store-redis'
import { type RedisServer, startRedisServer } from '@fhir-auth/test-utils/redis-server'
import { createClient, type RedisClientType } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  appClient,
  appConfig,
  type SmartFixture,
  startSmartFixture,
} from './support/smart-fixture.js'

const run = promisify(execFile)
const tsx = createRequire(import.meta.url).resolve('tsx')
const completeLaunchScript = join(import.meta.dirname, 'support', 'complete-launch-process.ts')

let fixture: SmartFixture
let redisServer: RedisServer
let redis: RedisClientType
const encryptionKey = randomBytes(32)

beforeAll(async () => {
  ;[fixture, redisServer] = await Promise.all([
    startSmartFixture({ standalonePatient: 'patient-7' }),
    startRedisServer(),
  ])
  redis = createClient({ url: redisServer.url })
  await redis.connect()
})
afterAll(async () => {
  await redis?.quit()
  await Promise.all([fixture?.sandbox.close(), redisServer?.stop()])
})

const prefix = 'launch-test:'
const store = () => redisStore(redis, { encryptionKey, prefix })

/** Begins in `client` with the Redis store and plays the user; the callback URL. */
async function begin(client: Client): Promise<string> {
  const begun = await client.beginAuthorization({ store: store() })
  expect(begun).not.toHaveProperty('codeVerifier')
  const result = await fixture.sandbox.authorize({ url: begun.authUrl })
  if (result.redirectUrl === undefined) throw new Error(`no callback: ${result.error}`)
  return result.redirectUrl.href
}

describe('a launch kept in Redis', () => {
  it('is completed by another Client in this process; a replay finds nothing', async () => {
    const callbackUrl = await begin(appClient(fixture, 'symmetric'))
    const keys = await redis.keys('launch-test:*')
    expect(keys).toHaveLength(1)
    // Sealed at rest: no state, verifier or other launch detail in clear.
    const stored = (await redis.get(keys[0] as string)) as string
    expect(stored).toMatch(/^fa1\./)
    expect(stored).not.toContain(new URL(callbackUrl).searchParams.get('state'))

    const session = await appClient(fixture, 'symmetric').completeAuthorization(callbackUrl, {
      store: store(),
    })
    expect(session.tokens.patient).toBe('patient-7')
    expect((await session.fetch('Patient/patient-7')).status).toBe(200)
    expect(await redis.keys('launch-test:*')).toEqual([])

    const replay = await appClient(fixture, 'symmetric')
      .completeAuthorization(callbackUrl, { store: store() })
      .catch((error: unknown) => error)
    expect(replay).toBeInstanceOf(AuthorizationError)
    expect(replay).toMatchObject({ error: 'state_mismatch' })
  })

  it('is completed by another process', async () => {
    const callbackUrl = await begin(appClient(fixture, 'symmetric'))
    const input = {
      config: appConfig(fixture, 'symmetric'),
      clientType: 'confidential_symmetric',
      redisUrl: redisServer.url,
      encryptionKeyHex: encryptionKey.toString('hex'),
      prefix,
      callbackUrl,
      patientPath: 'Patient/patient-7',
    }
    const { stdout } = await run(
      process.execPath,
      ['--import', tsx, '--conditions=@fhir-auth/source', completeLaunchScript],
      { env: { ...process.env, LAUNCH_INPUT: JSON.stringify(input) }, timeout: 30_000 },
    )
    expect(JSON.parse(stdout.trim())).toEqual({
      patient: 'patient-7',
      subject: 'practitioner-1',
      readStatus: 200,
    })
    const replay = await appClient(fixture, 'symmetric')
      .completeAuthorization(callbackUrl, { store: store() })
      .catch((error: unknown) => error)
    expect(replay).toMatchObject({ error: 'state_mismatch' })
  })
})
