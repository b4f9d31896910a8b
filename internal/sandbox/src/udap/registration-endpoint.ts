import { mediaTypeOf, parseJsonObject } from '../http/body-format.js'
import type { CachedPathValidator } from './cached-path-validator.js'
import { verifyClientJwt } from './client-jwt-verification.js'
import { readClientMetadata, type ServerCapabilities } from './client-metadata-rules.js'
import type { ClientTrustStore } from './client-trust-store.js'
import type { JtiReplayGuard } from './jti-replay-guard.js'
import { type OAuthRejection, rejection } from './oauth-rejection.js'
import { toPkiObject } from './pki-object.js'
import type { RegistrationStore } from './registration-store.js'

/** What the registration endpoint needs from the sandbox. */
export interface RegistrationEndpointContext {
  /** The advertised registration endpoint URL: the required `aud`. */
  readonly registrationUrl: string
  /** `registration_endpoint_jwt_signing_alg_values_supported`. */
  readonly algorithms: readonly string[]
  readonly capabilities: ServerCapabilities
  readonly trust: ClientTrustStore
  readonly pathValidator: CachedPathValidator
  readonly registrations: RegistrationStore
  readonly replayGuard: JtiReplayGuard
  readonly now: () => Date
  readonly toleranceSeconds: number
}

/** A successful registration answer: status and JSON body. */
export interface RegistrationAnswer {
  readonly status: 200 | 201
  readonly body: Readonly<Record<string, unknown>>
}

/** The request parts the endpoint reads. */
export interface RegistrationRequest {
  readonly contentType: string | undefined
  readonly body: string
}

/**
 * Handles `POST /register` (UDAP DCR, IG STU2 §3). Errors (RFC 7591 §3.2.2):
 * - `invalid_client_metadata`: body not a JSON object, `udap` not `"1"`, or a metadata rule of
 *   the statement broken (see `readClientMetadata`), or a cancellation for an unknown client;
 * - `invalid_software_statement`: `software_statement` missing, not a JWS, `alg` not
 *   advertised, no usable `x5c`, bad signature, or a claim rule broken (`iss` not a SAN URI of
 *   the certificate, `sub ≠ iss`, wrong `aud`, lifetime > 300 s, expired, `iat` in the
 *   future, `jti` missing or replayed);
 * - `unapproved_software_statement`: the certificate chain does not validate (untrusted,
 *   expired, revoked, or no current CRL).
 *
 * A new `iss` gets 201 and a fresh `client_id`; the same `iss` again 200 with the same
 * `client_id`; `grant_types: []` cancels (200, `grant_types: []`).
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/registration.html
 */
export async function processRegistration(
  request: RegistrationRequest,
  context: RegistrationEndpointContext,
): Promise<RegistrationAnswer | OAuthRejection> {
  if (mediaTypeOf(request.contentType) !== 'application/json') {
    return rejection('invalid_client_metadata', 'registration requests must be application/json')
  }
  const body = parseJsonObject(request.body)
  if (body === undefined)
    return rejection('invalid_client_metadata', 'the body is not a JSON object')
  if (body.udap !== '1') {
    return rejection('invalid_client_metadata', 'udap must be the string "1" (UDAP version)')
  }
  const statement = body.software_statement
  if (typeof statement !== 'string' || statement === '') {
    return rejection('invalid_software_statement', 'software_statement is required')
  }
  const now = context.now()
  const verified = await verifyClientJwt(statement, {
    algorithms: context.algorithms,
    trust: context.trust.current(),
    pathValidator: context.pathValidator,
    replayGuard: context.replayGuard,
    audience: context.registrationUrl,
    now,
    toleranceSeconds: context.toleranceSeconds,
  })
  if (!verified.valid) {
    const error =
      verified.stage === 'trust' ? 'unapproved_software_statement' : 'invalid_software_statement'
    return rejection(error, `software_statement ${verified.message}`)
  }
  const { jwt } = verified
  if (!jwt.sanUris.includes(jwt.issuer)) {
    return rejection(
      'invalid_software_statement',
      'software_statement iss is not a uniformResourceIdentifier SAN of the x5c[0] certificate',
    )
  }
  const certificate = toPkiObject(jwt.leafDer, 'CERTIFICATE')
  const metadata = readClientMetadata(jwt.claims, context.capabilities)
  switch (metadata.kind) {
    case 'rejected':
      return rejection('invalid_client_metadata', metadata.description)
    case 'cancel': {
      const cancelled = context.registrations.cancel(jwt.issuer, certificate, now)
      if (cancelled === undefined) {
        return rejection(
          'invalid_client_metadata',
          'grant_types is empty but this iss has no registration to cancel',
        )
      }
      return {
        status: 200,
        body: {
          client_id: cancelled.clientId,
          ...cancelled.metadata,
          software_statement: statement,
        },
      }
    }
    case 'register': {
      const outcome = context.registrations.register(
        jwt.issuer,
        metadata.metadata,
        certificate,
        now,
      )
      return {
        status: outcome.created ? 201 : 200,
        body: {
          client_id: outcome.registration.clientId,
          ...metadata.metadata,
          software_statement: statement,
        },
      }
    }
  }
}
