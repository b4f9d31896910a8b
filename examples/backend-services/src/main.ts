/**
 * SMART Backend Services from the command line:
 *
 *   FHIR_BASE_URL=https://ehr.example.org/fhir CLIENT_ID=my-service KEY_ID=key-1 \
 *   PRIVATE_KEY_FILE=./private-key.pem FHIR_RESOURCE=Patient/123 npx -y pnpm@10 start
 *
 * Reads the resource (READ_COUNT times, default 1, with one token) and prints it as JSON; exits
 * 1 with the error's name and message (which never contain the key or the token) when anything
 * fails. With REDIS_URL, the token is shared with every other process using that Redis: run the
 * script twice and the second run asks the token endpoint nothing.
 */
import { consoleLogger, type Logger } from '@fhir-auth/client'
import { createBackendClient, serviceTokens } from './backend-services.js'
import { readFhirResource } from './fhir-read.js'
import { readSettings } from './settings.js'
import { connectSharedStore, type SharedStore } from './shared-store.js'

// The library logs a discovery failure at error level and also throws it. This script prints
// every error it catches, so its logger keeps the warnings and leaves failures to the catch:
// one line per failure (docs/guides/errors-and-logging.md, "One report per failure").
const logger: Logger = { ...consoleLogger('warn'), error: () => {} }

let shared: SharedStore | undefined
try {
  const settings = await readSettings(process.env)
  const reads = Number(process.env.READ_COUNT ?? '1')
  if (settings.redisUrl !== undefined) {
    shared = await connectSharedStore(settings.redisUrl, settings.storeEncryptionKey)
  }
  const tokens = serviceTokens(createBackendClient(settings, { logger }), settings, shared?.store)
  let resource: Record<string, unknown> = {}
  for (let read = 0; read < reads; read++) {
    resource = await readFhirResource(tokens, settings.resourcePath)
  }
  console.log(`read ${settings.resourcePath} ${reads} time(s)`)
  console.log(JSON.stringify(resource, null, 2))
} catch (error) {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error)
  process.exitCode = 1
} finally {
  await shared?.close()
}
