import {
  ConfigurationError,
  type RegistrationResponse,
  type TokenResponse,
  type TokenSet,
} from '@fhir-auth/core/essentials'
import type { SmartMetadata } from '@fhir-auth/smart'
import type { UdapMetadata } from '@fhir-auth/udap'
import type { Protocol } from './client-type.js'
import type { DiagnosticServerAccess } from './diagnostics/server-access.js'
import type { OpenIdProviderHint } from './identity/openid-provider.js'
import type {
  AuthorizationUrlOptions,
  AuthorizationUrlResult,
  BackendTokensOptions,
  RefreshTokenOptions,
  RequestAccessTokenOptions,
  RequestBackendTokenOptions,
  SmartRegistrationOptions,
  UdapRegistrationOptions,
  UdapTrustOptions,
} from './operation-options.js'
import type { BackendTokenIdentity } from './tokens/backend-token-identity.js'

/**
 * One protocol behind a `Client` (SMART App Launch, UDAP Security): every operation of the
 * facade, one method each, so `Client` dispatches without knowing the protocol. An operation
 * the protocol does not have calls {@link unsupportedOperation}. Options arrive as the copy
 * `Client` read (own members, each a name the operation declares, `signal` checked) or as an
 * internal caller built them: each method reads and checks their values.
 *
 * Adding an operation to one protocol is one method here and one in each implementation;
 * adding a protocol is one implementation and one entry in the `Client`'s protocol table.
 *
 * @internal
 */
export interface ProtocolImplementation {
  serverMetadata(
    options:
      | (Partial<UdapTrustOptions> & { readonly signal?: AbortSignal | undefined })
      | undefined,
  ): Promise<SmartMetadata | UdapMetadata>
  authorizationUrl(options: AuthorizationUrlOptions | undefined): Promise<AuthorizationUrlResult>
  requestAccessToken(options: RequestAccessTokenOptions): Promise<TokenResponse>
  /** `heldSecrets`: what a session holds besides the refresh token, kept out of any error. */
  refreshToken(
    options: RefreshTokenOptions,
    heldSecrets?: readonly string[],
  ): Promise<TokenResponse>
  requestBackendToken(options: RequestBackendTokenOptions | undefined): Promise<TokenResponse>
  registerClient(
    metadata: Readonly<Record<string, unknown>>,
    options: SmartRegistrationOptions | UdapRegistrationOptions | undefined,
  ): Promise<RegistrationResponse>
  cancelRegistration(
    metadata: Readonly<Record<string, unknown>>,
    options: UdapRegistrationOptions,
  ): Promise<RegistrationResponse>
  /**
   * `authorizationUrl` for `beginAuthorization`: the same request, plus a fresh `nonce` when the
   * scopes include `openid`, and what a launch record keeps.
   */
  startAuthorization(options: AuthorizationUrlOptions | undefined): Promise<StartedAuthorization>
  /**
   * The server that answers the authorization callback, for RFC 9207's `iss` check.
   * `carriesIss`: the callback has an `iss` to compare (else the issuer need not be bound);
   * `trust`: the UDAP trust inputs the completion was given (its metadata says whether `iss` is
   * required).
   */
  authorizationIssuer(
    signal: AbortSignal | undefined,
    callback?: {
      readonly carriesIss?: boolean | undefined
      readonly trust?: Partial<UdapTrustOptions> | undefined
    },
  ): Promise<AuthorizationIssuer>
  /**
   * What discovery says of the OpenID provider whose ID tokens this client accepts. Whatever it
   * leaves out is read from the provider's `openid-configuration` when an ID token arrives.
   */
  openIdProvider(signal: AbortSignal | undefined): Promise<OpenIdProviderHint>
  /**
   * The token endpoint this client's token requests go to (configured, else from trusted
   * discovery): what a session is bound to, checked before a refresh sends its token.
   */
  tokenEndpoint(
    options: Partial<UdapTrustOptions> & { readonly signal?: AbortSignal | undefined },
  ): Promise<string>
  /**
   * Revokes a session's tokens (RFC 7009): the refresh token, then the access token, posted to
   * the server's revocation endpoint with the client's authentication. `false`, with nothing
   * sent, when the server advertises no revocation endpoint.
   */
  revokeTokens(tokens: TokenSet, signal: AbortSignal | undefined): Promise<boolean>
  /** What identifies the backend token these options ask for (the cache identity of ADR 0010). */
  backendTokenIdentity(options: BackendTokensOptions): Promise<BackendTokenIdentity>
  /** SMART only: its code a diagnosis uses (`client.diagnose`). */
  diagnosticServer?(): DiagnosticServerAccess
}

/** An authorization request made by `beginAuthorization`, with what its callback needs. */
export interface StartedAuthorization extends Omit<AuthorizationUrlResult, 'nonce'> {
  /** Sent when the scopes include `openid`. */
  readonly nonce: string | undefined
  readonly redirectUri: string
  readonly scopes: readonly string[]
}

/** Who answers an authorization callback (RFC 9207). */
export interface AuthorizationIssuer {
  /** The authorization server's issuer identifier, when discovery names one. */
  readonly issuer: string | undefined
  /** The server always sends `iss` (`authorization_response_iss_parameter_supported`). */
  readonly issRequired: boolean
  /**
   * Why the issuer the server's discovery names is not used, when it is not bound to the server
   * (ADR 0013): then no `iss` can match.
   */
  readonly unbound?: string | undefined
}

/**
 * The one place an operation a protocol does not have is refused: a `ConfigurationError` on
 * `protocol`, whose `validValues` are the protocols that have it.
 *
 * @param hint - what to do instead; it ends the message.
 * @internal
 */
export function unsupportedOperation(
  operation: string,
  protocol: Protocol,
  supportedBy: readonly Protocol[],
  hint: string,
): ConfigurationError {
  const names = supportedBy.map((name) => name.toUpperCase()).join(' or ')
  return new ConfigurationError({
    invalidAttribute: 'protocol',
    invalidValue: protocol,
    validValues: supportedBy,
    message: `${operation} is a ${names} operation; ${hint}`,
  })
}
