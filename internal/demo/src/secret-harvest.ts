/**
 * Finds the secrets in a recorded exchange (credentials in headers, tokens, codes, verifiers,
 * assertions and client secrets in forms and JSON) and adds them to the ledger, so even a
 * secret the demo never handled itself (a token the server issued) is scrubbed and scanned for.
 */
import { base64Decode, isSensitiveName, looksLikeJwt } from '@fhir-auth/core'
import type { RecordedExchange } from './exchange-recorder.js'
import { decodeFormComponent } from './form-component.js'
import type { SecretLedger } from './secret-ledger.js'

/** How deep JSON bodies are searched; OAuth bodies are flat, registration bodies one level deeper. */
const maximumDepth = 4

/** Adds every secret found in `exchange` to `ledger`. */
export function harvestSecrets(exchange: RecordedExchange, ledger: SecretLedger): void {
  const authorization = exchange.requestHeaders.authorization
  if (authorization !== undefined) harvestAuthorization(authorization, ledger)
  harvestBody(exchange.requestHeaders['content-type'], exchange.requestBody, 'request', ledger)
  harvestBody(
    exchange.responseHeaders?.get('content-type') ?? undefined,
    exchange.responseBody,
    'response',
    ledger,
  )
}

function harvestAuthorization(value: string, ledger: SecretLedger): void {
  ledger.add('Authorization header', value)
  const [scheme, credentials] = value.split(' ', 2)
  if (credentials === undefined) return
  ledger.add(`${scheme} credentials`, credentials)
  if (scheme?.toLowerCase() !== 'basic') return
  const decoded = base64Decode(credentials)
  if (decoded === undefined) return
  const pair = new TextDecoder().decode(decoded)
  const separator = pair.indexOf(':')
  if (separator < 0) return
  // RFC 6749 §2.3.1: the secret is form-urlencoded before Basic encoding.
  const encodedSecret = pair.slice(separator + 1)
  ledger.add('client secret (Basic, encoded)', encodedSecret)
  ledger.add('client secret (Basic)', decodeFormComponent(encodedSecret))
}

function harvestBody(
  contentType: string | undefined,
  body: string | undefined,
  side: string,
  ledger: SecretLedger,
): void {
  if (body === undefined || body === '') return
  if (contentType?.includes('application/x-www-form-urlencoded')) {
    for (const [name, value] of new URLSearchParams(body)) {
      harvestValue(`${side} form ${name}`, name, value, ledger, 0)
    }
    return
  }
  try {
    harvestValue(`${side} body`, '', JSON.parse(body), ledger, 0)
  } catch {
    // Not JSON: nothing structured to harvest (the scrub still covers known values).
  }
}

function harvestValue(
  label: string,
  name: string,
  value: unknown,
  ledger: SecretLedger,
  depth: number,
): void {
  if (typeof value === 'string') {
    if (isSensitiveName(name) || looksLikeJwt(value)) ledger.add(label, value)
    return
  }
  if (depth >= maximumDepth || typeof value !== 'object' || value === null) return
  for (const [member, child] of Object.entries(value)) {
    harvestValue(`${label}.${member}`, member, child, ledger, depth + 1)
  }
}
