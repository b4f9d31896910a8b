import type { KeyObject } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ConfigurationError } from '@fhir-auth/core'
import { generateTestKeyPair } from '@fhir-auth/test-pki/issuer'
import { runAuthorization } from '../http/headless-user-agent.js'
import { startLoopbackServer } from '../http/loopback-server.js'
import { receiveRequest } from '../http/read-body.js'
import { RequestLog } from '../http/recorded-request.js'
import { sendJson } from '../http/responses.js'
import { AuthorizationCodes } from './authorization-codes.js'
import type { AuthorizationEndpointContext } from './authorization-endpoint.js'
import { CachedPathValidator } from './cached-path-validator.js'
import { ExtensibleTrustStore } from './client-trust-store.js'
import { CommunityPki } from './community-pki.js'
import type { DiscoveryContext } from './discovery-endpoint.js'
import { createHostileCertificates, hostileUrls } from './hostile-certificates.js'
import type { HostileVariant } from './hostile-variants.js'
import { IdTokenSigner } from './id-token-signer.js'
import { JtiReplayGuard } from './jti-replay-guard.js'
import { buildOpenIdConfiguration } from './openid-configuration.js'
import type { UdapSandbox, UdapSandboxOptions } from './options.js'
import { toPkiObject } from './pki-object.js'
import type {
  AuthenticationTokenRecord,
  AuthorizationRequestRecord,
  TieredLoginRecord,
} from './records.js'
import type { RegistrationEndpointContext } from './registration-endpoint.js'
import { RegistrationStore } from './registration-store.js'
import { readSandboxUser } from './sandbox-user.js'
import { isLoopbackUrl } from './tiered/outbound-fetch.js'
import { TieredLogins } from './tiered/tiered-login.js'
import type { TokenEndpointContext } from './token-endpoint.js'
import { TokenStore } from './token-store.js'
import type { AdvertisedCapabilities, AdvertisedEndpoints } from './udap-metadata.js'
import {
  type RouteCounter,
  routeUdapRequest,
  sandboxEndpoints,
  udapSandboxPaths,
} from './udap-routes.js'
import { checkHostileVariant, readTrustInput, readUdapSettings } from './udap-settings.js'

export { udapSandboxPaths } from './udap-routes.js'

/**
 * Starts a strict UDAP Security STU2 authorization server on `127.0.0.1` (random port):
 * discovery with RS256 `signed_metadata`, dynamic client registration with software statements
 * (register, modify, cancel), `client_credentials` tokens with UDAP authentication tokens and
 * `hl7-b2b`, and — with `authorization_code` among `grantTypes` — an authorization endpoint,
 * code and refresh grants, ID tokens, and Tiered OAuth as IdP (`identityProvider`) or as data
 * holder (`tieredOAuth`). Signatures are verified with jose and certificate chains with pkijs
 * plus a fail-closed CRL policy, independently of fhir-auth's own crypto code.
 *
 * At start-up it creates, per community, a P-384 root and intermediate and an RSA 2048 server
 * certificate whose SAN URI is the FHIR base URL (which contains the random port), plus the
 * certificates of the hostile variants.
 *
 * @example
 * ```ts
 * const sandbox = await startUdapSandbox()
 * const client = await sandbox.certificateAuthority.issue({ commonName: 'app', sanUris: ['https://client.example.test/app'] })
 * // discovery: sandbox.fhirBaseUrl, trust: sandbox.trust.anchors / sandbox.trust.crls
 * await sandbox.close()
 * ```
 * @throws {ConfigurationError} an option has the wrong type or value (`invalidAttribute`
 *   names it).
 * @see https://hl7.org/fhir/us/udap-security/STU2/
 */
export async function startUdapSandbox(options: UdapSandboxOptions = {}): Promise<UdapSandbox> {
  const settings = readUdapSettings(options)
  // The port (and so the base URL in the server certificate) is known only once the server
  // listens; requests that arrive before the PKI is ready get 503.
  let handle = (_request: IncomingMessage, response: ServerResponse): void => {
    response.writeHead(503).end()
  }
  const server = await startLoopbackServer((request, response) => handle(request, response))
  try {
    const serverKeyPair = settings.serverKeyPair ?? (await generateTestKeyPair('rsa2048'))
    const publicOrigin = settings.publicOrigin ?? server.origin
    const fhirBaseUrl = `${publicOrigin}/fhir`
    const codeFlow = settings.grantTypes.includes('authorization_code')
    const endpoints = sandboxEndpoints(publicOrigin, {
      codeFlow,
      tieredOAuth: settings.tieredOAuth !== undefined,
    })
    const advertised: AdvertisedEndpoints = {
      token: endpoints.token,
      registration: endpoints.registration,
      ...(endpoints.authorization === undefined ? {} : { authorization: endpoints.authorization }),
    }
    const capabilities: AdvertisedCapabilities = {
      grantTypes: settings.grantTypes,
      scopesSupported: settings.scopesSupported,
      requiredExtensions: settings.requiredExtensions,
      tokenSigningAlgorithms: settings.tokenSigningAlgorithms,
      registrationSigningAlgorithms: settings.registrationSigningAlgorithms,
      tieredOAuth: settings.identityProvider || settings.tieredOAuth !== undefined,
    }

    const communityPkis = await Promise.all(
      [settings.defaultCommunity, ...settings.communities].map((community, index) =>
        CommunityPki.create({
          community,
          fhirBaseUrl,
          serverKeyPair,
          now: settings.now,
          crlBaseUrl: settings.crlDistributionPoints
            ? `${publicOrigin}${udapSandboxPaths.crls}/${index}`
            : undefined,
        }),
      ),
    )
    const communities = new Map(communityPkis.map((pki) => [pki.community, pki]))
    const defaultPki = communityPkis[0] as CommunityPki
    const hostileCertificates = await createHostileCertificates({
      pki: defaultPki,
      fhirBaseUrl,
      serverKeyPair,
      now: settings.now,
    })
    const idTokenSigner = await IdTokenSigner.create(
      serverKeyPair.privateKey,
      defaultPki.server.chainDer,
    )
    let foreignKey: Promise<KeyObject> | undefined
    const clientTrust = new ExtensibleTrustStore(
      () => ({
        anchorsDer: communityPkis.map((pki) => pki.root.certificateDer),
        crlsDer: communityPkis.flatMap((pki) => pki.currentCrls()),
      }),
      { anchorsDer: settings.extraAnchorsDer, crlsDer: settings.extraCrlsDer },
      'clientTrust',
    )
    const trust = clientTrust.store
    const identityProviderTrust = new ExtensibleTrustStore(
      () => ({ anchorsDer: [], crlsDer: [] }),
      {
        anchorsDer: settings.tieredOAuth?.identityProviderAnchorsDer ?? [],
        crlsDer: settings.tieredOAuth?.identityProviderCrlsDer ?? [],
      },
      'tieredOAuth.identityProviderTrust',
    )
    const pathValidator = new CachedPathValidator()

    const registrations = new RegistrationStore({
      newClientIdOnModification: settings.newClientIdOnModification,
    })
    const tokens = new TokenStore(settings.now)
    const codes = new AuthorizationCodes(settings.now)
    const requestLog = new RequestLog(settings.requestLogLimit)
    const authorizationRequests = new RequestLog<AuthorizationRequestRecord>(
      settings.requestLogLimit,
    )
    const authenticationTokens = new RequestLog<AuthenticationTokenRecord>(settings.requestLogLimit)
    const tieredLoginRecords = new RequestLog<TieredLoginRecord>(settings.requestLogLimit)
    const counts: Record<RouteCounter, number> = {
      discovery: 0,
      registration: 0,
      token: 0,
      authorization: 0,
      resource: 0,
      other: 0,
    }
    let hostile = settings.hostile

    const discovery: DiscoveryContext = {
      fhirBaseUrl,
      capabilities,
      endpoints: advertised,
      plainHttpEndpoints: plainHttpEndpoints(advertised),
      unsignedAuthorizationEndpoint: `${publicOrigin}${udapSandboxPaths.unsignedAuthorization}`,
      defaultCommunity: defaultPki,
      communities,
      hostileCertificates,
      otherUrl: hostileUrls(fhirBaseUrl).otherUrl,
      hostile: () => hostile,
      foreignKey: () => {
        foreignKey ??= generateTestKeyPair('rsa2048').then((pair) => pair.privateKey)
        return foreignKey
      },
      now: settings.now,
      signedMetadataLifetimeSeconds: settings.signedMetadataLifetimeSeconds,
      authorizationResponseIss: settings.authorizationResponseIss,
    }
    const registration: RegistrationEndpointContext = {
      registrationUrl: endpoints.registration,
      algorithms: settings.registrationSigningAlgorithms,
      capabilities: { grantTypes: settings.grantTypes, scopes: settings.scopesSupported },
      trust,
      pathValidator,
      registrations,
      replayGuard: new JtiReplayGuard(),
      now: settings.now,
      toleranceSeconds: settings.clockToleranceSeconds,
    }
    const token: TokenEndpointContext = {
      tokenUrl: endpoints.token,
      algorithms: settings.tokenSigningAlgorithms,
      grantTypes: settings.grantTypes,
      requiredExtensions: settings.requiredExtensions,
      scopesSupported: settings.scopesSupported,
      allowUnregisteredClients: settings.allowUnregisteredClients,
      extensionsPolicy: settings.extensionsWithAuthorizationCode,
      accessTokenLifetimeSeconds: settings.accessTokenLifetimeSeconds,
      trust,
      pathValidator,
      registrations,
      replayGuard: new JtiReplayGuard(),
      codes,
      tokens,
      issuer: fhirBaseUrl,
      fhirBaseUrl,
      identityProvider: settings.identityProvider,
      now: settings.now,
      toleranceSeconds: settings.clockToleranceSeconds,
      signIdToken: (claims) => idTokenSigner.sign(claims),
      falsifyIdToken: () =>
        hostile === 'id-token-wrong-nonce'
          ? 'nonce'
          : hostile === 'id-token-wrong-aud'
            ? 'aud'
            : undefined,
      record: (entry) => authenticationTokens.add(entry),
    }
    const tieredOAuth = settings.tieredOAuth
    const tieredLogins =
      tieredOAuth === undefined || endpoints.identityProviderCallback === undefined
        ? undefined
        : new TieredLogins({
            identity: {
              clientUri: fhirBaseUrl,
              material: defaultPki.server,
              redirectUri: endpoints.identityProviderCallback,
              now: settings.now,
            },
            trust: identityProviderTrust.store,
            pathValidator,
            now: settings.now,
            toleranceSeconds: settings.clockToleranceSeconds,
            mapUser: (identity) => {
              const mapped = (tieredOAuth.mapUser ?? (() => settings.user))(identity)
              return mapped === undefined
                ? undefined
                : readSandboxUser(mapped, 'tieredOAuth.mapUser')
            },
            record: (entry) => tieredLoginRecords.add(entry),
          })
    const authorization: AuthorizationEndpointContext | undefined = codeFlow
      ? {
          registrations,
          codes,
          user: settings.user,
          now: settings.now,
          hostile: () => hostile,
          responseIssuer: settings.authorizationResponseIss === undefined ? undefined : fhirBaseUrl,
          record: (entry) => authorizationRequests.add(entry),
          startTieredLogin:
            tieredLogins === undefined ? undefined : (request) => tieredLogins.start(request),
        }
      : undefined
    const routes = {
      discovery,
      registration,
      token,
      authorization,
      openidConfiguration:
        endpoints.authorization === undefined || endpoints.jwks === undefined
          ? undefined
          : buildOpenIdConfiguration({
              issuer: fhirBaseUrl,
              authorizationEndpoint: endpoints.authorization,
              tokenEndpoint: endpoints.token,
              registrationEndpoint: endpoints.registration,
              jwksUri: endpoints.jwks,
              scopesSupported: settings.scopesSupported,
              grantTypes: settings.grantTypes,
              tokenSigningAlgorithms: settings.tokenSigningAlgorithms,
            }),
      jwks: idTokenSigner.jwks,
      tieredLogins,
      tokens,
      count: (counter: RouteCounter) => {
        counts[counter] += 1
      },
      currentCrl: (community: number, authority: 'root' | 'intermediate') => {
        const pki = settings.crlDistributionPoints ? communityPkis[community] : undefined
        const publisher = authority === 'root' ? pki?.rootCrls : pki?.intermediateCrls
        return publisher?.current().crlDer
      },
    }

    handle = (request, response) => {
      void receiveRequest(request, response, server.origin, requestLog)
        .then((received) =>
          received === undefined
            ? undefined
            : routeUdapRequest(request, response, received.url, received.body, routes),
        )
        .catch((error: unknown) => {
          console.error('UDAP sandbox: request failed', error)
          if (!response.headersSent) {
            sendJson(response, 500, {
              error: 'server_error',
              error_description: 'the UDAP sandbox failed',
            })
          } else {
            response.destroy()
          }
        })
    }

    const aliases = publicOrigin === server.origin ? [] : [publicOrigin]
    let closing: Promise<void> | undefined
    return {
      origin: server.origin,
      publicOrigin,
      fhirBaseUrl,
      issuer: fhirBaseUrl,
      endpoints,
      community: settings.defaultCommunity,
      get trust() {
        return defaultPki.trust()
      },
      communityTrust: (community: string) => {
        const pki = communities.get(community)
        if (pki === undefined) {
          throw new ConfigurationError({
            invalidAttribute: 'community',
            invalidValue: community,
            validValues: [...communities.keys()],
          })
        }
        return pki.trust()
      },
      certificateAuthority: defaultPki.intermediate,
      revokeCertificate: (serialNumber: string) => defaultPki.intermediateCrls.revoke(serialNumber),
      serverCertificate: toPkiObject(defaultPki.server.certificate.certificateDer, 'CERTIFICATE'),
      get requests() {
        return requestLog.entries()
      },
      get requestCounts() {
        return { ...counts }
      },
      clearRequests: () => {
        requestLog.clear()
        authorizationRequests.clear()
        authenticationTokens.clear()
        tieredLoginRecords.clear()
        for (const name of Object.keys(counts) as RouteCounter[]) counts[name] = 0
      },
      get registrations() {
        return registrations.snapshot()
      },
      get accessTokens() {
        return tokens.snapshot()
      },
      get hostile() {
        return hostile
      },
      setHostile: (variant: HostileVariant | undefined) => {
        checkHostileVariant(variant, settings.grantTypes)
        hostile = variant
      },
      authorize: (request, authorizeOptions) =>
        runAuthorization(
          {
            origin: server.origin,
            aliases,
            mayFollow: (url) => isLoopbackUrl(url) || aliases.includes(url.origin),
            registeredRedirectUri: (clientId) => {
              const uris =
                clientId === undefined
                  ? undefined
                  : registrations.byClientId(clientId)?.metadata.redirect_uris
              return uris?.length === 1 ? uris[0] : undefined
            },
          },
          request,
          authorizeOptions,
        ),
      get authorizationRequests() {
        return authorizationRequests.entries()
      },
      get authenticationTokens() {
        return authenticationTokens.entries()
      },
      get tieredLogins() {
        return tieredLoginRecords.entries()
      },
      get identityProviderClients() {
        return tieredLogins?.clients ?? new Map<string, string>()
      },
      jwks: idTokenSigner.jwks,
      trustClients: (input) => clientTrust.add(readTrustInput(input, 'trust')),
      trustIdentityProviders: (input) => identityProviderTrust.add(readTrustInput(input, 'trust')),
      close: () => {
        closing ??= server.close()
        return closing
      },
    }
  } catch (error) {
    await server.close()
    throw error
  }
}

/**
 * The endpoints of the `http-endpoints` variant: `https:` URLs become `http:`; loopback
 * `http:` URLs (already plain) move to a non-loopback host, so that they break the rule
 * "HTTPS unless loopback" in exactly one way.
 */
function plainHttpEndpoints(endpoints: AdvertisedEndpoints): AdvertisedEndpoints {
  const downgrade = (value: string): string => {
    const url = new URL(value)
    if (url.protocol === 'https:') url.protocol = 'http:'
    else url.hostname = 'udap-sandbox.example.test'
    return url.href
  }
  return {
    token: downgrade(endpoints.token),
    registration: downgrade(endpoints.registration),
    ...(endpoints.authorization === undefined
      ? {}
      : { authorization: downgrade(endpoints.authorization) }),
  }
}
