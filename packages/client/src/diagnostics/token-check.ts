import { TokenError, type TokenResponse } from '@fhir-auth/core/essentials'
import type { DiagnosticCheck, InvalidClientCause } from './diagnostic-report.js'

/** What the other checks found that points at one `invalid_client` cause. */
export type CauseEvidence = ReadonlySet<InvalidClientCause>

/** Every cause, in the order they are listed when nothing points at one. */
const causeOrder: readonly InvalidClientCause[] = [
  'aud',
  'unknown-kid',
  'jwks-unreachable',
  'algorithm',
  'clock-skew',
  'client-id',
]

/** What to check for each cause, in one clause. */
function advice(cause: InvalidClientCause, tokenEndpoint: string | undefined): string {
  switch (cause) {
    case 'aud':
      return `the assertion's aud must be exactly the token URL${tokenEndpoint === undefined ? '' : ` the server names (${tokenEndpoint})`}: do not configure another tokenEndpoint`
    case 'unknown-kid':
      return 'the server must hold a key under the configured kid (its registration, or the JWKS it fetched: a new key is seen only after its cache expires)'
    case 'jwks-unreachable':
      return 'the server must be able to fetch the registered JWKS URL from its own network'
    case 'algorithm':
      return 'the server must accept the key type and algorithm (some organisations accept RSA keys only)'
    case 'clock-skew':
      return 'this clock must agree with the server’s (iat and exp are judged by its clock)'
    case 'client-id':
      return 'clientId must be the id this server (this environment: production and non-production differ) registered'
  }
}

/**
 * `token`: a real `client_credentials` request. A refusal is mapped to what to change; for
 * `invalid_client`, which servers send without saying why (Epic with `error_description: null`),
 * to its likely causes, those the other checks found evidence of first.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2 RFC 6749 §5.2
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/backend-services.html
 */
export async function checkToken(
  request: () => Promise<TokenResponse>,
  evidence: CauseEvidence,
  tokenEndpoint: string | undefined,
): Promise<DiagnosticCheck> {
  try {
    const token = await request()
    const lifetime = typeof token.expires_in === 'number' ? ` for ${token.expires_in} s` : ''
    return {
      id: 'token',
      status: 'pass',
      message: `a client_credentials token was granted (scope ${typeof token.scope === 'string' ? token.scope : 'not stated'}${lifetime})`,
    }
  } catch (error) {
    if (!(error instanceof TokenError) || error.error === undefined) {
      return {
        id: 'token',
        status: 'fail',
        message: `the token request failed: ${(error as Error).message}`,
        hint: 'fix the checks above that fail; if they all pass, the server or the network refused the request',
      }
    }
    const said = `the server answered ${error.error}${error.errorDescription === undefined ? ' with no description' : `: ${error.errorDescription}`}`
    if (error.error === 'invalid_client') {
      const causes = [
        ...causeOrder.filter((cause) => evidence.has(cause)),
        ...causeOrder.filter((cause) => !evidence.has(cause)),
      ]
      const [first, ...rest] = causes as [InvalidClientCause, ...InvalidClientCause[]]
      return {
        id: 'token',
        status: 'fail',
        message: said,
        hint: `${evidence.has(first) ? 'most likely' : 'first check'}: ${advice(first, tokenEndpoint)}; then: ${rest.map((cause) => advice(cause, tokenEndpoint)).join('; ')}`,
        causes,
      }
    }
    return { id: 'token', status: 'fail', message: said, hint: otherHint(error.error) }
  }
}

function otherHint(error: string): string {
  switch (error) {
    case 'invalid_scope':
      return 'request only scopes the client was registered for (system/… for backend services)'
    case 'unauthorized_client':
      return 'the client is not allowed the client_credentials grant: register it as a backend service'
    case 'invalid_grant':
      return 'the assertion was refused (a replayed jti, an expired or not-yet-valid assertion): check the clock'
    default:
      return 'see the server’s documentation for this error'
  }
}
