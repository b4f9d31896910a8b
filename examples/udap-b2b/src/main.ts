/**
 * A UDAP B2B client from the command line: trusted discovery, registration (unless CLIENT_ID
 * is set) and a client-credentials token with the hl7-b2b extension.
 *
 *   FHIR_BASE_URL=https://fhir.example.org/r4 CLIENT_URI=https://client.example.org/app \
 *   CLIENT_P12_FILE=client.p12 CLIENT_P12_PASSWORD=… CONTACT=mailto:ops@example.org \
 *   TRUST_ANCHOR_FILES=community-root.pem CRL_FILES=root.crl:intermediate.crl \
 *   ORGANIZATION_ID=https://example.org/organizations/42 pnpm start
 *
 * Prints the client_id (store it as CLIENT_ID) and the granted scope, never a token, key or
 * password; exits 1 with the error's name and message when anything fails.
 */

import { consoleLogger, type Logger } from '@fhir-auth/client'
import { readSettings } from './settings.js'
import { createUdapClient, readTrust, registerB2bClient, requestB2bToken } from './udap-b2b.js'

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
  const token = await requestB2bToken(client, settings, trust)
  console.log(`granted scope: ${token.scope} (expires in ${token.expires_in} s)`)
} catch (error) {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error)
  process.exitCode = 1
}
