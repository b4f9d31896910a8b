import { isNonBlankString } from '@fhir-auth/core/internal'
import { type RegistrationResponse, registerSmartClient } from '@fhir-auth/smart/registration'
import type { SmartRegistrationOptions } from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'
import { unsupportedOperation } from '../protocol-implementation.js'
import type { SmartDiscovery } from './smart-discovery.js'

/**
 * SMART dynamic client registration (RFC 7591): the endpoint given, else the discovered one
 * (usable HTTPS before any request); `authorization` sent verbatim. Loaded on demand.
 *
 * @internal
 */
export async function registerClient(
  context: ProtocolContext,
  discovery: SmartDiscovery,
  metadata: Readonly<Record<string, unknown>>,
  input: SmartRegistrationOptions | undefined,
): Promise<RegistrationResponse> {
  const options = context.readOptions(input, 'registerClient')
  context.options.logger.info('Registering client via Dynamic Client Registration (RFC 7591)', {
    event: 'smart.registration',
  })
  const explicitEndpoint = context.checks.optionalString(
    options.registrationEndpoint,
    'registrationEndpoint',
  )
  const authorization = context.checks.optionalString(options.authorization, 'authorization', true)
  const registrationEndpoint = isNonBlankString(explicitEndpoint)
    ? explicitEndpoint
    : await discovery.registrationEndpoint(options.signal)
  return registerSmartClient({
    ...context.transport(options.signal),
    registrationEndpoint,
    metadata,
    authorization: isNonBlankString(authorization) ? authorization : undefined,
  })
}

/**
 * SMART has no registration cancellation (RFC 7591 defines none; UDAP does).
 *
 * @throws ConfigurationError on `protocol`, naming `udap`.
 * @internal
 */
export function cancelRegistration(): never {
  throw unsupportedOperation(
    'cancelRegistration',
    'smart',
    ['udap'],
    'SMART clients have no registration cancellation',
  )
}
