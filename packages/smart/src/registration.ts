/**
 * `@fhir-auth/smart/registration`: RFC 7591 dynamic client registration at a SMART server. Also
 * exported by the main entry; this one is what a bundle split per dynamic import loads when an
 * app registers, so apps that never register never download it.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7591
 * @packageDocumentation
 */
import {
  ConfigurationError,
  type HttpResponse,
  RegistrationError,
  type RegistrationResponse,
  type TransportOptions,
} from '@fhir-auth/core/essentials'
import { readOptions, sendFlowRequest, transportOf } from '@fhir-auth/core/internal'
import {
  isPlainObject,
  readRegistrationResponse,
  requireEndpointUrl,
} from '@fhir-auth/core/internal/on-demand'

export type { RegistrationResponse } from '@fhir-auth/core/essentials'

/** Options of {@link registerSmartClient}. */
export interface RegisterSmartClientOptions extends TransportOptions {
  /** The configured or discovered `registration_endpoint`. */
  readonly registrationEndpoint: string
  /** RFC 7591 §2 client metadata, sent as JSON unchanged. */
  readonly metadata: Readonly<Record<string, unknown>>
  /** The full `Authorization` header value, e.g. `Bearer <initial access token>` (RFC 7591 §3.1). */
  readonly authorization?: string | undefined
}

/**
 * Registers a client by RFC 7591 dynamic registration: a JSON POST of the metadata, with the
 * `authorization` value as the `Authorization` header when it is not blank.
 *
 * The endpoint and metadata are checked before any request, so a client secret or initial
 * access token is never sent over plain HTTP. Store the returned `client_id` durably.
 *
 * @throws ConfigurationError `registrationEndpoint` when it is not HTTPS (loopback HTTP only
 *   with `allowInsecureLocalhost`), `metadata` when it is not a plain object.
 * @throws RegistrationError with `status`, `error`, `errorDescription`, `errorUri` for an RFC
 *   7591 §3.2.2 error; for a 2xx without a usable JSON object or `client_id`; for a transport
 *   failure (the `HttpError` is the `cause`).
 * @example
 * ```ts
 * const registration = await registerSmartClient({
 *   registrationEndpoint: metadata.registrationEndpoint ?? '',
 *   metadata: {
 *     client_name: 'My backend service',
 *     grant_types: ['client_credentials'],
 *     token_endpoint_auth_method: 'private_key_jwt',
 *     jwks_uri: 'https://service.example.org/.well-known/jwks.json',
 *   },
 *   authorization: `Bearer ${initialAccessToken}`,
 * })
 * registration.client_id // store it
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-3
 */
export async function registerSmartClient(
  input: RegisterSmartClientOptions,
): Promise<RegistrationResponse> {
  const options = readOptions(input, 'registerSmartClient', { required: true })
  const { metadata, authorization } = options
  const registrationEndpoint = requireEndpointUrl(
    options.registrationEndpoint,
    'registrationEndpoint',
    options.allowInsecureLocalhost,
  )
  if (!isPlainObject(metadata) || !isSerializable(metadata)) {
    throw new ConfigurationError({
      invalidAttribute: 'metadata',
      message: 'metadata must be a plain, JSON-serialisable object of RFC 7591 client metadata',
    })
  }
  const sendsAuthorization = typeof authorization === 'string' && authorization.trim() !== ''
  // The initial access token, with and without its scheme, must not be echoed into messages.
  const secrets = sendsAuthorization
    ? [authorization, ...authorization.trim().split(/\s+/).slice(1)]
    : []
  const response = await sendFlowRequest(
    {
      method: 'POST',
      url: registrationEndpoint,
      json: metadata,
      headers: sendsAuthorization ? { authorization } : {},
      ...transportOf(options),
    },
    RegistrationError,
    'client registration',
    secrets,
  )
  return parseRegistrationResponse(response, secrets)
}

/**
 * Reads a registration endpoint response (no I/O): a 2xx JSON object with a non-blank string
 * `client_id`, returned as received.
 *
 * @throws RegistrationError as {@link registerSmartClient} describes.
 * @example
 * ```ts
 * // with a response from your own HTTP stack (an HttpResponse: url, status, headers, bodyText)
 * const { client_id } = parseRegistrationResponse(response)
 * ```
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-3.2
 */
export function parseRegistrationResponse(
  response: HttpResponse,
  requestSecrets: readonly (string | undefined)[] = [],
): RegistrationResponse {
  return readRegistrationResponse(response, {
    label: 'client registration',
    responseLabel: 'registration response',
    requestSecrets,
  })
}

/** False for cycles and BigInt values, on which `JSON.stringify` throws a `TypeError`. */
function isSerializable(value: unknown): boolean {
  try {
    JSON.stringify(value)
    return true
  } catch {
    return false
  }
}
