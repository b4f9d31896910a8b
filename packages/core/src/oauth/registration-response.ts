import { RegistrationError } from '../errors/oauth-error.js'
import {
  describeMemberNames,
  isSuccessStatus,
  oauthErrorFromResponse,
  successJsonObject,
} from '../http/oauth-exchange.js'
import type { HttpResponse } from '../http/request.js'

/**
 * A registration response as the server sent it (RFC 7591 §3.2.1, snake_case keys): at least a
 * non-blank string `client_id`, plus whatever the server echoes or replaced (`client_secret`,
 * `registration_access_token`, the client metadata…). The same type for every protocol.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-3.2.1
 */
export type RegistrationResponse = Readonly<Record<string, unknown>> & {
  readonly client_id: string
}

/** How {@link readRegistrationResponse} reads one protocol's registration answer. */
export interface RegistrationResponseRules {
  /** What messages call the exchange, e.g. `client registration` or `UDAP registration`. */
  readonly label: string
  /** What messages call a success body; default `<label> response`. */
  readonly responseLabel?: string | undefined
  /** The 2xx statuses the protocol defines (UDAP: 200 and 201); default any 2xx. */
  readonly successStatuses?: readonly number[] | undefined
  /** Values sent in the request, cut out of messages if the server echoes them. */
  readonly requestSecrets: readonly (string | undefined)[]
}

/**
 * Reads a registration endpoint response (no I/O): a 2xx JSON object (any content type) with a
 * non-blank string `client_id`, returned as received.
 *
 * @throws RegistrationError with `status`, `error`, `errorDescription`, `errorUri` for an RFC
 *   7591 §3.2.2 error; for a 2xx the protocol does not define, a body that is not a JSON object
 *   (`cause` = `HttpError`), or a body without `client_id` (the message lists the field names
 *   received, never values).
 * @see https://www.rfc-editor.org/rfc/rfc7591#section-3.2
 * @internal
 */
export function readRegistrationResponse(
  response: HttpResponse,
  rules: RegistrationResponseRules,
): RegistrationResponse {
  const { label, successStatuses } = rules
  if (!isSuccessStatus(response)) {
    throw oauthErrorFromResponse(RegistrationError, label, response, rules.requestSecrets)
  }
  if (successStatuses !== undefined && !successStatuses.includes(response.status)) {
    throw new RegistrationError({
      status: response.status,
      message: `${label} answered HTTP ${response.status}; expected ${successStatuses.join(' or ')} with the registration`,
    })
  }
  const responseLabel = rules.responseLabel ?? `${label} response`
  const body = successJsonObject(RegistrationError, responseLabel, response, rules.requestSecrets)
  const clientId = body.client_id
  if (typeof clientId !== 'string' || clientId.trim() === '') {
    throw new RegistrationError({
      status: response.status,
      message: `${responseLabel} has no non-empty string client_id (received fields: ${describeMemberNames(body, rules.requestSecrets)})`,
    })
  }
  return body as RegistrationResponse
}
