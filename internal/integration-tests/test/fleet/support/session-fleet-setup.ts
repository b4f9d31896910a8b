/**
 * The setup the session fleet tests share (session-fleet.test.ts on one `redis-server`,
 * session-fleet-cluster.test.ts on a Redis Cluster): one user signs in once against the SMART
 * sandbox, the session is saved, sealed, in the shared Redis, and a fleet of worker processes
 * (session-fleet-worker.ts) opens that session id.
 */
import { randomBytes } from 'node:crypto'
import { type Client, memoryStore } from '@fhir-auth/client'
import { sandboxDefaultRedirectUri } from '@fhir-auth/sandbox'
import { type RedisClientLike, redisStore } from '@fhir-auth/store-redis'
import {
  appClient,
  clientIds,
  type SmartFixture,
  standaloneScopes,
} from '../../smart/support/smart-fixture.js'
import { type Fleet, startFleet } from './fleet.js'
import type { SessionWorkerSetup } from './fleet-messages.js'

/** The resource every worker call reads: the standalone launch's patient. */
const resource = 'Patient/patient-3'

/** A standalone launch through the sandbox, to the session it gives. */
export async function signIn(fixture: SmartFixture, client: Client) {
  const store = memoryStore()
  const begun = await client.beginAuthorization({ store })
  const result = await fixture.sandbox.authorize({ url: begun.authUrl })
  if (result.redirectUrl === undefined) throw new Error(`no callback: ${result.error}`)
  return client.completeAuthorization(result.redirectUrl.href, { store })
}

/** Where the workers find the Redis the parent saved the session in. */
export interface SessionFleetRedis {
  /** The parent's connection. */
  readonly client: RedisClientLike
  readonly url: string
  /** The root nodes, when it is a Redis Cluster. */
  readonly clusterUrls?: readonly string[]
}

/**
 * Signs one user in as the public app, saves the session in `redis` under a fresh
 * `encryptionKey`, and starts `size` workers that open it (their requests time out after
 * `timeoutMs`, which is also the lock's time to live).
 */
export async function startSessionFleet(
  fixture: SmartFixture,
  redis: SessionFleetRedis,
  { size, timeoutMs }: { readonly size: number; readonly timeoutMs: number },
): Promise<Fleet> {
  const encryptionKeyHex = randomBytes(32).toString('hex')
  const client = appClient(fixture, 'public')
  const store = redisStore(redis.client, { encryptionKey: Buffer.from(encryptionKeyHex, 'hex') })
  const sessionId = await client.sessions({ store }).save(await signIn(fixture, client))
  return startFleet<SessionWorkerSetup>(
    size,
    {
      fhirBaseUrl: fixture.sandbox.fhirBaseUrl,
      clientId: clientIds.public,
      redirectUri: sandboxDefaultRedirectUri,
      scopes: standaloneScopes,
      redisUrl: redis.url,
      ...(redis.clusterUrls === undefined ? {} : { clusterUrls: redis.clusterUrls }),
      encryptionKeyHex,
      timeoutMs,
      sessionId,
      resource,
    },
    new URL('./session-fleet-worker.ts', import.meta.url).pathname,
  )
}

/** Refresh requests the sandbox received so far. */
export function refreshRequests(fixture: SmartFixture): number {
  return fixture.sandbox.requests.filter(
    (request) => request.path === '/token' && request.form?.grant_type === 'refresh_token',
  ).length
}
