import type { ProtocolContext } from './protocol-context.js'

/*
 * A SMART client is public unless told otherwise (the spec fixes the default), and a public
 * client authenticates with its `client_id` alone: a configured `clientSecret` is never sent.
 * Nothing on the wire shows that, and the server's `invalid_client` then reads exactly like a
 * wrong secret, so the client says it: a warning when it is made, and in that error (see
 * smart/unsent-secret-hint.ts).
 */

/**
 * Logs a `warn` when a SMART client is made with a `clientSecret` and no client type: it is
 * public, and will never send the secret.
 *
 * @param givenClientType the `clientType` option as the caller passed it.
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-symmetric.html
 * @internal
 */
export function warnOfUnsentClientSecret(context: ProtocolContext, givenClientType: unknown): void {
  if (givenClientType == null && context.clientType === 'public' && context.config.clientSecret) {
    context.options.logger.warn(
      "clientSecret is set, but the client type is 'public' (the default), which never sends it: set clientType: 'confidential_symmetric' to use it",
    )
  }
}
