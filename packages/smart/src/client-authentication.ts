import {
  type BasicAuthEncoding,
  basicAuthEncodings,
  basicAuthorization,
  type Clock,
  ConfigurationError,
  formEncodingChanges,
  type JwsSigner,
  requireNonBlankString,
  TokenError,
} from '@fhir-auth/core'

/**
 * How a SMART client authenticates at the token endpoint, one variant per client type.
 *
 * - `public`: no authentication; `client_id` goes in the form body;
 * - `confidential_symmetric`: HTTP Basic with the client id and secret (RFC 6749 §2.3.1);
 * - `confidential_asymmetric`: `private_key_jwt`, a fresh signed assertion per request.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-symmetric.html
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-asymmetric.html
 */
export type ClientAuthentication =
  | { readonly type: 'public'; readonly clientId: string }
  | {
      readonly type: 'confidential_symmetric'
      readonly clientId: string
      readonly clientSecret: string
      /**
       * How id and secret are written in the Basic credentials: `'form-urlencoded'` (default,
       * RFC 6749 §2.3.1) or `'raw'` (`base64(id:secret)`, as the SMART IG example shows).
       */
      readonly basicAuthEncoding?: BasicAuthEncoding | undefined
    }
  | {
      readonly type: 'confidential_asymmetric'
      readonly clientId: string
      readonly signer: JwsSigner
      /** Becomes the assertion's `jku` header; must be the JWKS URL registered for the client. */
      readonly jwksUri?: string | undefined
    }

/** The form members and headers that authenticate one token request. @internal */
export interface AuthenticationParts {
  readonly form: Record<string, string>
  readonly headers: Record<string, string>
  /** Values to keep out of error messages built from the server's answer. */
  readonly secrets: string[]
}

/**
 * Turns a {@link ClientAuthentication} into request parts.
 *
 * @throws ConfigurationError on `clientType`, `clientId`, `clientSecret`, `signer`, `kid` or
 *   `jwtAlgorithm`; CryptoError when the signer fails.
 * @internal
 */
export async function authenticateClient(
  authentication: ClientAuthentication,
  tokenEndpoint: string,
  now: Clock | undefined,
): Promise<AuthenticationParts> {
  if (typeof authentication !== 'object' || authentication === null) {
    throw new ConfigurationError({
      invalidAttribute: 'clientAuthentication',
      message: 'clientAuthentication is required',
    })
  }
  const clientId = requireNonBlankString(authentication.clientId, 'clientId')
  const { type } = authentication
  if (type === 'public') return { form: { client_id: clientId }, headers: {}, secrets: [] }
  if (type === 'confidential_symmetric') {
    const clientSecret = requireNonBlankString(authentication.clientSecret, 'clientSecret')
    const encoding = readBasicAuthEncoding(authentication.basicAuthEncoding)
    // RFC 7617 §2: a user-id containing ':' cannot be sent unencoded.
    if (encoding === 'raw' && clientId.includes(':')) {
      throw new ConfigurationError({
        invalidAttribute: 'clientId',
        invalidValue: clientId,
        message:
          "clientId contains ':', which basicAuthEncoding 'raw' cannot carry (RFC 7617 §2); use 'form-urlencoded'",
      })
    }
    const authorization = basicAuthorization(clientId, clientSecret, encoding)
    // The credentials in the header are secret too, encoded or not.
    return { form: {}, headers: { authorization }, secrets: [clientSecret, authorization.slice(6)] }
  }
  if (type === 'confidential_asymmetric') {
    const { createClientAssertion, jwtBearerAssertionType } = await loadClientAssertion()
    const assertion = await createClientAssertion({
      clientId,
      tokenEndpoint,
      signer: authentication.signer,
      ...(authentication.jwksUri === undefined ? {} : { jwksUri: authentication.jwksUri }),
      ...(now === undefined ? {} : { now }),
    })
    return {
      form: { client_assertion_type: jwtBearerAssertionType, client_assertion: assertion },
      headers: {},
      secrets: [assertion],
    }
  }
  throw new ConfigurationError({
    invalidAttribute: 'clientType',
    invalidValue: type,
    validValues: ['public', 'confidential_symmetric', 'confidential_asymmetric'],
  })
}

function readBasicAuthEncoding(value: unknown): BasicAuthEncoding {
  if (value === undefined) return 'form-urlencoded'
  if ((basicAuthEncodings as readonly unknown[]).includes(value)) return value as BasicAuthEncoding
  throw new ConfigurationError({
    invalidAttribute: 'basicAuthEncoding',
    invalidValue: value,
    validValues: basicAuthEncodings,
  })
}

/**
 * A symmetric client's `invalid_client` with an id or secret that form encoding changes: the
 * same error, its message saying so and naming the other `basicAuthEncoding` (DESIGN §12).
 * Servers disagree on Basic credentials: RFC 6749 form-encodes id and secret first, the SMART
 * IG's example does not. The message names no character: they are the secret's.
 *
 * @internal
 */
export function withBasicEncodingHint(
  error: unknown,
  authentication: ClientAuthentication,
): unknown {
  if (
    !(error instanceof TokenError) ||
    error.error !== 'invalid_client' ||
    authentication.type !== 'confidential_symmetric' ||
    !(
      formEncodingChanges(authentication.clientId) ||
      formEncodingChanges(authentication.clientSecret)
    )
  ) {
    return error
  }
  const current = authentication.basicAuthEncoding ?? 'form-urlencoded'
  const other = current === 'raw' ? 'form-urlencoded' : 'raw'
  return new TokenError(
    {
      status: error.status,
      error: error.error,
      errorDescription: error.errorDescription,
      errorUri: error.errorUri,
      message: `${error.message}. The client id or secret has characters that form encoding changes, and servers differ on Basic credentials (${current === 'raw' ? 'sent as they are' : 'sent form-urlencoded, RFC 6749 §2.3.1'}): if the credentials are right, set basicAuthEncoding to '${other}'`,
    },
    error.cause === undefined ? undefined : { cause: error.cause },
  )
}

let clientAssertionModule: Promise<typeof import('./client-assertion.js')> | undefined

/**
 * The assertion code, loaded on demand: public and symmetric clients (most browser apps) never
 * carry JWS code. The module promise is kept because `import()` resolves its specifier again on
 * every call, which costs more than signing the assertion.
 */
function loadClientAssertion(): Promise<typeof import('./client-assertion.js')> {
  if (clientAssertionModule === undefined) {
    const pending = import('./client-assertion.js')
    clientAssertionModule = pending
    // A chunk that failed to load (a browser offline for a moment) is tried again next time.
    pending.catch(() => {
      if (clientAssertionModule === pending) clientAssertionModule = undefined
    })
  }
  return clientAssertionModule
}
