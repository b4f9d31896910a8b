/**
 * One line that says why something failed: the error class, the OAuth error or chain reason
 * when there is one, and the message (fhir-auth messages never contain secrets).
 */
import { FhirAuthError } from '@fhir-auth/core'

/** `TokenError invalid_grant: …`, `CertificateChainError (revoked): …`, `DemoFailure: …`. */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const record = error as unknown as Record<string, unknown>
  const oauthError =
    FhirAuthError.isFhirAuthError(error) && typeof record.error === 'string'
      ? ` ${record.error}`
      : ''
  const reason = typeof record.reason === 'string' ? ` (${record.reason})` : ''
  const message = error.message.split('\n')[0] ?? ''
  return `${error.name}${oauthError}${reason}: ${message}`
}
