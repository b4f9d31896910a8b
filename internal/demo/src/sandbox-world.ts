/**
 * Everything the sandbox walk shares: the two local servers, the clients registered on them,
 * the keys and certificate the demo signs with, and what one flow hands to a later one.
 */
import { randomBytes } from 'node:crypto'
import type {
  Client,
  RegistrationResponse,
  TokenResponse,
  UdapTrustOptions,
} from '@fhir-auth/client'
import {
  type ClientKeys,
  generateClientKeys,
  type SmartSandbox,
  sandboxDefaultRedirectUri,
  startSmartSandbox,
  startTieredOAuthSandboxes,
  startUdapSandbox,
  type TieredOAuthSandboxes,
  type UdapSandbox,
  type UdapTrust,
} from '@fhir-auth/sandbox'
import type { IssuedCertificate } from '@fhir-auth/test-pki/issuer'
import { DemoFailure } from './demo-failure.js'
import type { SecretLedger } from './secret-ledger.js'

/** The `client_id`s registered on the SMART sandbox at start-up, one per client type. */
export const smartClientIds = {
  public: 'demo-public-app',
  symmetric: 'demo-confidential-symmetric',
  es384: 'demo-confidential-es384',
  rs384: 'demo-confidential-rs384',
  backend: 'demo-backend-service',
} as const

/** The demo app's redirect URI (registered, never contacted: the headless user stops there). */
export const redirectUri = sandboxDefaultRedirectUri

/** The UDAP client's URI: a URI SAN of its certificate and the `iss` of what it signs. */
export const udapClientUri = 'https://demo-app.example.test/udap-client'

/** Results one flow produces for a later one. */
export interface Handoffs {
  /** Section 2's public client and its token (with a refresh token), for section 5. */
  standalone?: { readonly client: Client; readonly token: TokenResponse }
  /** Section 8's trusted UDAP client, which sections 9 to 11 keep using. */
  udapClient?: Client
  /** Section 9's registration, for sections 10 and 11. */
  udapRegistration?: RegistrationResponse
}

/** The running sandboxes and the demo's credentials. */
export interface SandboxWorld {
  readonly smart: SmartSandbox
  readonly udap: UdapSandbox
  /**
   * The authorization-code world of sections 12 to 14: a data holder (authorization code,
   * refresh, Tiered OAuth) and the identity provider it trusts, each with its own PKI.
   */
  readonly tiered: TieredOAuthSandboxes
  readonly keys: { readonly es384: ClientKeys; readonly rs384: ClientKeys }
  /** The symmetric client's secret. */
  readonly clientSecret: string
  /** The UDAP client's certificate (issued by the sandbox's trusted intermediate) and key. */
  readonly udapCertificate: IssuedCertificate
  /** The sandbox's trust anchors and current CRLs, as a UDAP client is given them. */
  readonly udapTrust: UdapTrustOptions
  readonly handoffs: Handoffs
  /** Closes both servers; idempotent. */
  close(): Promise<void>
}

/**
 * Starts both sandboxes and creates the demo's keys and certificate, concurrently (the RSA
 * keys are the slow part). Every secret created here goes to the ledger first.
 */
export async function startSandboxWorld(ledger: SecretLedger): Promise<SandboxWorld> {
  const clientSecret = randomBytes(32).toString('base64url')
  ledger.add('symmetric client secret', clientSecret)
  // The slow parts (RSA keys, the UDAP PKI, oidc-provider's import) run side by side; the
  // clients that need the keys are added once the keys exist.
  const udapStarting = startUdapSandbox()
  const tieredStarting = startTieredOAuthSandboxes()
  const smartStarting = startSmartSandbox({
    clients: [
      { client_id: smartClientIds.public, token_endpoint_auth_method: 'none' },
      {
        client_id: smartClientIds.symmetric,
        token_endpoint_auth_method: 'client_secret_basic',
        client_secret: clientSecret,
      },
    ],
  })
  const close = () => closeStarted([udapStarting, tieredStarting, smartStarting])
  let started: [ClientKeys, ClientKeys, UdapSandbox, TieredOAuthSandboxes, SmartSandbox]
  try {
    started = await Promise.all([
      generateClientKeys('ES384'),
      generateClientKeys('RS384'),
      udapStarting,
      tieredStarting,
      smartStarting,
    ])
  } catch (error) {
    await close()
    throw error
  }
  const [es384, rs384, udap, tiered, smart] = started
  ledger.add('SMART initial access token', smart.initialAccessToken)
  ledger.addPrivateKeyPem('ES384 client key', es384.privateKeyPem)
  ledger.addPrivateKeyPem('RS384 client key', rs384.privateKeyPem)
  try {
    await smart.addClient({
      client_id: smartClientIds.es384,
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [es384.publicJwk] },
    })
    await smart.addClient({
      client_id: smartClientIds.rs384,
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [rs384.publicJwk] },
    })
    await smart.addClient({
      client_id: smartClientIds.backend,
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [es384.publicJwk] },
      grant_types: ['client_credentials'],
    })
    const udapCertificate = await udap.certificateAuthority.issue({
      commonName: 'fhir-auth demo app',
      sanUris: [udapClientUri],
      keyType: 'p256',
    })
    ledger.addPrivateKeyPem('UDAP client key', udapCertificate.privateKeyPem)
    return {
      smart,
      udap,
      tiered,
      keys: { es384, rs384 },
      clientSecret,
      udapCertificate,
      udapTrust: trustOptionsOf(udap.trust),
      handoffs: {},
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}

/** Trust inputs as a UDAP client is given them: a community's anchors and current CRLs. */
export function trustOptionsOf(trust: UdapTrust): UdapTrustOptions {
  return {
    trustedAnchors: trust.anchors.map((anchor) => anchor.pem),
    crls: trust.crls.map((crl) => crl.pem),
  }
}

/**
 * A value an earlier section hands over.
 *
 * @throws DemoFailure naming the section that should have produced it.
 */
export function handoff<T>(value: T | undefined, producer: string): T {
  if (value === undefined) throw new DemoFailure(`${producer} did not complete`)
  return value
}

/** Closes every server that did start, whether or not the others did. */
async function closeStarted(
  starting: readonly Promise<{ close(): Promise<void> }>[],
): Promise<void> {
  const settled = await Promise.allSettled(starting)
  await Promise.all(
    settled.map((result) => (result.status === 'fulfilled' ? result.value.close() : undefined)),
  )
}
