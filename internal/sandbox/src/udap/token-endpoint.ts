import { decodeJwt, decodeProtectedHeader } from 'jose'
import { mediaTypeOf } from '../http/body-format.js'
import { grantAuthorizationCode } from './authorization-code-grant.js'
import type { AuthorizationCodes } from './authorization-codes.js'
import type { CachedPathValidator } from './cached-path-validator.js'
import { grantClientCredentials } from './client-credentials-grant.js'
import { type VerifiedClientJwt, verifyClientJwt } from './client-jwt-verification.js'
import type { ClientTrustStore } from './client-trust-store.js'
import type { JtiReplayGuard } from './jti-replay-guard.js'
import type { UdapGrantType } from './options.js'
import type { AuthenticationTokenRecord } from './records.js'
import { grantRefreshToken } from './refresh-token-grant.js'
import type { RegistrationStore, UdapRegistration } from './registration-store.js'
import { isRejection, refuse, type TokenRejection } from './token-rejection.js'
import type { TokenResponseBody } from './token-response.js'
import type { UserTokenContext } from './user-tokens.js'

/** RFC 7523 §2.2: the only `client_assertion_type` UDAP uses. */
export const jwtBearerAssertionType = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'

/** What the token endpoint needs from the sandbox. */
export interface TokenEndpointContext extends UserTokenContext {
  /** The advertised token endpoint URL: the required `aud`. */
  readonly tokenUrl: string
  /** `token_endpoint_auth_signing_alg_values_supported`. */
  readonly algorithms: readonly string[]
  /** `grant_types_supported`. */
  readonly grantTypes: readonly UdapGrantType[]
  readonly requiredExtensions: readonly string[]
  readonly scopesSupported: readonly string[]
  readonly allowUnregisteredClients: boolean
  readonly extensionsPolicy: 'refuse' | 'ignore'
  readonly trust: ClientTrustStore
  readonly pathValidator: CachedPathValidator
  readonly registrations: RegistrationStore
  readonly replayGuard: JtiReplayGuard
  readonly codes: AuthorizationCodes
  readonly toleranceSeconds: number
  /** Records how the request and its authentication token were judged. */
  readonly record: (record: AuthenticationTokenRecord) => void
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
  readonly body: TokenResponseBody
}

const knownGrantTypes: readonly string[] = [
  'client_credentials',
  'authorization_code',
  'refresh_token',
]

/**
 * Handles `POST /token` with a UDAP authentication token (AnT) for `client_credentials`
 * (IG STU2 §5.2), `authorization_code` (§4.1.3, §5.1.3) and `refresh_token` (§4.3), and
 * records every request with its decoded AnT (see `AuthenticationTokenRecord`). Errors
 * (RFC 6749 §5.2), in the order checked:
 * - `invalid_request`: an `Authorization` header, a non-form body, no `grant_type`, `udap` ≠
 *   `1`, a missing or foreign `client_assertion_type`, no `client_assertion`, a missing
 *   grant parameter (`scope`; `code` and `code_verifier`; `refresh_token`);
 * - `unsupported_grant_type`: a grant the server does not advertise;
 * - `invalid_grant`: the AnT's `alg`, `x5c`, signature, chain and CRLs, `iss`/`sub`, `aud`,
 *   `iat`, `exp`, lifetime, `jti` and its replay; then the grant's own checks;
 * - `invalid_request`: a form `client_id` that differs from the AnT's `sub`;
 * - `invalid_client`: `iss` is no registered client (or a cancelled one), or the certificate
 *   does not carry the registered client URI as SAN; with `allowUnregisteredClients`, an
 *   unknown `iss` that is a SAN URI of the certificate is accepted for client_credentials;
 * - `unauthorized_client`: the client did not register this grant.
 *
 * @see https://www.udap.org/udap-jwt-client-auth.html
 * @see https://hl7.org/fhir/us/udap-security/STU2/consumer.html#token-request
 */
export async function processTokenRequest(
  request: TokenRequest,
  context: TokenEndpointContext,
): Promise<TokenAnswer | TokenRejection> {
  const isForm = mediaTypeOf(request.contentType) === 'application/x-www-form-urlencoded'
  const form = new URLSearchParams(isForm ? request.body : '')
  const judgement = new Judgement(request, form, context)
  if (request.authorization !== undefined) {
    return judgement.refused(
      refuse(
        'authorization-header',
        'invalid_request',
        'UDAP token requests must not carry an Authorization header',
      ),
    )
  }
  if (!isForm) {
    return judgement.refused(
      refuse(
        'content-type',
        'invalid_request',
        'token requests must be application/x-www-form-urlencoded',
      ),
    )
  }
  const formProblem = checkForm(form, context.grantTypes)
  if (formProblem !== undefined) return judgement.refused(formProblem)
  const verified = await verifyClientJwt(form.get('client_assertion') ?? '', {
    algorithms: context.algorithms,
    trust: context.trust.current(),
    pathValidator: context.pathValidator,
    replayGuard: context.replayGuard,
    audience: context.tokenUrl,
    now: context.now(),
    toleranceSeconds: context.toleranceSeconds,
  })
  if (!verified.valid) {
    judgement.signatureVerified = verified.stage !== 'signature'
    judgement.chainValidated = verified.stage === 'claims'
    return judgement.refused(
      refuse(verified.rule, 'invalid_grant', `client_assertion ${verified.message}`),
    )
  }
  const { jwt } = verified
  judgement.signatureVerified = true
  judgement.chainValidated = true
  judgement.certificateSanUris = jwt.sanUris
  const formClientId = form.get('client_id')
  if (formClientId !== null && formClientId !== jwt.issuer) {
    return judgement.refused(
      refuse(
        'client-id',
        'invalid_request',
        'client_id does not equal the sub of the client_assertion',
      ),
    )
  }
  const grantType = form.get('grant_type') as UdapGrantType
  const answer = await grant(grantType, form, jwt, context, judgement)
  if (isRejection(answer)) return judgement.refused(answer)
  judgement.accepted()
  return { status: 200, body: answer }
}

async function grant(
  grantType: UdapGrantType,
  form: URLSearchParams,
  jwt: VerifiedClientJwt,
  context: TokenEndpointContext,
  judgement: Judgement,
): Promise<TokenResponseBody | TokenRejection> {
  const registration = context.registrations.byClientId(jwt.issuer)
  if (grantType === 'client_credentials' && registration === undefined) {
    if (context.allowUnregisteredClients && jwt.sanUris.includes(jwt.issuer)) {
      judgement.clientId = jwt.issuer
      return grantClientCredentials(
        form,
        jwt.claims,
        { clientId: jwt.issuer, unregistered: true, allowedScopes: context.scopesSupported },
        context,
      )
    }
  }
  const client = authenticateRegisteredClient(registration, jwt)
  if (isRejection(client)) return client
  judgement.clientId = client.clientId
  const registered = client.metadata.grant_types
  const missingGrant =
    grantType === 'refresh_token'
      ? ['authorization_code', 'refresh_token'].find((needed) => !registered.includes(needed))
      : registered.includes(grantType)
        ? undefined
        : grantType
  if (missingGrant !== undefined) {
    return refuse(
      'grant-not-registered',
      'unauthorized_client',
      `this client is not registered for ${missingGrant}`,
    )
  }
  switch (grantType) {
    case 'client_credentials':
      return grantClientCredentials(
        form,
        jwt.claims,
        {
          clientId: client.clientId,
          unregistered: false,
          allowedScopes: client.metadata.scope.split(' '),
        },
        context,
      )
    case 'authorization_code':
      return grantAuthorizationCode(
        form,
        jwt.claims,
        { clientId: client.clientId, mayRefresh: registered.includes('refresh_token') },
        { ...context, refreshSupported: context.grantTypes.includes('refresh_token') },
      )
    case 'refresh_token':
      return grantRefreshToken(form, jwt.claims, client.clientId, context)
  }
}

function checkForm(
  form: URLSearchParams,
  supported: readonly UdapGrantType[],
): TokenRejection | undefined {
  const grantType = form.get('grant_type')
  if (grantType === null) return refuse('grant-type', 'invalid_request', 'grant_type is required')
  if (
    !knownGrantTypes.includes(grantType) ||
    !(supported as readonly string[]).includes(grantType)
  ) {
    return refuse(
      'grant-type',
      'unsupported_grant_type',
      `grant_type ${grantType} is not supported by this sandbox`,
    )
  }
  if (form.get('udap') !== '1') {
    return refuse('udap', 'invalid_request', 'udap must be 1 in UDAP token requests')
  }
  if (form.get('client_assertion_type') !== jwtBearerAssertionType) {
    return refuse(
      'client-assertion-type',
      'invalid_request',
      `client_assertion_type must be ${jwtBearerAssertionType}`,
    )
  }
  if ((form.get('client_assertion') ?? '') === '') {
    return refuse('client-assertion', 'invalid_request', 'client_assertion is required')
  }
  const required: Record<string, readonly [string, TokenRejection['rule']][]> = {
    client_credentials: [['scope', 'scope']],
    authorization_code: [
      ['code', 'code'],
      ['code_verifier', 'code-verifier'],
    ],
    refresh_token: [['refresh_token', 'refresh-token']],
  }
  for (const [name, rule] of required[grantType] ?? []) {
    if ((form.get(name) ?? '').trim() === '') {
      return refuse(rule, 'invalid_request', `${name} is required for ${grantType}`)
    }
  }
  return undefined
}

function authenticateRegisteredClient(
  registration: UdapRegistration | undefined,
  jwt: VerifiedClientJwt,
): UdapRegistration | TokenRejection {
  if (registration === undefined) {
    return refuse(
      'client',
      'invalid_client',
      'the client_assertion iss is not a registered client_id',
    )
  }
  if (registration.cancelled) {
    return refuse('client', 'invalid_client', 'the registration of this client was cancelled')
  }
  if (!jwt.sanUris.includes(registration.clientUri)) {
    return refuse(
      'certificate-san',
      'invalid_client',
      'the x5c[0] certificate does not carry the registered client URI as SAN',
    )
  }
  return registration
}

/** Collects what the endpoint learnt about a request and records it once, at the end. */
class Judgement {
  signatureVerified = false
  chainValidated = false
  certificateSanUris: readonly string[] = []
  clientId: string | undefined
  readonly #request: TokenRequest
  readonly #form: URLSearchParams
  readonly #context: TokenEndpointContext
  readonly #receivedAt: Date

  constructor(request: TokenRequest, form: URLSearchParams, context: TokenEndpointContext) {
    this.#request = request
    this.#form = form
    this.#context = context
    this.#receivedAt = context.now()
  }

  refused(rejection: TokenRejection): TokenRejection {
    this.#record({
      accepted: false,
      failedRule: rejection.rule,
      error: rejection.error,
      errorDescription: rejection.description,
    })
    return rejection
  }

  accepted(): void {
    this.#record({ accepted: true })
  }

  #record(
    outcome: Pick<
      AuthenticationTokenRecord,
      'accepted' | 'failedRule' | 'error' | 'errorDescription'
    >,
  ): void {
    const assertion = this.#form.get('client_assertion') ?? ''
    this.#context.record({
      receivedAt: this.#receivedAt,
      grantType: this.#form.get('grant_type') ?? undefined,
      authorizationHeader: this.#request.authorization !== undefined,
      form: Object.fromEntries(this.#form),
      header: decodeOrUndefined(() => decodeProtectedHeader(assertion)),
      claims: decodeOrUndefined(() => decodeJwt(assertion)),
      signatureVerified: this.signatureVerified,
      chainValidated: this.chainValidated,
      certificateSanUris: this.certificateSanUris,
      ...(this.clientId === undefined ? {} : { clientId: this.clientId }),
      ...outcome,
    })
  }
}

function decodeOrUndefined(
  decode: () => Record<string, unknown>,
): Readonly<Record<string, unknown>> | undefined {
  try {
    return decode()
  } catch {
    return undefined
  }
}
