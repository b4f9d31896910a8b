import { randomBytes } from 'node:crypto'
import { mediaTypeOf } from '../http/body-format.js'
import { readAuthorizationExtensions } from './b2b-extension-rules.js'
import type { CachedPathValidator } from './cached-path-validator.js'
import { type VerifiedClientJwt, verifyClientJwt } from './client-jwt-verification.js'
import type { ClientTrustStore } from './client-trust-store.js'
import type { JtiReplayGuard } from './jti-replay-guard.js'
import { type OAuthRejection, rejection } from './oauth-rejection.js'
import type { IssuedAccessToken } from './options.js'
import type { RegistrationStore } from './registration-store.js'
import { grantScopes } from './scope-grant.js'

/** RFC 7523 §2.2: the only `client_assertion_type` UDAP uses. */
export const jwtBearerAssertionType = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'

/** What the token endpoint needs from the sandbox. */
export interface TokenEndpointContext {
  /** The advertised token endpoint URL: the required `aud`. */
  readonly tokenUrl: string
  /** `token_endpoint_auth_signing_alg_values_supported`. */
  readonly algorithms: readonly string[]
  readonly requiredExtensions: readonly string[]
  readonly scopesSupported: readonly string[]
  readonly allowUnregisteredClients: boolean
  readonly accessTokenLifetimeSeconds: number
  readonly trust: ClientTrustStore
  readonly pathValidator: CachedPathValidator
  readonly registrations: RegistrationStore
  readonly replayGuard: JtiReplayGuard
  readonly now: () => Date
  readonly toleranceSeconds: number
  /** Records a token the endpoint issued. */
  readonly recordToken: (token: IssuedAccessToken) => void
}

/** The request parts the endpoint reads. */
export interface TokenRequest {
  readonly authorization: string | undefined
  readonly contentType: string | undefined
  readonly body: string
}

/** A successful token response (RFC 6749 §5.1). */
export interface TokenAnswer {
  readonly status: 200
  readonly body: {
    readonly access_token: string
    readonly token_type: 'Bearer'
    readonly expires_in: number
    readonly scope: string
  }
}

/** Who a valid authentication token authenticated. */
interface AuthenticatedClient {
  readonly clientId: string
  readonly unregistered: boolean
  /** Scopes the client may be granted. */
  readonly allowedScopes: readonly string[]
}

/**
 * Handles `POST /token` for `client_credentials` with a UDAP authentication token (IG STU2
 * §5.2; udap.org JWT client auth). Errors (RFC 6749 §5.2):
 * - `invalid_request`: an `Authorization` header, a non-form body, `udap` ≠ `1`, a missing or
 *   foreign `client_assertion_type`, no `client_assertion`, no `scope`, or a `client_id` that
 *   differs from the token's `sub`;
 * - `unsupported_grant_type`: anything but `client_credentials`;
 * - `invalid_grant`: the AnT's signature, `alg`, `x5c` chain and CRLs, `iss`/`sub`, `aud`,
 *   lifetime, `jti` replay, or the `hl7-b2b` extension (required when configured);
 * - `invalid_client`: `iss` is no registered client (or a cancelled one), or the certificate
 *   does not carry the registered client URI as SAN; with `allowUnregisteredClients`, an
 *   unknown `iss` that is a SAN URI of the certificate is accepted instead;
 * - `unauthorized_client`: the client did not register for `client_credentials`;
 * - `invalid_scope`: none of the requested scopes is allowed.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/b2b.html
 * @see https://www.udap.org/udap-jwt-client-auth.html
 */
export async function processTokenRequest(
  request: TokenRequest,
  context: TokenEndpointContext,
): Promise<TokenAnswer | OAuthRejection> {
  if (request.authorization !== undefined) {
    return rejection(
      'invalid_request',
      'UDAP token requests must not carry an Authorization header',
    )
  }
  if (mediaTypeOf(request.contentType) !== 'application/x-www-form-urlencoded') {
    return rejection('invalid_request', 'token requests must be application/x-www-form-urlencoded')
  }
  const form = new URLSearchParams(request.body)
  const formProblem = checkForm(form)
  if (formProblem !== undefined) return formProblem
  const now = context.now()
  const verified = await verifyClientJwt(form.get('client_assertion') ?? '', {
    algorithms: context.algorithms,
    trust: context.trust.current(),
    pathValidator: context.pathValidator,
    replayGuard: context.replayGuard,
    audience: context.tokenUrl,
    now,
    toleranceSeconds: context.toleranceSeconds,
  })
  if (!verified.valid) return rejection('invalid_grant', `client_assertion ${verified.message}`)
  const { jwt } = verified
  const formClientId = form.get('client_id')
  if (formClientId !== null && formClientId !== jwt.issuer) {
    return rejection('invalid_request', 'client_id does not equal the sub of the client_assertion')
  }
  const client = authenticateClient(jwt, context)
  if ('error' in client) return client
  const extensions = readAuthorizationExtensions(jwt.claims.extensions, context.requiredExtensions)
  if (!extensions.valid) return rejection('invalid_grant', `client_assertion ${extensions.message}`)
  const scopes = grantScopes(form.get('scope') ?? '', client.allowedScopes)
  if (scopes.length === 0)
    return rejection('invalid_scope', 'none of the requested scopes is allowed for this client')
  const accessToken = randomBytes(32).toString('base64url')
  const scope = scopes.join(' ')
  context.recordToken({
    accessToken,
    clientId: client.clientId,
    unregistered: client.unregistered,
    scope,
    ...(extensions.b2b === undefined ? {} : { b2b: extensions.b2b }),
    expiresAt: new Date(now.getTime() + context.accessTokenLifetimeSeconds * 1000),
  })
  return {
    status: 200,
    body: {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: context.accessTokenLifetimeSeconds,
      scope,
    },
  }
}

function checkForm(form: URLSearchParams): OAuthRejection | undefined {
  const grantType = form.get('grant_type')
  if (grantType === null) return rejection('invalid_request', 'grant_type is required')
  if (grantType !== 'client_credentials') {
    return rejection(
      'unsupported_grant_type',
      `grant_type ${grantType} is not supported by this sandbox`,
    )
  }
  if (form.get('udap') !== '1')
    return rejection('invalid_request', 'udap must be 1 in UDAP token requests')
  if (form.get('client_assertion_type') !== jwtBearerAssertionType) {
    return rejection('invalid_request', `client_assertion_type must be ${jwtBearerAssertionType}`)
  }
  if ((form.get('client_assertion') ?? '') === '')
    return rejection('invalid_request', 'client_assertion is required')
  if ((form.get('scope') ?? '').trim() === '') {
    return rejection('invalid_request', 'scope is required for client_credentials')
  }
  return undefined
}

function authenticateClient(
  jwt: VerifiedClientJwt,
  context: TokenEndpointContext,
): AuthenticatedClient | OAuthRejection {
  const registration = context.registrations.byClientId(jwt.issuer)
  if (registration === undefined) {
    if (context.allowUnregisteredClients && jwt.sanUris.includes(jwt.issuer)) {
      return { clientId: jwt.issuer, unregistered: true, allowedScopes: context.scopesSupported }
    }
    return rejection('invalid_client', 'the client_assertion iss is not a registered client_id')
  }
  if (registration.cancelled) {
    return rejection('invalid_client', 'the registration of this client was cancelled')
  }
  if (!jwt.sanUris.includes(registration.clientUri)) {
    return rejection(
      'invalid_client',
      'the x5c[0] certificate does not carry the registered client URI as SAN',
    )
  }
  if (!registration.metadata.grant_types.includes('client_credentials')) {
    return rejection('unauthorized_client', 'this client is not registered for client_credentials')
  }
  return {
    clientId: registration.clientId,
    unregistered: false,
    allowedScopes: registration.metadata.scope.split(' '),
  }
}
