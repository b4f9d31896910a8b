import {
  type ClientConfig,
  DiscoveryError,
  IdTokenError,
  RegistrationError,
  TokenError,
} from '@fhir-auth/core/essentials'
import { abortedByCaller, waitUnlessAborted } from '@fhir-auth/core/internal/checks'
import type { OperationName } from './operation-options.js'

/** The `Client` operations that take a `signal`. @internal */
export type CancellableOperation = Exclude<
  OperationName,
  'backendTokens' | 'resumeSession' | 'isTokenResponseValid'
>

/** What decides an operation's first step: the configuration and the caller's options. */
interface Inputs {
  readonly config: ClientConfig
  readonly options: { readonly registrationEndpoint?: unknown }
}

/** The class of error an abort gets at each kind of first step. */
const errorsByStep = {
  discovery: (message: string): Error =>
    new DiscoveryError({ endpoint: undefined, message }, { cause: abortedByCaller('') }),
  token: (message: string): Error =>
    new TokenError({ message }, { cause: abortedByCaller('token_endpoint') }),
  registration: (message: string): Error =>
    new RegistrationError({ message }, { cause: abortedByCaller('registration_endpoint') }),
  keys: (message: string): Error =>
    new IdTokenError('jwks', message, { cause: abortedByCaller('jwks_uri') }),
}
type Step = keyof typeof errorsByStep

/** Discovery, unless the endpoint the operation sends to is configured. */
const tokenRequest = ({ config }: Inputs): Step =>
  config.tokenEndpoint === undefined ? 'discovery' : 'token'

/**
 * Each operation's first step that a signal stops (discovery, its own request, the ID token's
 * keys): an abort while its code loads gets the class of error that step gives an abort.
 */
const firstSteps: Readonly<Record<CancellableOperation, (inputs: Inputs) => Step>> = {
  serverMetadata: () => 'discovery',
  authorizationUrl: () => 'discovery',
  beginAuthorization: () => 'discovery',
  // Its own check of a signal already aborted comes first, and is a TokenError.
  completeAuthorization: () => 'token',
  requestAccessToken: tokenRequest,
  refreshToken: tokenRequest,
  requestBackendToken: tokenRequest,
  registerClient: ({ options }) =>
    options.registrationEndpoint === undefined ? 'discovery' : 'registration',
  cancelRegistration: () => 'discovery',
  validateIdToken: () => 'keys',
}

/**
 * Runs a `Client` operation whose code may still be loading on demand, until the caller's
 * `signal` ends the wait. An operation that has its code answers an abort itself, in its own
 * words; one still waiting for a chunk (a slow network, a chunk that never arrives) is rejected
 * promptly with the error its first step gives an abort — a `DiscoveryError`, `TokenError`,
 * `RegistrationError` or `IdTokenError` (`jwks`) whose `cause` is the `HttpError` (`aborted`)
 * every caller-side abort carries — and nothing is sent.
 *
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/adr/0012-browser-bytes-by-load-time.md
 * @internal
 */
export function untilAborted<R>(
  operation: CancellableOperation,
  inputs: Inputs & { readonly options: { readonly signal?: AbortSignal | undefined } },
  work: Promise<R>,
): Promise<R> {
  return waitUnlessAborted(work, inputs.options.signal, () =>
    errorsByStep[firstSteps[operation](inputs)](`${operation} was aborted by the caller`),
  )
}
