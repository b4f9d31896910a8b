import { type RegistrationResponse, registerSmartClient } from '@fhir-auth/smart'
import { isPresent, optionalString, readOptions } from '../arguments.js'
import type { SmartRegistrationOptions } from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'
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
  const options = readOptions(input, 'registerClient')
  context.options.logger.info('Registering client via Dynamic Client Registration (RFC 7591)', {
    event: 'smart.registration',
  })
  const explicitEndpoint = optionalString(options.registrationEndpoint, 'registrationEndpoint')
  const authorization = optionalString(options.authorization, 'authorization', true)
  const registrationEndpoint = isPresent(explicitEndpoint)
    ? explicitEndpoint
    : await discovery.registrationEndpoint(options.signal)
  return registerSmartClient({
    ...context.transport(options.signal),
    registrationEndpoint,
    metadata,
    authorization: isPresent(authorization) ? authorization : undefined,
  })
}
