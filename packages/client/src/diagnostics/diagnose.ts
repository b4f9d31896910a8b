import { ConfigurationError, type TokenResponse } from '@fhir-auth/core/essentials'
import type { Protocol } from '../client-type.js'
import type { ProtocolContext } from '../protocol-context.js'
import type { DiagnosticCheck, DiagnosticReport, InvalidClientCause } from './diagnostic-report.js'
import {
  type ConfiguredKey,
  checkJwks,
  checkKeyStrength,
  checkSigningAlgorithm,
  type JwksProblem,
  probeKey,
} from './key-checks.js'
import { checkRedirectUri } from './redirect-uri-check.js'
import type { DiagnosticServerAccess } from './server-access.js'
import {
  checkCapabilities,
  checkClock,
  checkDiscovery,
  checkIssuerBinding,
  checkPkce,
  checkScopes,
} from './server-checks.js'
import { checkToken } from './token-check.js'

/** What `client.diagnose()` hands over: the client's context and its token request. */
export interface DiagnoseInput {
  readonly context: ProtocolContext
  readonly protocol: Protocol
  readonly tryToken: boolean
  readonly signal: AbortSignal | undefined
  /** The SMART protocol's code the checks use (`undefined` for UDAP). */
  readonly server: DiagnosticServerAccess | undefined
  /** The client's own `requestBackendToken`, for the `token` check. */
  readonly requestBackendToken: () => Promise<TokenResponse>
}

/**
 * Runs every check of `client.diagnose()` (see `DiagnosticCheckId`) against a SMART server and
 * this client's configuration, and reports them in their fixed order. Checks that need the
 * SMART configuration are a `warn` when it could not be read. Nothing here throws for what it
 * finds; a report never holds a secret (no token, client secret or key material).
 *
 * @throws ConfigurationError `protocol` for a UDAP client.
 * @internal
 */
export async function diagnose(input: DiagnoseInput): Promise<DiagnosticReport> {
  const { context } = input
  const { config, options } = context
  const { server } = input
  if (input.protocol !== 'smart' || server === undefined) {
    throw new ConfigurationError({
      invalidAttribute: 'protocol',
      message:
        'diagnose checks SMART servers; for UDAP, `fhir-auth discover --udap` verifies the metadata',
    })
  }
  const transport = context.transport(input.signal)
  const clientType = context.clientType
  const key: ConfiguredKey | undefined =
    clientType === 'confidential_asymmetric'
      ? {
          privateKey: config.privateKey,
          kid: config.kid,
          jwtAlgorithm: config.jwtAlgorithm,
          jwksUri: config.jwksUri,
        }
      : undefined
  const crypto = context.cryptoBackend()
  const probe = key === undefined ? undefined : await probeKey(key, crypto)
  const {
    check: discovery,
    metadata,
    serverDate,
  } = await checkDiscovery(server, config.baseUrl, transport)
  const checks: DiagnosticCheck[] = [discovery]
  if (metadata === undefined) {
    for (const id of ['issuer-binding', 'capabilities', 'pkce', 'signing-algorithm'] as const) {
      checks.push(notChecked(id))
    }
  } else {
    checks.push(
      await checkIssuerBinding(
        server,
        metadata,
        { issuer: config.issuer, baseUrl: config.baseUrl },
        transport,
      ),
      checkCapabilities(metadata, clientType),
      checkPkce(metadata, config.redirectUri !== undefined),
      checkSigningAlgorithm(probe, metadata),
    )
  }
  const jwks = await checkJwks(server, key, probe, transport)
  const clock = checkClock(serverDate, options.now())
  checks.push(
    checkKeyStrength(probe),
    jwks.check,
    clock,
    checkRedirectUri(config.redirectUri, clientType !== 'confidential_asymmetric'),
    metadata === undefined ? notChecked('scopes') : checkScopes(metadata, config.scopes),
  )
  if (input.tryToken) {
    checks.push(
      key === undefined
        ? {
            id: 'token',
            status: 'warn',
            message: `not tried: a ${clientType} client gets no client_credentials token`,
            hint: 'tryToken applies to backend services: a confidential_asymmetric client with a key',
          }
        : await checkToken(
            input.requestBackendToken,
            evidenceOf(checks, {
              jwksProblem: jwks.problem,
              clockSkewed: clock.status === 'warn' && serverDate !== undefined,
              configuredTokenEndpoint: config.tokenEndpoint,
              discoveredTokenEndpoint: metadata?.tokenEndpoint,
            }),
            metadata?.tokenEndpoint ?? config.tokenEndpoint,
          ),
    )
  }
  return { ok: checks.every((check) => check.status !== 'fail'), checks }
}

function notChecked(id: DiagnosticCheck['id']): DiagnosticCheck {
  return {
    id,
    status: 'warn',
    message: 'not checked: the SMART configuration could not be read',
    hint: 'fix the discovery check first',
  }
}

/** The `invalid_client` causes the other checks point at. */
function evidenceOf(
  checks: readonly DiagnosticCheck[],
  found: {
    readonly jwksProblem: JwksProblem
    readonly clockSkewed: boolean
    readonly configuredTokenEndpoint: string | undefined
    readonly discoveredTokenEndpoint: string | undefined
  },
): Set<InvalidClientCause> {
  const { jwksProblem, configuredTokenEndpoint, discoveredTokenEndpoint } = found
  const evidence = new Set<InvalidClientCause>()
  const status = (id: DiagnosticCheck['id']) => checks.find((check) => check.id === id)?.status
  if (
    configuredTokenEndpoint !== undefined &&
    discoveredTokenEndpoint !== undefined &&
    configuredTokenEndpoint !== discoveredTokenEndpoint
  ) {
    evidence.add('aud')
  }
  if (jwksProblem === 'unknown-kid' || jwksProblem === 'other-key') evidence.add('unknown-kid')
  if (jwksProblem === 'unreachable') evidence.add('jwks-unreachable')
  if (status('signing-algorithm') === 'fail' || status('key-strength') === 'fail') {
    evidence.add('algorithm')
  }
  if (found.clockSkewed) evidence.add('clock-skew')
  return evidence
}
