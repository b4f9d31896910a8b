/**
 * One process of the fleet test (`backend-token-fleet.test.ts`): a `Client` with
 * `backendTokens({ store: redisStore(…) })` on the shared Redis, driven over the IPC channel.
 * Run with `node --import tsx --conditions=@fhir-auth/source`, as `fork` in fleet.ts does.
 */
import { Client } from '@fhir-auth/client'
import { redisStore } from '@fhir-auth/store-redis'
import { createClient } from 'redis'
import type { WorkerSetup } from './fleet-messages.js'
import { serveFleetWorker } from './worker-process.js'

serveFleetWorker<WorkerSetup>('fleet worker', async (setup, { fetch, logger, now }) => {
  const redis = await createClient({ url: setup.redisUrl }).connect()
  const client = new Client(
    {
      baseUrl: setup.fhirBaseUrl,
      clientId: setup.clientId,
      privateKey: setup.privateKeyPem,
      kid: setup.kid,
      scopes: [...setup.scopes],
      allowInsecureLocalhost: true,
    },
    { clientType: 'confidential_asymmetric', fetch, logger, timeoutMs: setup.timeoutMs, now },
  )
  const store = redisStore(redis, { encryptionKey: Buffer.from(setup.encryptionKeyHex, 'hex') })
  const tokens = client.backendTokens({ store })
  return () => tokens.accessToken()
})
