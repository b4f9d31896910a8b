import type { ClientConfig } from '@fhir-auth/core/essentials'
import { abortedByCaller, waitUnlessAborted } from '@fhir-auth/core/internal/checks'
import {
  DiscoveryError,
  IdTokenError,
  RegistrationError,
  TokenError,
} from '@fhir-auth/core/internal/up-front'
import type { OperationName } from './operation-options.js'

/** The `Client` operations that take a `signal`. @internal */
export type CancellableOperation = Exclude<
  OperationName,
  'backendTokens' | 'resumeSession' | 'isTokenResponseValid'
>

/** What decides an operation's first step: the configuration and the caller's options. */
interface Inputs {
  readonly config: ClientConfig
  readonly options: {
    readonly signal?: AbortSignal | undefined
    readonly registrationEndpoint?: unknown
  }
}

const tokenRequests: readonly CancellableOperation[] = [
  'requestAccessToken',
  'refreshToken',
  'requestBackendToken',
]

/**
 * Runs a `Client` operation whose code may still be loading on demand, until the caller's
 * `signal` ends the wait. An operation that has its code answers an abort itself, in its own
 * words; one still waiting for a chunk (a slow network, a chunk that never arrives) is rejected
 * promptly with the error its first step gives an abort, whose `cause` is the `HttpError`
 * (`aborted`) every caller-side abort carries, and nothing is sent. That first step is the ID
 * token's keys for `validateIdToken` (an `IdTokenError` `jwks`); the token request for
 * `completeAuthorization` (whose own check of an aborted signal comes first), and for the token
 * operations when `tokenEndpoint` is configured (a `TokenError`); the registration request for a
 * `registerClient` given its `registrationEndpoint` (a `RegistrationError`); else discovery (a
 * `DiscoveryError`).
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0012-browser-bytes-by-load-time.md
 * @internal
 */
export function untilAborted<R>(
  operation: CancellableOperation,
  { config, options }: Inputs,
  work: Promise<R>,
): Promise<R> {
  return waitUnlessAborted(work, options.signal, () => {
    const message = `${operation} was aborted by the caller`
    const cause = { cause: abortedByCaller('') }
    if (operation === 'validateIdToken') return new IdTokenError('jwks', message, cause)
    if (
      operation === 'completeAuthorization' ||
      (tokenRequests.includes(operation) && config.tokenEndpoint !== undefined)
    ) {
      return new TokenError({ message }, cause)
    }
    if (operation === 'registerClient' && options.registrationEndpoint !== undefined) {
      return new RegistrationError({ message }, cause)
    }
    return new DiscoveryError({ endpoint: undefined, message }, cause)
  })
}
