import { ConfigurationError } from '@fhir-auth/core'
import type { TestKeyPair } from '@fhir-auth/test-pki/issuer'
import { nonEmptyText, nonNegativeInteger, positiveInteger } from '../option-checks.js'
import { type HostileVariant, hostileVariants, isHostileVariant } from './hostile-variants.js'
import type {
  UdapClientTrust,
  UdapGrantType,
  UdapSandboxOptions,
  UdapSigningAlgorithm,
} from './options.js'
import type { PkiObject } from './pki-object.js'
import { readPkiInput } from './pki-object.js'
import type { TieredIdentity } from './records.js'
import { defaultSandboxUser, readSandboxUser, type UdapSandboxUser } from './sandbox-user.js'
import { defaultSignedMetadataLifetimeSeconds } from './signed-metadata.js'

/** {@link UdapSandboxOptions} checked and completed with defaults. */
export interface UdapSettings {
  readonly grantTypes: readonly UdapGrantType[]
  readonly scopesSupported: readonly string[]
  readonly requiredExtensions: readonly string[]
  readonly tokenSigningAlgorithms: readonly UdapSigningAlgorithm[]
  readonly registrationSigningAlgorithms: readonly UdapSigningAlgorithm[]
  readonly defaultCommunity: string
  readonly communities: readonly string[]
  readonly allowUnregisteredClients: boolean
  readonly crlDistributionPoints: boolean
  readonly hostile: HostileVariant | undefined
  readonly extraAnchorsDer: readonly Uint8Array[]
  readonly extraCrlsDer: readonly Uint8Array[]
  readonly serverKeyPair: TestKeyPair | undefined
  readonly publicOrigin: string | undefined
  readonly accessTokenLifetimeSeconds: number
  readonly clockToleranceSeconds: number
  readonly now: () => Date
  readonly requestLogLimit: number
  readonly user: UdapSandboxUser
  readonly identityProvider: boolean
  /** The data holder's Tiered OAuth, or `undefined` when off. */
  readonly tieredOAuth:
    | {
        readonly identityProviderAnchorsDer: readonly Uint8Array[]
        readonly identityProviderCrlsDer: readonly Uint8Array[]
        readonly mapUser: ((identity: TieredIdentity) => UdapSandboxUser | undefined) | undefined
      }
    | undefined
  readonly extensionsWithAuthorizationCode: 'refuse' | 'ignore'
  readonly signedMetadataLifetimeSeconds: number
  readonly authorizationResponseIss: 'signed' | 'unsigned' | undefined
  readonly newClientIdOnModification: boolean
}

const signingAlgorithms: readonly UdapSigningAlgorithm[] = ['RS256', 'RS384', 'ES256', 'ES384']
const grantTypes: readonly UdapGrantType[] = [
  'client_credentials',
  'authorization_code',
  'refresh_token',
]
const systemScopes = ['system/*.rs', 'system/*.read']
const identityProviderScopes = ['openid', 'udap', 'profile', 'fhirUser']
const userScopes = [
  'user/*.rs',
  'user/*.read',
  'patient/*.rs',
  'patient/*.read',
  'openid',
  'fhirUser',
  'profile',
  'offline_access',
]

/** The default community URI. */
export const defaultCommunityUri = 'udap://fhir-auth.sandbox/default'

/**
 * Checks `options` and fills in defaults.
 *
 * @throws {ConfigurationError} `invalidAttribute` names the first option with a wrong type or
 *   value (e.g. `grantTypes` with `refresh_token` but no `authorization_code`).
 */
export function readUdapSettings(options: UdapSandboxOptions): UdapSettings {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError({ invalidAttribute: 'options', invalidValue: options })
  }
  const identityProvider = options.identityProvider === true
  const grants =
    subsetOf(options.grantTypes, grantTypes, 'grantTypes') ??
    (identityProvider ? ['authorization_code'] : ['client_credentials'])
  if (
    grants.length === 0 ||
    (grants.includes('refresh_token') && !grants.includes('authorization_code'))
  ) {
    throw new ConfigurationError({
      invalidAttribute: 'grantTypes',
      invalidValue: options.grantTypes,
      message:
        'grantTypes needs at least one grant, and refresh_token only with authorization_code',
    })
  }
  const tieredOAuth = readTieredOAuth(options.tieredOAuth)
  if ((identityProvider || tieredOAuth !== undefined) && !grants.includes('authorization_code')) {
    throw new ConfigurationError({
      invalidAttribute: identityProvider ? 'identityProvider' : 'tieredOAuth',
      invalidValue: true,
      message: 'Tiered OAuth (identityProvider, tieredOAuth) needs the authorization_code grant',
    })
  }
  // IG STU2 §2.2 and §6: `udap` is listed exactly when Tiered OAuth is supported; an IdP lists
  // `openid` and `udap`.
  const defaultScopes = [
    ...(grants.includes('client_credentials') ? systemScopes : []),
    ...(grants.includes('authorization_code') ? userScopes : []),
    ...(identityProvider ? identityProviderScopes : []),
    ...(tieredOAuth !== undefined ? ['udap'] : []),
  ]
  const defaultCommunity =
    nonEmptyText(options.defaultCommunity, 'defaultCommunity') ?? defaultCommunityUri
  const communities = stringList(options.communities, 'communities') ?? []
  if (communities.includes(defaultCommunity)) {
    throw new ConfigurationError({
      invalidAttribute: 'communities',
      invalidValue: defaultCommunity,
      message: 'communities must not repeat the default community',
    })
  }
  checkHostileVariant(options.hostile, grants)
  const extensionsPolicy = options.extensionsWithAuthorizationCode ?? 'refuse'
  if (extensionsPolicy !== 'refuse' && extensionsPolicy !== 'ignore') {
    throw new ConfigurationError({
      invalidAttribute: 'extensionsWithAuthorizationCode',
      invalidValue: extensionsPolicy,
      validValues: ['refuse', 'ignore'],
    })
  }
  const responseIss = options.authorizationResponseIss
  if (responseIss !== undefined && responseIss !== 'signed' && responseIss !== 'unsigned') {
    throw new ConfigurationError({
      invalidAttribute: 'authorizationResponseIss',
      invalidValue: responseIss,
      validValues: ['signed', 'unsigned'],
    })
  }
  return {
    grantTypes: grants,
    scopesSupported: nonEmpty(
      stringList(options.scopesSupported, 'scopesSupported'),
      'scopesSupported',
    ) ?? [...new Set(defaultScopes)],
    requiredExtensions: stringList(
      options.requiredAuthorizationExtensions,
      'requiredAuthorizationExtensions',
    ) ?? ['hl7-b2b'],
    tokenSigningAlgorithms:
      nonEmpty(
        subsetOf(options.tokenSigningAlgorithms, signingAlgorithms, 'tokenSigningAlgorithms'),
        'tokenSigningAlgorithms',
      ) ?? signingAlgorithms,
    registrationSigningAlgorithms:
      nonEmpty(
        subsetOf(
          options.registrationSigningAlgorithms,
          signingAlgorithms,
          'registrationSigningAlgorithms',
        ),
        'registrationSigningAlgorithms',
      ) ?? signingAlgorithms,
    defaultCommunity,
    communities,
    allowUnregisteredClients: options.allowUnregisteredClients === true,
    crlDistributionPoints: options.crlDistributionPoints === true,
    hostile: options.hostile,
    extraAnchorsDer: readTrustInput(options.clientTrust, 'clientTrust').anchorsDer,
    extraCrlsDer: readTrustInput(options.clientTrust, 'clientTrust').crlsDer,
    serverKeyPair: options.serverKeyPair,
    publicOrigin: readOrigin(options.publicOrigin),
    accessTokenLifetimeSeconds:
      positiveInteger(options.accessTokenLifetimeSeconds, 'accessTokenLifetimeSeconds') ?? 300,
    clockToleranceSeconds:
      nonNegativeInteger(options.clockToleranceSeconds, 'clockToleranceSeconds') ?? 5,
    now: readClock(options.now),
    requestLogLimit: nonNegativeInteger(options.requestLogLimit, 'requestLogLimit') ?? 10_000,
    user: options.user === undefined ? defaultSandboxUser : readSandboxUser(options.user, 'user'),
    identityProvider,
    tieredOAuth,
    extensionsWithAuthorizationCode: extensionsPolicy,
    signedMetadataLifetimeSeconds:
      positiveInteger(options.signedMetadataLifetimeSeconds, 'signedMetadataLifetimeSeconds') ??
      defaultSignedMetadataLifetimeSeconds,
    authorizationResponseIss: responseIss,
    newClientIdOnModification: options.newClientIdOnModification === true,
  }
}

/**
 * Checks a hostile variant for this server.
 *
 * @throws {ConfigurationError} `invalidAttribute: 'hostile'` for an unknown variant, or
 *   `unsigned-authorization-endpoint` on a server without `authorization_code`.
 */
export function checkHostileVariant(
  variant: unknown,
  grants: readonly UdapGrantType[],
): asserts variant is HostileVariant | undefined {
  if (variant !== undefined && !isHostileVariant(variant)) {
    throw new ConfigurationError({
      invalidAttribute: 'hostile',
      invalidValue: variant,
      validValues: hostileVariants,
    })
  }
  if (variant === 'unsigned-authorization-endpoint' && !grants.includes('authorization_code')) {
    throw new ConfigurationError({
      invalidAttribute: 'hostile',
      invalidValue: variant,
      message: 'unsigned-authorization-endpoint needs the authorization_code grant',
    })
  }
}

/** The DER of trust inputs given as PEM/DER (`UdapClientTrust`) or `PkiObject`s (`UdapTrust`). */
export function readTrustInput(
  trust: { readonly anchors: readonly unknown[]; readonly crls: readonly unknown[] } | undefined,
  attribute: string,
): { anchorsDer: Uint8Array[]; crlsDer: Uint8Array[] } {
  if (trust === undefined) return { anchorsDer: [], crlsDer: [] }
  if (
    typeof trust !== 'object' ||
    trust === null ||
    !Array.isArray(trust.anchors) ||
    !Array.isArray(trust.crls)
  ) {
    throw new ConfigurationError({
      invalidAttribute: attribute,
      invalidValue: trust,
      message: `${attribute} must be { anchors, crls } (PEM text, DER bytes or { pem, der })`,
    })
  }
  const read = (entry: unknown, name: string) =>
    readPkiInput(isPkiObject(entry) ? entry.der : (entry as string | Uint8Array), name)
  return {
    anchorsDer: trust.anchors.flatMap((entry) => read(entry, `${attribute}.anchors`)),
    crlsDer: trust.crls.flatMap((entry) => read(entry, `${attribute}.crls`)),
  }
}

function isPkiObject(value: unknown): value is PkiObject {
  return (
    typeof value === 'object' && value !== null && (value as PkiObject).der instanceof Uint8Array
  )
}

function readTieredOAuth(value: unknown): UdapSettings['tieredOAuth'] {
  if (value === undefined || value === false) return undefined
  const options = (value === true ? {} : value) as {
    identityProviderTrust?: UdapClientTrust
    mapUser?: unknown
  }
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError({
      invalidAttribute: 'tieredOAuth',
      invalidValue: value,
      message: 'tieredOAuth must be true or { identityProviderTrust?, mapUser? }',
    })
  }
  if (options.mapUser !== undefined && typeof options.mapUser !== 'function') {
    throw new ConfigurationError({
      invalidAttribute: 'tieredOAuth.mapUser',
      invalidValue: options.mapUser,
      message: 'tieredOAuth.mapUser must be a function',
    })
  }
  const trust = readTrustInput(options.identityProviderTrust, 'tieredOAuth.identityProviderTrust')
  return {
    identityProviderAnchorsDer: trust.anchorsDer,
    identityProviderCrlsDer: trust.crlsDer,
    mapUser: options.mapUser as
      | ((identity: TieredIdentity) => UdapSandboxUser | undefined)
      | undefined,
  }
}

function readOrigin(value: unknown): string | undefined {
  if (value === undefined) return undefined
  const parsed = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined
  if (
    parsed === undefined ||
    !['http:', 'https:'].includes(parsed.protocol) ||
    parsed.href !== `${parsed.origin}/`
  ) {
    throw new ConfigurationError({
      invalidAttribute: 'publicOrigin',
      invalidValue: value,
      message: 'publicOrigin must be an http(s) origin without path, query or fragment',
    })
  }
  return parsed.origin
}

function readClock(value: unknown): () => Date {
  if (value === undefined) return () => new Date()
  if (typeof value !== 'function') {
    throw new ConfigurationError({
      invalidAttribute: 'now',
      invalidValue: value,
      message: 'now must be a function returning a Date',
    })
  }
  return () => {
    const result: unknown = value()
    if (!(result instanceof Date) || Number.isNaN(result.getTime())) {
      throw new ConfigurationError({
        invalidAttribute: 'now',
        invalidValue: result,
        message: 'now() must return a valid Date',
      })
    }
    return result
  }
}

function subsetOf<T extends string>(
  value: unknown,
  allowed: readonly T[],
  attribute: string,
): T[] | undefined {
  const list = stringList(value, attribute)
  if (list === undefined) return undefined
  const unknown = list.find((entry) => !(allowed as readonly string[]).includes(entry))
  if (unknown !== undefined) {
    throw new ConfigurationError({
      invalidAttribute: attribute,
      invalidValue: unknown,
      validValues: allowed,
    })
  }
  return list as T[]
}

function stringList(value: unknown, attribute: string): string[] | undefined {
  if (value === undefined) return undefined
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string' && entry !== '')) {
    throw new ConfigurationError({
      invalidAttribute: attribute,
      invalidValue: value,
      message: `${attribute} must be an array of non-empty strings`,
    })
  }
  return [...new Set(value as string[])]
}

function nonEmpty<T>(list: T[] | undefined, attribute: string): T[] | undefined {
  if (list !== undefined && list.length === 0) {
    throw new ConfigurationError({
      invalidAttribute: attribute,
      invalidValue: list,
      message: `${attribute} must not be empty`,
    })
  }
  return list
}
