// Backend tokens reused: one token request per expiry window for this process, or for a whole
// fleet when the processes share Redis (REDIS_URL). Against the sandbox: its backend client.
import { readFileSync } from 'node:fs'
import { Client, type KeyValueStore, memoryStore } from '@fhir-auth/client'
import { redisStore } from '@fhir-auth/store-redis'
import { createClient } from 'redis'

const env = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`set ${name}`)
  return value
}

const client = new Client(
  {
    baseUrl: env('FHIR_BASE_URL'),
    clientId: env('CLIENT_ID'),
    privateKey: readFileSync(env('PRIVATE_KEY_FILE'), 'utf8'),
    kid: env('KID'),
    allowInsecureLocalhost: process.env.ALLOW_INSECURE_LOCALHOST === 'true',
  },
  { clientType: 'confidential_asymmetric' },
)

const redisUrl = process.env.REDIS_URL // e.g. redis://127.0.0.1:6379
const redis = redisUrl === undefined ? undefined : await createClient({ url: redisUrl }).connect()
const store: KeyValueStore = redis === undefined ? memoryStore() : redisStore(redis)
const tokens = client.backendTokens({ scopes: ['system/Patient.rs'], store })

try {
  // Both reads share one token: the second finds it cached (here or in Redis).
  for (const id of ['patient-1', 'patient-2']) {
    const response = await tokens.fetch(`Patient/${id}`)
    console.log(id, response.status)
  }
} finally {
  await redis?.quit()
}
