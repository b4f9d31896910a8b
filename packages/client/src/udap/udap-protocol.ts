// Placeholder during development: replaced by the UDAP implementation before this lands.
import { ConfigurationError, type TransportOptions } from '@fhir-auth/core'
import type { RegistrationResponse, TokenResponse } from '@fhir-auth/smart'
import type {
  RequestBackendTokenOptions,
  UdapRegistrationOptions,
  UdapTrustOptions,
} from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'

export type UdapMetadata = Readonly<Record<string, unknown>> & TransportOptions

export class UdapProtocol {
  constructor(_context: ProtocolContext) {}
  serverMetadata(_options?: UdapTrustOptions): Promise<UdapMetadata> {
    throw new ConfigurationError({ invalidAttribute: 'protocol' })
  }
  requestBackendToken(_options?: RequestBackendTokenOptions): Promise<TokenResponse> {
    throw new ConfigurationError({ invalidAttribute: 'protocol' })
  }
  registerClient(
    _metadata: unknown,
    _options: UdapRegistrationOptions,
  ): Promise<RegistrationResponse> {
    throw new ConfigurationError({ invalidAttribute: 'protocol' })
  }
  cancelRegistration(
    _metadata: unknown,
    _options: UdapRegistrationOptions,
  ): Promise<RegistrationResponse> {
    throw new ConfigurationError({ invalidAttribute: 'protocol' })
  }
}
