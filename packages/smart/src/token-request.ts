import {
  type Clock,
  type HttpResponse,
  TokenError,
  type TransportOptions,
} from '@fhir-auth/core/essentials'
import {
  isSuccessStatus,
  lazyImport,
  requireNonBlankString,
  sendFlowRequest,
  transportOf,
  tryParseJsonBody,
} from '@fhir-auth/core/internal'
import { authenticateClient, loadSymmetricAuthentication } from './client-authentication.js'
import type { ClientAuthentication } from './client-authentication-types.js'
import { parseTokenResponse, type TokenResponse } from './token-response.js'
import { mayDeviate } from './token-response-deviations.js'

/** The deviation warnings: loaded for a server that deviates, never for one that conforms. */
const deviationWarnings = lazyImport(() => import('./token-response-warnings.js'))

/** What every token request takes: the endpoint, transport settings and a clock for assertions. */
export interface TokenRequestCommon extends TransportOptions {
  /** The token endpoint, configured or discovered (check a discovered one with `requireDiscoveredEndpoint`). */
  readonly tokenEndpoint: string
  /** The clock for assertion `iat`/`exp`; defaults to the system clock. */
  readonly now?: Clock | undefined
}

/**
 * POSTs a token request form (never retried, never redirected) and reads the answer.
 *
 * @param secrets values in `form` to keep out of error messages.
 * @throws TokenError for every failed exchange (see {@link parseTokenResponse}); transport
 *   failures keep their `HttpError` as `cause`.
 * @internal
 */
export async function postTokenRequest(
  options: TokenRequestCommon,
  form: Readonly<Record<string, string>>,
  headers: Readonly<Record<string, string>>,
  secrets: readonly string[],
): Promise<TokenResponse> {
  const response = await postForm(options, options.tokenEndpoint, form, headers, secrets, 'token')
  return readTokenResponse(options, response, secrets)
}

/**
 * Reads a token response; a response that may bend the rules (see `mayDeviate`) first has its
 * deviations warned about, with the warning code loaded only then.
 */
async function readTokenResponse(
  options: TransportOptions,
  response: HttpResponse,
  secrets: readonly string[],
): Promise<TokenResponse> {
  if (options.logger !== undefined && mayDeviate(response.bodyText)) {
    const { warnOnTokenResponseDeviations } = await deviationWarnings()
    const body = tryParseJsonBody(response)
    warnOnTokenResponseDeviations(body, isSuccessStatus(response), options.logger)
  }
  return parseTokenResponse(response, secrets)
}

/** POSTs a form to one of the server's endpoints; `label` names the request in errors. */
function postForm(
  options: TransportOptions,
  url: string,
  form: Readonly<Record<string, string>>,
  headers: Readonly<Record<string, string>>,
  secrets: readonly string[],
  label: string,
): Promise<HttpResponse> {
  return sendFlowRequest(
    { method: 'POST', url, form, headers, ...transportOf(options) },
    TokenError,
    `${label} request`,
    secrets,
  )
}

/**
 * Sends a token request authenticated as `authentication` says.
 *
 * @internal
 */
export function postAuthenticatedTokenRequest(
  options: TokenRequestCommon & { readonly clientAuthentication: ClientAuthentication },
  form: Readonly<Record<string, string>>,
  secrets: readonly string[],
): Promise<TokenResponse> {
  const tokenEndpoint = requireNonBlankString(options.tokenEndpoint, 'tokenEndpoint')
  return postAuthenticatedForm(options, tokenEndpoint, form, secrets, 'token', (response, all) =>
    readTokenResponse(options, response, all),
  )
}

/**
 * POSTs a form to one of the server's endpoints (token, revocation) with the client's
 * authentication for that endpoint (a `private_key_jwt` assertion's `aud` is `endpoint`), and
 * reads the answer with `read` (given the request's secrets, its own included). `label` names
 * the request in errors (`token`: "token request"). A symmetric
 * client's `invalid_client` says how its Basic credentials were encoded.
 *
 * @throws TokenError for every failed exchange; transport failures keep their `HttpError` as
 *   `cause`.
 * @internal
 */
export async function postAuthenticatedForm<T>(
  options: TransportOptions & {
    readonly clientAuthentication: ClientAuthentication
    readonly now?: Clock | undefined
  },
  endpoint: string,
  form: Readonly<Record<string, string>>,
  secrets: readonly string[],
  label: string,
  read: (response: HttpResponse, secrets: readonly string[]) => T | Promise<T>,
): Promise<T> {
  const authentication = await authenticateClient(
    options.clientAuthentication,
    endpoint,
    options.now,
  )
  const all = [...secrets, ...authentication.secrets]
  try {
    const sent = { ...form, ...authentication.form }
    return await read(
      await postForm(options, endpoint, sent, authentication.headers, all, label),
      all,
    )
  } catch (error) {
    if (options.clientAuthentication.type !== 'confidential_symmetric') throw error
    throw (await loadSymmetricAuthentication()).withBasicEncodingHint(
      error,
      options.clientAuthentication,
    )
  }
}
