import { type Clock, TokenError, type TransportOptions } from '@fhir-auth/core/essentials'
import {
  isSuccessStatus,
  lazyImport,
  requireNonBlankString,
  sendFlowRequest,
  transportOf,
  tryParseJsonBody,
} from '@fhir-auth/core/internal'
import {
  authenticateClient,
  type ClientAuthentication,
  loadSymmetricAuthentication,
} from './client-authentication.js'
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
  const response = await sendFlowRequest(
    {
      method: 'POST',
      url: options.tokenEndpoint,
      form,
      headers,
      ...transportOf(options),
    },
    TokenError,
    'token request',
    secrets,
  )
  if (options.logger !== undefined && mayDeviate(response.bodyText)) {
    const { warnOnTokenResponseDeviations } = await deviationWarnings()
    const body = tryParseJsonBody(response)
    warnOnTokenResponseDeviations(body, isSuccessStatus(response), options.logger)
  }
  return parseTokenResponse(response, secrets)
}

/**
 * Sends a token request authenticated as `authentication` says.
 *
 * @internal
 */
export async function postAuthenticatedTokenRequest(
  options: TokenRequestCommon & { readonly clientAuthentication: ClientAuthentication },
  form: Readonly<Record<string, string>>,
  secrets: readonly string[],
): Promise<TokenResponse> {
  const tokenEndpoint = requireNonBlankString(options.tokenEndpoint, 'tokenEndpoint')
  const authentication = await authenticateClient(
    options.clientAuthentication,
    tokenEndpoint,
    options.now,
  )
  try {
    return await postTokenRequest(
      options,
      { ...form, ...authentication.form },
      authentication.headers,
      [...secrets, ...authentication.secrets],
    )
  } catch (error) {
    if (options.clientAuthentication.type !== 'confidential_symmetric') throw error
    throw (await loadSymmetricAuthentication()).withBasicEncodingHint(
      error,
      options.clientAuthentication,
    )
  }
}
