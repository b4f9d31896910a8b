/**
 * SMART Backend Services from the command line:
 *
 *   FHIR_BASE_URL=https://ehr.example.org/fhir CLIENT_ID=my-service KEY_ID=key-1 \
 *   PRIVATE_KEY_FILE=./private-key.pem FHIR_RESOURCE=Patient/123 pnpm start
 *
 * Prints the granted scope and the resource as JSON; exits 1 with the error's name and message
 * (which never contain the key or the token) when anything fails.
 */
import { consoleLogger, type Logger } from '@fhir-auth/client'
import { createBackendClient, readWithBackendToken } from './backend-services.js'
import { readSettings } from './settings.js'

// The library logs a discovery failure at error level and also throws it. This script prints
// every error it catches, so its logger keeps the warnings and leaves failures to the catch:
// one line per failure (docs/guides/errors-and-logging.md, "One report per failure").
const logger: Logger = { ...consoleLogger('warn'), error: () => {} }

try {
  const settings = await readSettings(process.env)
  const result = await readWithBackendToken(createBackendClient(settings, { logger }), settings)
  console.log(`granted scope: ${result.grantedScope} (expires in ${result.expiresInSeconds} s)`)
  console.log(JSON.stringify(result.resource, null, 2))
} catch (error) {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error)
  process.exitCode = 1
}
