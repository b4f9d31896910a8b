import { TokenError } from '@fhir-auth/core/essentials'

/**
 * A token failure of a public client that holds a secret (configured or given to the call): an
 * `invalid_client`, which reads exactly like a wrong secret, says that the secret was not sent
 * and how to send it — the same error otherwise (status, OAuth members, `cause`), as smart's
 * Basic-encoding hint does for symmetric clients. Anything else is returned as it is. The secret
 * itself is never named.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-symmetric.html
 * @internal
 */
export function withUnsentSecretHint(error: unknown): unknown {
  if (!TokenError.isInstance(error) || error.error !== 'invalid_client') return error
  return new TokenError(
    {
      status: error.status,
      error: error.error,
      errorDescription: error.errorDescription,
      errorUri: error.errorUri,
      message: `${error.message}. The clientSecret was not sent: the client type is 'public' (the default), which never sends it; set clientType: 'confidential_symmetric' to use it`,
    },
    error.cause === undefined ? undefined : { cause: error.cause },
  )
}
