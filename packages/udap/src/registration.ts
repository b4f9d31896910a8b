import {
  ConfigurationError,
  CryptoError,
  type HttpResponse,
  RegistrationError,
  type RegistrationResponse,
  type TransportOptions,
} from '@fhir-auth/core/essentials'
import { describeKind, readOptions, sendFlowRequest, transportOf } from '@fhir-auth/core/internal'
import { readRegistrationResponse, requireEndpointUrl } from '@fhir-auth/core/internal/on-demand'
import { decodeCompactJws } from '@fhir-auth/core/jws'
import { isCompactJws } from './jws-header.js'

export type { RegistrationResponse } from '@fhir-auth/core/essentials'

/** Options of {@link registerUdapClient} and {@link cancelUdapRegistration}. */
export interface UdapRegistrationRequestOptions extends TransportOptions {
  /** The signed `registration_endpoint`, exactly as published (it is the statement's `aud`). */
  readonly registrationEndpoint: string
  /** From `createSoftwareStatement`. */
  readonly softwareStatement: string
  /** Signed certification JWTs to send with the statement; omitted when not given. */
  readonly certifications?: readonly string[] | undefined
}

/** What a registration request is: a new registration or modification, or a cancellation. */
export type UdapRegistrationOperation = 'register' | 'cancel'

/**
 * Registers a client with a UDAP server, or modifies its registration (a new statement with
 * the same `iss` from the same community replaces the old registration; the server SHOULD keep
 * the `client_id` and answer 200).
 *
 * Before any request: `registrationEndpoint` must be HTTPS (loopback HTTP only with
 * `allowInsecureLocalhost`), `softwareStatement` a compact JWS whose `grant_types` is not
 * empty (an empty list would cancel the registration), `certifications` an array of compact
 * JWSs. Then `POST` JSON `{ software_statement, udap: "1", certifications? }`, no redirects
 * followed.
 *
 * Success is HTTP 200 (modification) or 201 (new registration) with a non-empty string
 * `client_id`; the body is returned as received. Store the `client_id` durably. A response whose
 * `grant_types` is an empty array is a `RegistrationError`: the IG says it confirms that the
 * `client_id` is cancelled.
 *
 * @throws ConfigurationError `registrationEndpoint`, `softwareStatement` or `certifications`.
 * @throws RegistrationError with `status`, `error`, `errorDescription`, `errorUri` for an
 *   error response (`invalid_software_statement`, `unapproved_software_statement` — do not
 *   retry with the same certificate —, `invalid_client_metadata`, `invalid_redirect_uri`,
 *   `unapproved_certification`, `invalid_certification`…); for another status, a body that is
 *   not a JSON object or has no `client_id`; for a response with empty `grant_types`; for a
 *   transport failure (`cause` = `HttpError`). Messages never contain the software statement.
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html#modifying-and-cancelling-registrations
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-3
 */
export async function registerUdapClient(
  options: UdapRegistrationRequestOptions,
): Promise<RegistrationResponse> {
  return sendRegistration(
    readOptions(options, 'registerUdapClient', { required: true }),
    'register',
  )
}

/**
 * Cancels a client's registration: the same request as {@link registerUdapClient}, with a
 * software statement whose `grant_types` is `[]` (build it with
 * `normalizeRegistrationMetadata(metadata, { operation: 'cancel' })`).
 *
 * Success is HTTP 200 or 201 whose body has a non-empty string `client_id` and `grant_types`
 * equal to an empty array: the IG's confirmation that the registration is cancelled. Anything
 * else is not a confirmation.
 *
 * @throws ConfigurationError as {@link registerUdapClient}; `softwareStatement` when its
 *   `grant_types` is not `[]`.
 * @throws RegistrationError as {@link registerUdapClient}, and when the response does not
 *   confirm the cancellation.
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html#modifying-and-cancelling-registrations
 */
export async function cancelUdapRegistration(
  options: UdapRegistrationRequestOptions,
): Promise<RegistrationResponse> {
  return sendRegistration(
    readOptions(options, 'cancelUdapRegistration', { required: true }),
    'cancel',
  )
}

async function sendRegistration(
  options: Partial<UdapRegistrationRequestOptions>,
  operation: UdapRegistrationOperation,
): Promise<RegistrationResponse> {
  const registrationEndpoint = requireEndpointUrl(
    options.registrationEndpoint,
    'registrationEndpoint',
    options.allowInsecureLocalhost,
  )
  const softwareStatement = checkSoftwareStatement(options.softwareStatement, operation)
  const certifications = checkCertifications(options.certifications)
  const secrets = [softwareStatement, ...(certifications ?? [])]
  const response = await sendFlowRequest(
    {
      method: 'POST',
      url: registrationEndpoint,
      json: {
        software_statement: softwareStatement,
        // UDAP: the request SHALL carry udap = "1" (the string).
        udap: '1',
        ...(certifications === undefined ? {} : { certifications }),
      },
      ...transportOf(options),
    },
    RegistrationError,
    operation === 'register' ? 'UDAP registration' : 'UDAP registration cancellation',
    secrets,
  )
  return parseUdapRegistrationResponse(response, operation, secrets)
}

/**
 * Reads a UDAP registration endpoint response (no I/O). For `register`: HTTP 200 or 201 with a
 * JSON object holding a non-empty string `client_id`, and no empty `grant_types` (the IG makes an
 * empty one the confirmation of a cancellation). For `cancel`: the same, and `grant_types` an
 * empty array.
 *
 * @param requestSecrets values sent in the request that must not reach an error message if
 *   the server echoes them.
 * @throws RegistrationError as {@link registerUdapClient} and {@link cancelUdapRegistration}
 *   describe.
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html#registration-response
 */
export function parseUdapRegistrationResponse(
  response: HttpResponse,
  operation: UdapRegistrationOperation,
  requestSecrets: readonly string[] = [],
): RegistrationResponse {
  const label = operation === 'register' ? 'UDAP registration' : 'UDAP registration cancellation'
  const body = readRegistrationResponse(response, {
    label,
    // UDAP: 201 Created for a new registration, 200 OK for a modification; nothing else is defined.
    successStatuses: [200, 201],
    requestSecrets,
  })
  const grantTypes = body.grant_types
  // UDAP: a client SHALL read a response with an empty grant_types as the confirmation that the
  // client_id in it is cancelled, whatever it asked for: never as a usable registration.
  if (operation === 'register' && Array.isArray(grantTypes) && grantTypes.length === 0) {
    throw new RegistrationError({
      status: response.status,
      message: `${label} did not register the client: the response's grant_types is empty, which confirms that its client_id is cancelled`,
    })
  }
  if (operation === 'cancel') {
    // UDAP: only grant_types equal to an empty array confirms the cancellation.
    if (!Array.isArray(grantTypes) || grantTypes.length > 0) {
      throw new RegistrationError({
        status: response.status,
        message: `${label} was not confirmed: the response's grant_types is ${Array.isArray(grantTypes) ? 'not empty' : grantTypes === undefined ? 'missing' : describeKind(grantTypes)}; an empty array confirms a cancellation`,
      })
    }
  }
  return body
}

function checkSoftwareStatement(value: unknown, operation: UdapRegistrationOperation): string {
  const fail = (message: string, cause?: unknown) =>
    new ConfigurationError(
      { invalidAttribute: 'softwareStatement', message },
      cause === undefined ? undefined : { cause },
    )
  if (!isCompactJws(value)) {
    throw fail('softwareStatement must be a signed compact JWS (from createSoftwareStatement)')
  }
  let grantTypes: unknown
  try {
    grantTypes = decodeCompactJws(value).payload.grant_types
  } catch (error) {
    if (!CryptoError.isInstance(error)) throw error
    throw fail('softwareStatement is not a compact JWS with a JSON claims set', error)
  }
  // Registration and cancellation differ only in grant_types, so a mix-up would silently do
  // the opposite of what the caller asked; refuse it.
  if (operation === 'cancel' && !(Array.isArray(grantTypes) && grantTypes.length === 0)) {
    throw fail(
      'a cancellation software statement must carry grant_types: [] (normalizeRegistrationMetadata with operation "cancel")',
    )
  }
  if (operation === 'register' && !(Array.isArray(grantTypes) && grantTypes.length > 0)) {
    throw fail(
      'a registration software statement must carry a non-empty grant_types; an empty one cancels the registration (use cancelUdapRegistration)',
    )
  }
  return value
}

function checkCertifications(value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined
  if (Array.isArray(value) && value.every((certification) => isCompactJws(certification))) {
    return [...value]
  }
  throw new ConfigurationError({
    invalidAttribute: 'certifications',
    message: 'certifications must be an array of signed certification JWTs (compact JWS)',
  })
}
