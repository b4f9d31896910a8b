/**
 * A UDAP B2B client from the command line: trusted discovery, registration (unless CLIENT_ID
 * is set), a client-credentials token with the hl7-b2b extension, and a FHIR read with it.
 *
 *   FHIR_BASE_URL=https://fhir.example.org/r4 CLIENT_URI=https://client.example.org/app \
 *   CLIENT_P12_FILE=client.p12 CLIENT_P12_PASSWORD=… CONTACT=mailto:ops@example.org \
 *   TRUST_ANCHOR_FILES=community-root.pem CRL_FILES=root.crl:intermediate.crl \
 *   ORGANIZATION_ID=https://example.org/organizations/42 pnpm start
 *
 * Prints the client_id (store it as CLIENT_ID) and, with FHIR_RESOURCE, the status of a read
 * with the token — never a token, key or password; exits 1 with the error's name and message
 * when anything fails.
 */

import { consoleLogger, type Logger } from '@fhir-auth/client'
import { readSettings } from './settings.js'
import { b2bTokens, createUdapClient, readTrust, registerB2bClient } from './udap-b2b.js'

// The library logs a discovery failure at error level and also throws it. This script prints
// every error it catches, so its logger keeps the warnings and leaves failures to the catch:
// one line per failure (docs/guides/errors-and-logging.md, "One report per failure").
const logger: Logger = { ...consoleLogger('warn'), error: () => {} }

try {
  const settings = readSettings(process.env)
  const [client, trust] = await Promise.all([
    createUdapClient(settings, { logger }),
    readTrust(settings),
  ])
  // Discovery first: if the server's signed metadata does not validate, stop here.
  const metadata = await client.serverMetadata(trust)
  console.log(`trusted server metadata; token endpoint ${metadata.tokenEndpoint}`)
  if (settings.clientId === undefined) {
    const clientId = await registerB2bClient(client, settings, trust)
    console.log(`registered client_id ${clientId} (set CLIENT_ID to reuse it)`)
  }
  const tokens = b2bTokens(client, settings, trust)
  await tokens.accessToken()
  console.log(`access token ready for ${settings.organizationId} (reused until it nears expiry)`)
  if (settings.resourcePath !== undefined) {
    // tokens.fetch sends the token only under the FHIR base URL; a 401 renews it once.
    const response = await tokens.fetch(settings.resourcePath, {
      headers: { accept: 'application/fhir+json' },
      signal: AbortSignal.timeout(10_000),
    })
    await response.body?.cancel()
    console.log(`GET ${settings.resourcePath}: ${response.status}`)
  }
} catch (error) {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error)
  process.exitCode = 1
}
