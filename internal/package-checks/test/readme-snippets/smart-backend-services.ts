import type { JwsSigner, Logger, TransportOptions } from '@fhir-auth/core'
import {
  isTokenResponseValid,
  requestBackendServicesToken,
  type TokenResponse,
} from '@fhir-auth/smart'

/**
 * A Backend Services token. `signer` makes RS384 or ES384 with the `kid` registered for the
 * client: from `@fhir-auth/crypto-node`, `@fhir-auth/crypto-webcrypto` or your own HSM code.
 * The request carries only the signed assertion: no `client_id`, never a secret.
 */
export async function backendServicesToken(
  signer: JwsSigner,
  logger: Logger,
  transport: TransportOptions = {},
): Promise<TokenResponse> {
  const token = await requestBackendServicesToken({
    tokenEndpoint: 'https://fhir.example.org/auth/token',
    clientId: 'my-backend-service',
    signer,
    scopes: ['system/Patient.rs', 'system/Observation.rs'],
    ...transport,
  })
  isTokenResponseValid(token, { flow: 'backend_services', logger }) // warns, never throws
  return token
}
