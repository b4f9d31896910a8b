import type { KeyObject } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ConfigurationError } from '@fhir-auth/core'
import { generateTestKeyPair } from '@fhir-auth/test-pki/issuer'
import { startLoopbackServer } from '../http/loopback-server.js'
import { receiveRequest } from '../http/read-body.js'
import { RequestLog } from '../http/recorded-request.js'
import { sendJson } from '../http/responses.js'
import { CachedPathValidator } from './cached-path-validator.js'
import { ClientTrustStore } from './client-trust-store.js'
import { CommunityPki } from './community-pki.js'
import { type DiscoveryContext, processDiscovery } from './discovery-endpoint.js'
import { createHostileCertificates, hostileUrls } from './hostile-certificates.js'
import {
  type HostileDiscoveryVariant,
  hostileDiscoveryVariants,
  isHostileDiscoveryVariant,
} from './hostile-variants.js'
import { JtiReplayGuard } from './jti-replay-guard.js'
import { sendOAuthError } from './oauth-rejection.js'
import type {
  IssuedAccessToken,
  UdapSandbox,
  UdapSandboxEndpoints,
  UdapSandboxOptions,
} from './options.js'
import { toPkiObject } from './pki-object.js'
import { processRegistration, type RegistrationEndpointContext } from './registration-endpoint.js'
import { RegistrationStore } from './registration-store.js'
import { processTokenRequest, type TokenEndpointContext } from './token-endpoint.js'
import type { AdvertisedCapabilities, AdvertisedEndpoints } from './udap-metadata.js'
import { readUdapSettings } from './udap-settings.js'

/** Paths the sandbox serves (relative to the origin). */
export const udapSandboxPaths = {
  discovery: '/fhir/.well-known/udap',
  registration: '/register',
  token: '/token',
  authorization: '/authorize',
} as const

type RouteName = 'discovery' | 'registration' | 'token' | 'other'

/**
 * Starts a strict UDAP Security STU2 authorization server on `127.0.0.1` (random port):
 * discovery with RS256 `signed_metadata`, dynamic client registration with software statements
 * (register, modify, cancel) and `client_credentials` tokens with UDAP authentication tokens
 * and `hl7-b2b`. Signatures are verified with jose and certificate chains with pkijs plus a
 * fail-closed CRL policy, independently of fhir-auth's own crypto code.
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
    const endpoints: UdapSandboxEndpoints = {
      discovery: `${publicOrigin}${udapSandboxPaths.discovery}`,
      registration: `${publicOrigin}${udapSandboxPaths.registration}`,
      token: `${publicOrigin}${udapSandboxPaths.token}`,
      ...(settings.grantTypes.includes('authorization_code')
        ? { authorization: `${publicOrigin}${udapSandboxPaths.authorization}` }
        : {}),
    }
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
    }

    const communityPkis = await Promise.all(
      [settings.defaultCommunity, ...settings.communities].map((community) =>
        CommunityPki.create({ community, fhirBaseUrl, serverKeyPair, now: settings.now }),
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
    let foreignKey: Promise<KeyObject> | undefined
    const trust = new ClientTrustStore(() => ({
      anchorsDer: [
        ...communityPkis.map((pki) => pki.root.certificateDer),
        ...settings.extraAnchorsDer,
      ],
      crlsDer: [...communityPkis.flatMap((pki) => pki.currentCrls()), ...settings.extraCrlsDer],
    }))
    trust.current()
    const pathValidator = new CachedPathValidator()

    const registrations = new RegistrationStore()
    const registrationReplayGuard = new JtiReplayGuard()
    const tokenReplayGuard = new JtiReplayGuard()
    const accessTokens: IssuedAccessToken[] = []
    const requestLog = new RequestLog(settings.requestLogLimit)
    const counts = { discovery: 0, registration: 0, token: 0, other: 0 }
    let hostile = settings.hostile

    // Built once: every request of a route reads the same context.
    const discoveryContext: DiscoveryContext = {
      fhirBaseUrl,
      capabilities,
      endpoints: advertised,
      plainHttpEndpoints: plainHttpEndpoints(advertised),
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
    }
    const registrationContext: RegistrationEndpointContext = {
      registrationUrl: endpoints.registration,
      algorithms: settings.registrationSigningAlgorithms,
      capabilities: { grantTypes: settings.grantTypes, scopes: settings.scopesSupported },
      trust,
      pathValidator,
      registrations,
      replayGuard: registrationReplayGuard,
      now: settings.now,
      toleranceSeconds: settings.clockToleranceSeconds,
    }
    const tokenContext: TokenEndpointContext = {
      tokenUrl: endpoints.token,
      algorithms: settings.tokenSigningAlgorithms,
      requiredExtensions: settings.requiredExtensions,
      scopesSupported: settings.scopesSupported,
      allowUnregisteredClients: settings.allowUnregisteredClients,
      accessTokenLifetimeSeconds: settings.accessTokenLifetimeSeconds,
      trust,
      pathValidator,
      registrations,
      replayGuard: tokenReplayGuard,
      now: settings.now,
      toleranceSeconds: settings.clockToleranceSeconds,
      recordToken: (token) => accessTokens.push(token),
    }

    const route = async (
      request: IncomingMessage,
      response: ServerResponse,
      url: URL,
      body: Buffer,
    ) => {
      const routeName = routeOf(url.pathname)
      counts[routeName] += 1
      const contentType = request.headers['content-type']
      switch (routeName) {
        case 'discovery': {
          if (request.method !== 'GET') return methodNotAllowed(response, 'GET')
          const answer = await processDiscovery(url.searchParams, discoveryContext)
          if (answer.status === 204) return void response.writeHead(204).end()
          return sendJson(response, 200, answer.body, { 'cache-control': 'no-store' })
        }
        case 'registration': {
          if (request.method !== 'POST') return methodNotAllowed(response, 'POST')
          const answer = await processRegistration(
            { contentType, body: body.toString('utf8') },
            registrationContext,
          )
          if ('error' in answer) return sendOAuthError(response, answer)
          return sendJson(response, answer.status, answer.body, {
            'cache-control': 'no-store',
            pragma: 'no-cache',
          })
        }
        case 'token': {
          if (request.method !== 'POST') return methodNotAllowed(response, 'POST')
          const answer = await processTokenRequest(
            {
              authorization: request.headers.authorization,
              contentType,
              body: body.toString('utf8'),
            },
            tokenContext,
          )
          if ('error' in answer) return sendOAuthError(response, answer)
          return sendJson(response, 200, answer.body, {
            'cache-control': 'no-store',
            pragma: 'no-cache',
          })
        }
        case 'other':
          return sendJson(response, 404, {
            error: 'not_found',
            error_description: `no route for ${url.pathname}`,
          })
      }
    }

    handle = (request, response) => {
      void receiveRequest(request, response, server.origin, requestLog)
        .then((received) =>
          received === undefined
            ? undefined
            : route(request, response, received.url, received.body),
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

    let closing: Promise<void> | undefined
    return {
      origin: server.origin,
      publicOrigin,
      fhirBaseUrl,
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
        for (const name of Object.keys(counts) as RouteName[]) counts[name] = 0
      },
      get registrations() {
        return registrations.snapshot()
      },
      get accessTokens() {
        return [...accessTokens]
      },
      get hostile() {
        return hostile
      },
      setHostile: (variant: HostileDiscoveryVariant | undefined) => {
        if (variant !== undefined && !isHostileDiscoveryVariant(variant)) {
          throw new ConfigurationError({
            invalidAttribute: 'hostile',
            invalidValue: variant,
            validValues: hostileDiscoveryVariants,
          })
        }
        hostile = variant
      },
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

function routeOf(pathname: string): RouteName {
  if (pathname === udapSandboxPaths.discovery) return 'discovery'
  if (pathname === udapSandboxPaths.registration) return 'registration'
  if (pathname === udapSandboxPaths.token) return 'token'
  return 'other'
}

function methodNotAllowed(response: ServerResponse, allowed: string): void {
  sendJson(
    response,
    405,
    { error: 'invalid_request', error_description: `only ${allowed} is allowed here` },
    { allow: allowed },
  )
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
