import { ConfigurationError } from '@fhir-auth/core'
import type { TestKeyPair } from '@fhir-auth/test-pki/issuer'
import { nonEmptyText, nonNegativeInteger, positiveInteger } from '../option-checks.js'
import {
  type HostileDiscoveryVariant,
  hostileDiscoveryVariants,
  isHostileDiscoveryVariant,
} from './hostile-variants.js'
import type { UdapGrantType, UdapSandboxOptions, UdapSigningAlgorithm } from './options.js'
import { readPkiInput } from './pki-object.js'

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
  readonly hostile: HostileDiscoveryVariant | undefined
  readonly extraAnchorsDer: readonly Uint8Array[]
  readonly extraCrlsDer: readonly Uint8Array[]
  readonly serverKeyPair: TestKeyPair | undefined
  readonly publicOrigin: string | undefined
  readonly accessTokenLifetimeSeconds: number
  readonly clockToleranceSeconds: number
  readonly now: () => Date
  readonly requestLogLimit: number
}

const signingAlgorithms: readonly UdapSigningAlgorithm[] = ['RS256', 'RS384', 'ES256', 'ES384']
const grantTypes: readonly UdapGrantType[] = [
  'client_credentials',
  'authorization_code',
  'refresh_token',
]
const systemScopes = ['system/*.rs', 'system/*.read']
const userScopes = [
  'user/*.rs',
  'user/*.read',
  'patient/*.rs',
  'patient/*.read',
  'openid',
  'fhirUser',
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
  const grants = subsetOf(options.grantTypes, grantTypes, 'grantTypes') ?? ['client_credentials']
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
  const defaultScopes = [
    ...(grants.includes('client_credentials') ? systemScopes : []),
    ...(grants.includes('authorization_code') ? userScopes : []),
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
  if (options.hostile !== undefined && !isHostileDiscoveryVariant(options.hostile)) {
    throw new ConfigurationError({
      invalidAttribute: 'hostile',
      invalidValue: options.hostile,
      validValues: hostileDiscoveryVariants,
    })
  }
  return {
    grantTypes: grants,
    scopesSupported:
      nonEmpty(stringList(options.scopesSupported, 'scopesSupported'), 'scopesSupported') ??
      defaultScopes,
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
    hostile: options.hostile,
    extraAnchorsDer: (options.clientTrust?.anchors ?? []).flatMap((entry) =>
      readPkiInput(entry, 'clientTrust.anchors'),
    ),
    extraCrlsDer: (options.clientTrust?.crls ?? []).flatMap((entry) =>
      readPkiInput(entry, 'clientTrust.crls'),
    ),
    serverKeyPair: options.serverKeyPair,
    publicOrigin: readOrigin(options.publicOrigin),
    accessTokenLifetimeSeconds:
      positiveInteger(options.accessTokenLifetimeSeconds, 'accessTokenLifetimeSeconds') ?? 300,
    clockToleranceSeconds:
      nonNegativeInteger(options.clockToleranceSeconds, 'clockToleranceSeconds') ?? 5,
    now: readClock(options.now),
    requestLogLimit: nonNegativeInteger(options.requestLogLimit, 'requestLogLimit') ?? 10_000,
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
