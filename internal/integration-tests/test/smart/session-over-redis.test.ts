/**
 * Sessions kept sealed in a real `redis-server` (`redisStore` with an `encryptionKey`): a value
 * that does not open — sealed with another key, altered, written in clear — is no session of
 * this client. `sessions.open(id)` resolves `undefined` and logs one warning naming no secret,
 * and the store is not counted as down (the next session opens at once). Redis itself failing
 * is still a `StoreError`, never `undefined`.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { Client, Session } from '@fhir-auth/client'
import { StoreError } from '@fhir-auth/client'
import { redisStore } from '@fhir-auth/store-redis'
import { type CapturingLogger, createCapturingLogger } from '@fhir-auth/test-utils'
import { type RedisServer, startRedisServer } from '@fhir-auth/test-utils/redis-server'
import { createClient } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signIn } from '../fleet/support/session-fleet-setup.js'
import { appClient, type SmartFixture, startSmartFixture } from './support/smart-fixture.js'

let fixture: SmartFixture
let redis: RedisServer
let redisClient: Awaited<ReturnType<ReturnType<typeof createClient>['connect']>>
let logger: CapturingLogger
let client: Client
let signedIn: Session
const keyA = randomBytes(32)
const keyB = randomBytes(32)

beforeAll(async () => {
  ;[fixture, redis] = await Promise.all([
    startSmartFixture({ standalonePatient: 'patient-3' }),
    startRedisServer(),
  ])
  redisClient = await createClient({ url: redis.url }).connect()
  logger = createCapturingLogger()
  client = appClient(fixture, 'public', {}, { logger })
  signedIn = await signIn(fixture, client)
}, 60_000)

afterAll(async () => {
  await redisClient?.close()
  await Promise.all([fixture?.sandbox.close(), redis?.stop()])
})

/** Where `save` keeps the session of `id`: its SHA-256, never the id itself. */
function sessionKey(id: string): string {
  return `fhir-auth:session:${createHash('sha256').update(id).digest('base64url')}`
}

/** The events of the warnings logged since the last call, and checks they hold no secret. */
function warningsSince(...secrets: string[]): unknown[] {
  const warnings = logger.entries.filter((entry) => entry.level === 'warn')
  const rendered = logger.renderedLines().join('\n')
  for (const secret of secrets) expect(rendered).not.toContain(secret)
  logger.clear()
  return warnings.map((entry) => entry.fields?.event)
}

const secretsOf = (id: string) => [
  id,
  signedIn.tokens.accessToken,
  signedIn.tokens.refreshToken ?? '',
  keyA.toString('hex'),
  keyB.toString('hex'),
]

describe('a sealed session that does not open is no session', () => {
  it('sealed with another encryptionKey: undefined, one warning, and the store stays up', async () => {
    const id = await client
      .sessions({ store: redisStore(redisClient, { encryptionKey: keyA }) })
      .save(signedIn)
    logger.clear()
    const sessions = client.sessions({ store: redisStore(redisClient, { encryptionKey: keyB }) })
    expect(await sessions.open(id)).toBeUndefined()
    expect(warningsSince(...secretsOf(id))).toEqual(['sessions.stored_session_refused'])

    // Not counted as a store outage: a session this key sealed opens at once, with no warning.
    const ownId = await sessions.save(signedIn)
    expect((await sessions.open(ownId))?.tokens.accessToken).toBe(signedIn.tokens.accessToken)
    expect(warningsSince()).toEqual([])
  })

  it.each([
    ['altered', (sealed: string) => `${sealed.slice(0, -2)}${sealed.endsWith('AA') ? 'BB' : 'AA'}`],
    ['written in clear', () => signedIn.tokens.serialize()],
    ['not a sealed value at all', () => 'fa1.x.y'],
  ])('%s: undefined and one warning naming no secret', async (_kind, replace) => {
    const sessions = client.sessions({ store: redisStore(redisClient, { encryptionKey: keyA }) })
    const id = await sessions.save(signedIn)
    const sealed = (await redisClient.get(sessionKey(id))) ?? ''
    expect(sealed).toMatch(/^fa1\./)
    await redisClient.set(sessionKey(id), replace(sealed), {
      expiration: { type: 'EX', value: 60 },
    })
    logger.clear()
    expect(await sessions.open(id)).toBeUndefined()
    expect(warningsSince(...secretsOf(id))).toEqual(['sessions.stored_session_refused'])
  })

  it('Redis that is gone is a StoreError, not an absent session', async () => {
    const gone = await startRedisServer()
    const goneClient = await createClient({ url: gone.url }).connect()
    const sessions = client.sessions({ store: redisStore(goneClient, { encryptionKey: keyA }) })
    const id = await sessions.save(signedIn)
    await goneClient.destroy()
    await gone.stop()
    const failure = await sessions.open(id).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(StoreError)
    expect(String((failure as StoreError).message)).not.toContain(id)
  })
})
