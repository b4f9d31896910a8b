/**
 * Every UDAP operation that signs with the client's own `certificateChain` (DESIGN §11: registration,
 * modification, cancellation, UDAP authentication tokens — client_credentials, authorization code,
 * refresh), as one call each on a `Client`.
 */
import type { Client } from '@fhir-auth/client'
import { clientUri } from './bad-chains.js'
import { redirectUri } from './sandbox.js'

/** Trust inputs in the shape `Client` takes. */
export interface Trust {
  readonly trustedAnchors: readonly string[]
  readonly crls: readonly string[]
}

export interface SigningOperation {
  readonly name: string
  /** A registered client (configured with a `client_id`); else no `clientId`. */
  readonly registered: boolean
  run(client: Client, trust: Trust): Promise<unknown>
}

export const registration = Object.freeze({
  client_name: 'design-11 client',
  contacts: ['mailto:ops@example.test'],
  grant_types: ['client_credentials'],
  scope: 'system/*.rs',
})

const cancellation = Object.freeze({
  client_name: 'design-11 client',
  contacts: ['mailto:ops@example.test'],
  scope: 'system/*.rs',
})

export const b2b = Object.freeze({
  organizationId: 'https://org.example.test/organizations/7',
  organizationName: 'Example Clinic',
  purposeOfUse: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
})

/** A syntactically valid PKCE verifier (43 unreserved characters). */
const codeVerifier = 'design11-verifier-0123456789-abcdefghijklmnopqrstuvwxyz'

export const registrationOperations: readonly SigningOperation[] = [
  {
    name: 'registerClient (registration)',
    registered: false,
    run: (client, trust) => client.registerClient(registration, { clientUri, ...trust }),
  },
  {
    name: 'registerClient (modification of a known client_id)',
    registered: true,
    run: (client, trust) => client.registerClient(registration, { clientUri, ...trust }),
  },
  {
    name: 'cancelRegistration',
    registered: true,
    run: (client, trust) => client.cancelRegistration(cancellation, { clientUri, ...trust }),
  },
]

export const clientCredentialsOperations: readonly SigningOperation[] = [
  {
    name: 'requestBackendToken (registered)',
    registered: true,
    run: (client, trust) => client.requestBackendToken({ b2b, ...trust }),
  },
  {
    name: 'requestBackendToken (unregistered client)',
    registered: false,
    run: (client, trust) => client.requestBackendToken({ clientUri, b2b, ...trust }),
  },
  {
    name: 'backendTokens().accessToken()',
    registered: true,
    run: (client, trust) => client.backendTokens({ b2b, ...trust }).accessToken(),
  },
]

export const authorizationCodeOperations: readonly SigningOperation[] = [
  {
    name: 'requestAccessToken',
    registered: true,
    run: (client, trust) =>
      client.requestAccessToken({ code: 'design-11-code', codeVerifier, ...trust }),
  },
  {
    name: 'completeAuthorization',
    registered: true,
    run: (client, trust) =>
      client.completeAuthorization(`${redirectUri}?code=design-11-code&state=design-11-state`, {
        state: 'design-11-state',
        codeVerifier,
        ...trust,
      }),
  },
  {
    name: 'refreshToken',
    registered: true,
    run: (client, trust) => client.refreshToken({ refreshToken: 'design-11-refresh', ...trust }),
  },
  {
    name: 'session.refresh()',
    registered: true,
    run: (client, trust) =>
      client
        .resumeSession(
          {
            access_token: 'design-11-access',
            token_type: 'Bearer',
            refresh_token: 'design-11-refresh',
            expires_in: 300,
          },
          trust,
        )
        .refresh(),
  },
]
