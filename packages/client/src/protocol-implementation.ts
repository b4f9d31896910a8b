import { ConfigurationError, type RegistrationResponse, type TokenResponse } from '@fhir-auth/core'
import type { SmartMetadata } from '@fhir-auth/smart'
import type { UdapMetadata } from '@fhir-auth/udap'
import type { Protocol } from './client-type.js'
import type {
  AuthorizationUrlOptions,
  AuthorizationUrlResult,
  RefreshTokenOptions,
  RequestAccessTokenOptions,
  RequestBackendTokenOptions,
  SmartRegistrationOptions,
  UdapRegistrationOptions,
  UdapTrustOptions,
} from './operation-options.js'

/**
 * One protocol behind a `Client` (SMART App Launch, UDAP Security): every operation of the
 * facade, one method each, so `Client` dispatches without knowing the protocol. An operation
 * the protocol does not have calls {@link unsupportedOperation}. Options arrive as the caller
 * passed them (JavaScript callers pass anything): each method reads and checks its own.
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
  refreshToken(options: RefreshTokenOptions): Promise<TokenResponse>
  requestBackendToken(options: RequestBackendTokenOptions | undefined): Promise<TokenResponse>
  registerClient(
    metadata: Readonly<Record<string, unknown>>,
    options: SmartRegistrationOptions | UdapRegistrationOptions | undefined,
  ): Promise<RegistrationResponse>
  cancelRegistration(
    metadata: Readonly<Record<string, unknown>>,
    options: UdapRegistrationOptions,
  ): Promise<RegistrationResponse>
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
