import { generateTestKeyPair } from '@fhir-auth/test-pki/issuer'
import type { UdapSandbox, UdapSandboxOptions } from './options.js'
import { startUdapSandbox } from './start-udap-sandbox.js'

/** Options of {@link startTieredOAuthSandboxes}: extra options for each of the two servers. */
export interface TieredOAuthSandboxesOptions {
  /**
   * Options of the data holder (default: `grantTypes` authorization_code + refresh_token and
   * client_credentials, `tieredOAuth: true`, community `udap://fhir-auth.sandbox/data-holder`).
   */
  readonly dataHolder?: UdapSandboxOptions
  /**
   * Options of the IdP (default: `identityProvider: true`, community
   * `udap://fhir-auth.sandbox/identity-provider`).
   */
  readonly identityProvider?: UdapSandboxOptions
}

/** A data holder and an IdP that trust each other, on loopback. */
export interface TieredOAuthSandboxes {
  /** The FHIR server's authorization server: apps register and authorize here. */
  readonly dataHolder: UdapSandbox
  /** The OpenID Connect IdP (`idp` = `identityProvider.issuer`). */
  readonly identityProvider: UdapSandbox
  /** Closes both. Idempotent. */
  close(): Promise<void>
}

/** Community URI of the data holder started by {@link startTieredOAuthSandboxes}. */
export const dataHolderCommunityUri = 'udap://fhir-auth.sandbox/data-holder'
/** Community URI of the IdP started by {@link startTieredOAuthSandboxes}. */
export const identityProviderCommunityUri = 'udap://fhir-auth.sandbox/identity-provider'

/**
 * Starts the two servers of Tiered OAuth (IG STU2 §6) on loopback, each with its own PKI
 * (community root, intermediate, server certificate) and signed metadata, and makes them
 * trust each other: the data holder trusts the IdP's community for IdP metadata, the IdP
 * trusts the data holder's community for its registration and authentication tokens (the data
 * holder's client certificate is its server certificate, client URI = its `fhirBaseUrl`).
 * They share one RSA key (start-up speed), never a certificate.
 *
 * @example
 * ```ts
 * const { dataHolder, identityProvider, close } = await startTieredOAuthSandboxes()
 * // app: register at dataHolder with scope 'openid udap user/*.rs', then authorize with
 * //   scope 'udap …' and idp = identityProvider.issuer
 * const result = await dataHolder.authorize({ url: authUrl }) // follows both servers
 * await close()
 * ```
 * @throws {ConfigurationError} a wrong option of either server.
 * @see https://hl7.org/fhir/us/udap-security/STU2/user.html
 */
export async function startTieredOAuthSandboxes(
  options: TieredOAuthSandboxesOptions = {},
): Promise<TieredOAuthSandboxes> {
  const serverKeyPair =
    options.dataHolder?.serverKeyPair ??
    options.identityProvider?.serverKeyPair ??
    (await generateTestKeyPair('rsa2048'))
  const identityProvider = await startUdapSandbox({
    identityProvider: true,
    defaultCommunity: identityProviderCommunityUri,
    serverKeyPair,
    ...options.identityProvider,
  })
  try {
    const dataHolder = await startUdapSandbox({
      grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
      tieredOAuth: true,
      defaultCommunity: dataHolderCommunityUri,
      serverKeyPair,
      ...options.dataHolder,
    })
    dataHolder.trustIdentityProviders(identityProvider.trust)
    identityProvider.trustClients(dataHolder.trust)
    let closing: Promise<void> | undefined
    return {
      dataHolder,
      identityProvider,
      close: () => {
        closing ??= Promise.all([dataHolder.close(), identityProvider.close()]).then(
          () => undefined,
        )
        return closing
      },
    }
  } catch (error) {
    await identityProvider.close()
    throw error
  }
}
