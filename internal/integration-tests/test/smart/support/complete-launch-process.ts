/**
 * Finishes a SMART launch in a process of its own, as the second server of a web app behind a
 * load balancer would: a new `Client`, the launch taken from the shared Redis, the session used
 * once. Input: the environment variable LAUNCH_INPUT (JSON); output: one JSON line on stdout.
 * Run with `node --import tsx --conditions=@fhir-auth/source` (launch-over-redis.test.ts).
 */
import { Client, type ClientConfigInput, type ClientOptions } from '@fhir-auth/client'
import { redisStore } from '@fhir-auth/store-redis'
import { createClient } from 'redis'

interface LaunchInput {
  readonly config: ClientConfigInput
  readonly clientType: NonNullable<ClientOptions['clientType']>
  readonly redisUrl: string
  readonly encryptionKeyHex: string
  readonly prefix: string
  readonly callbackUrl: string
  readonly patientPath: string
}

const input = JSON.parse(process.env.LAUNCH_INPUT ?? '{}') as LaunchInput
const redis = await createClient({ url: input.redisUrl }).connect()
try {
  const store = redisStore(redis, {
    encryptionKey: Buffer.from(input.encryptionKeyHex, 'hex'),
    prefix: input.prefix,
  })
  const client = new Client(input.config, { clientType: input.clientType })
  const session = await client.completeAuthorization(input.callbackUrl, { store })
  const response = await session.fetch(input.patientPath)
  await response.arrayBuffer()
  console.log(
    JSON.stringify({
      patient: session.tokens.patient,
      subject: session.tokens.idTokenClaims?.sub,
      readStatus: response.status,
    }),
  )
} catch (error) {
  const name = error instanceof Error ? error.name : typeof error
  const detail = (error as { error?: unknown } | null)?.error
  console.log(JSON.stringify({ error: name, detail }))
} finally {
  await redis.quit()
}
