import { TokenError } from '@fhir-auth/core/essentials'
import { withTokenErrorHint } from '@fhir-auth/core/internal'
import { sendSecretAdvice } from '../unsent-client-secret.js'

/**
 * A token failure of a public client that holds a secret: an `invalid_client` (which reads
 * exactly like a wrong secret) says that the secret was not sent and how to send it; anything
 * else is returned as it is. The secret itself is never named.
 *
 * @param secretGiven whether a `clientSecret` was configured or given to the call.
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-symmetric.html
 * @internal
 */
export function withUnsentSecretHint(error: unknown, secretGiven: boolean): unknown {
  if (!secretGiven || !TokenError.isInstance(error) || error.error !== 'invalid_client') {
    return error
  }
  return withTokenErrorHint(
    error,
    `This client is public, so its clientSecret was not sent: ${sendSecretAdvice}`,
  )
}
