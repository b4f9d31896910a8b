/**
 * One process of the session fleet test (`session-fleet.test.ts`): a public SMART `Client`
 * that opens one session id from `client.sessions({ store: redisStore(…) })` on the shared Redis
 * and makes `session.fetch` calls with it, driven over the IPC channel (see fleet.ts). Every
 * request carries the worker's number, so the server side can tell who holds the lock.
 */
import { Client } from '@fhir-auth/client'
import { redisStore } from '@fhir-auth/store-redis'
import { createClient, createCluster } from 'redis'
import type { SessionWorkerSetup } from './fleet-messages.js'
import { serveFleetWorker } from './worker-process.js'

serveFleetWorker<SessionWorkerSetup>(
  'session fleet worker',
  async (setup, { fetch, logger, now }) => {
    const redis =
      setup.clusterUrls === undefined
        ? await createClient({ url: setup.redisUrl }).connect()
        : await createCluster({ rootNodes: setup.clusterUrls.map((url) => ({ url })) }).connect()
    const client = new Client(
      {
        baseUrl: setup.fhirBaseUrl,
        clientId: setup.clientId,
        redirectUri: setup.redirectUri,
        scopes: [...setup.scopes],
        allowInsecureLocalhost: true,
      },
      { clientType: 'public', fetch, logger, timeoutMs: setup.timeoutMs, now },
    )
    const store = redisStore(redis, { encryptionKey: Buffer.from(setup.encryptionKeyHex, 'hex') })
    const session = await client.sessions({ store }).open(setup.sessionId)
    if (session === undefined) throw new Error('the session id opened nothing')
    return async () => {
      const response = await session.fetch(setup.resource)
      if (response.status !== 200) throw new Error(`FHIR answered ${response.status}`)
      return session.tokens.accessToken
    }
  },
)
