/**
 * Every UDAP operation that sends a secret, through `Client` (`protocol: 'udap'`) and through
 * the `@fhir-auth/udap` functional API, each against an {@link EchoingUdapServer}. The values
 * the caller holds are fixed (no randomness decides an outcome) and carry the characters the
 * encodings change (`/`, `+`, `=`, `~`); the signed JWTs are read from the request as sent.
 */
import type { Client } from '@fhir-auth/client'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import type { CapturingLogger } from '@fhir-auth/test-utils'
import {
  createSoftwareStatement,
  exchangeUdapAuthorizationCode,
  normalizeRegistrationMetadata,
  prepareUdapSigner,
  refreshUdapAccessToken,
  registerUdapClient,
  requestUdapClientCredentialsToken,
} from '@fhir-auth/udap'
import {
  b2bContext,
  clientCredentialsRegistration,
  createUdapClient,
} from '../../support/udap-test-context.js'
import { type EchoedRequest, type EchoingUdapServer, echoClientUri } from './echoing-udap-server.js'

/** What the caller holds and passes in; the server "knows" them (it issued them). */
export const heldValues = {
  code: 'Zq4/Tn8+Wv2=Kx7/Lm3+Pr5=Hd9/Jc6+',
  codeVerifier: 'Vr7-Qm2_Tk9.Ws4~Lp8-Xn3_Bj6.Fd1~Gh5-Yc0_Nz4.Ka7~Ue2',
  refreshToken: 'Rf3/Hq8+Mv5=Tb2/Wn7+Kc4=Ps9/Ld6+Ja1=',
  accessToken: 'At6/Gy3+Nk8=Qe5/Vh2+Zm9=Bw4/Rs7+Dc0=',
} as const

const appRedirectUri = 'https://app.example.test/callback'
const clientId = 'client-registered-at-the-echoing-server'

/** One operation: what it is called, the values it holds, and how to run it. */
export interface SecretOperation {
  readonly name: string
  /** Held values sent (or held) by this operation, by label. */
  readonly held: Readonly<Record<string, string>>
  run(server: EchoingUdapServer, logger: CapturingLogger): Promise<unknown>
}

/** The secrets of one request as sent: the signed JWTs and the grant's values, by label. */
export function wireSecretsOf(request: EchoedRequest | undefined): Record<string, string> {
  const labels: Readonly<Record<string, string>> = {
    software_statement: 'software statement',
    client_assertion: 'client assertion',
    code: 'code',
    code_verifier: 'code verifier',
    refresh_token: 'refresh token',
  }
  const secrets: Record<string, string> = {}
  for (const [member, label] of Object.entries(labels)) {
    const value = request?.members[member]
    if (value !== undefined) secrets[label] = value
  }
  return secrets
}

function udapClient(server: EchoingUdapServer, logger: CapturingLogger, registered: boolean) {
  return createUdapClient(
    server,
    server.identity,
    { logger },
    { redirectUri: appRedirectUri, ...(registered ? { clientId } : {}) },
  )
}

/** A signer for the functional API, by the community's CA-issued identity (WebCrypto backend). */
async function functionalSigner(server: EchoingUdapServer) {
  const { signer } = await prepareUdapSigner({
    crypto: createWebCryptoBackend(),
    privateKey: server.identity.privateKey,
    certificateChain: server.identity.certificateChain,
    clientUri: echoClientUri,
    advertisedAlgorithms: ['ES256'],
    // The certificate was issued for the real clock, which the server checks too.
    now: new Date(),
  })
  return signer
}

const through = (server: EchoingUdapServer) => ({
  tokenEndpoint: server.tokenEndpoint,
  allowInsecureLocalhost: true,
})

/** The operations of `Client`. */
export const clientOperations: readonly SecretOperation[] = [
  {
    name: 'Client.registerClient',
    held: {},
    run: (server, logger) =>
      udapClient(server, logger, false).registerClient(clientCredentialsRegistration, {
        clientUri: echoClientUri,
        ...server.trust,
      }),
  },
  {
    name: 'Client.requestBackendToken',
    held: {},
    run: (server, logger) =>
      udapClient(server, logger, false).requestBackendToken({
        clientUri: echoClientUri,
        b2b: b2bContext,
        ...server.trust,
      }),
  },
  {
    name: 'Client.requestAccessToken',
    held: { code: heldValues.code, 'code verifier': heldValues.codeVerifier },
    run: (server, logger) =>
      udapClient(server, logger, true).requestAccessToken({
        code: heldValues.code,
        codeVerifier: heldValues.codeVerifier,
        ...server.trust,
      }),
  },
  {
    name: 'Client.refreshToken',
    held: { 'refresh token': heldValues.refreshToken },
    run: (server, logger) =>
      udapClient(server, logger, true).refreshToken({
        refreshToken: heldValues.refreshToken,
        ...server.trust,
      }),
  },
  {
    name: 'session.refresh (an expired session)',
    held: { 'refresh token': heldValues.refreshToken, 'access token': heldValues.accessToken },
    run: (server, logger) => expiredSession(udapClient(server, logger, true), server).refresh(),
  },
]

function expiredSession(client: Client, server: EchoingUdapServer) {
  return client.resumeSession(
    {
      access_token: heldValues.accessToken,
      token_type: 'Bearer',
      expires_in: 0,
      refresh_token: heldValues.refreshToken,
      scope: 'system/*.rs',
    },
    { ...server.trust },
  )
}

/** The operations of the `@fhir-auth/udap` functional API (they take no logger). */
export const functionalOperations: readonly SecretOperation[] = [
  {
    name: 'registerUdapClient',
    held: {},
    run: async (server) => {
      const softwareStatement = await createSoftwareStatement({
        claims: normalizeRegistrationMetadata(clientCredentialsRegistration, {
          operation: 'register',
        }),
        clientUri: echoClientUri,
        registrationEndpoint: server.registrationEndpoint,
        signer: await functionalSigner(server),
      })
      return registerUdapClient({
        registrationEndpoint: server.registrationEndpoint,
        softwareStatement,
        allowInsecureLocalhost: true,
      })
    },
  },
  {
    name: 'requestUdapClientCredentialsToken',
    held: {},
    run: async (server) =>
      requestUdapClientCredentialsToken({
        ...through(server),
        issuer: echoClientUri,
        signer: await functionalSigner(server),
        scopes: ['system/*.rs'],
        b2b: b2bContext,
      }),
  },
  {
    name: 'exchangeUdapAuthorizationCode',
    held: { code: heldValues.code, 'code verifier': heldValues.codeVerifier },
    run: async (server) =>
      exchangeUdapAuthorizationCode({
        ...through(server),
        issuer: clientId,
        signer: await functionalSigner(server),
        code: heldValues.code,
        codeVerifier: heldValues.codeVerifier,
        redirectUri: appRedirectUri,
      }),
  },
  {
    name: 'refreshUdapAccessToken (heldSecrets: the access token)',
    held: { 'refresh token': heldValues.refreshToken, 'access token': heldValues.accessToken },
    run: async (server) =>
      refreshUdapAccessToken({
        ...through(server),
        issuer: clientId,
        signer: await functionalSigner(server),
        refreshToken: heldValues.refreshToken,
        heldSecrets: [heldValues.accessToken],
      }),
  },
]

/** Every operation, `Client` first. */
export const secretOperations: readonly SecretOperation[] = [
  ...clientOperations,
  ...functionalOperations,
]
