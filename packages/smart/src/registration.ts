import {
  ConfigurationError,
  configuredUrlProblem,
  describeMemberNames,
  type HttpResponse,
  isJsonObject,
  isSuccessStatus,
  oauthErrorFromResponse,
  RegistrationError,
  sendFlowRequest,
  successJsonObject,
  type TransportOptions,
} from '@fhir-auth/core'
import { transportOf } from './option-checks.js'

/**
 * A registration response as the server sent it (RFC 7591 §3.2.1): at least a non-empty
 * `client_id`, often `client_secret`, `registration_access_token` and the echoed metadata.
 */
export type RegistrationResponse = Readonly<Record<string, unknown>> & {
  readonly client_id: string
}

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
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-3
 */
export async function registerSmartClient(
  options: RegisterSmartClientOptions,
): Promise<RegistrationResponse> {
  const { registrationEndpoint, metadata, authorization } = options
  // The same policy as every configured URL (DESIGN §12), user info included.
  const endpointProblem =
    typeof registrationEndpoint === 'string'
      ? configuredUrlProblem(registrationEndpoint, options.allowInsecureLocalhost === true)
      : 'must be an absolute http(s) URL'
  if (endpointProblem !== undefined) {
    throw new ConfigurationError({
      invalidAttribute: 'registrationEndpoint',
      message: `registrationEndpoint ${endpointProblem}`,
    })
  }
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
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-3.2
 */
export function parseRegistrationResponse(
  response: HttpResponse,
  requestSecrets: readonly (string | undefined)[] = [],
): RegistrationResponse {
  if (!isSuccessStatus(response))
    throw oauthErrorFromResponse(RegistrationError, 'client registration', response, requestSecrets)
  const body = successJsonObject(RegistrationError, 'registration response', response)
  const clientId = body.client_id
  if (typeof clientId !== 'string' || clientId.trim() === '') {
    throw new RegistrationError({
      status: response.status,
      message: `registration response has no non-blank string client_id (received fields: ${describeMemberNames(body)})`,
    })
  }
  return body as RegistrationResponse
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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isJsonObject(value)) return false
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}
