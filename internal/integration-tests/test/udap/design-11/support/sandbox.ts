/**
 * The real UDAP sandbox these tests talk to, frozen at {@link clock}, and a `Client` factory for
 * it. The sandbox counts what reaches each endpoint: that is how "nothing is sent" is checked.
 */
import { Client, type ClientConfigInput, silentLogger } from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import {
  type BadChainKind,
  buildBadChains,
  clientUri,
  type Identity,
  identityOf,
  now,
  valid,
} from './bad-chains.js'
import type { Trust } from './operations.js'

export type { UdapSandbox }

/** Redirect URI of the authorization-code clients. */
export const redirectUri = 'https://client.example.test/callback'

/** A sandbox with every grant, an optional `hl7-b2b`, unregistered clients allowed. */
export function startFrozenSandbox(): Promise<UdapSandbox> {
  return startUdapSandbox({
    now,
    grantTypes: ['client_credentials', 'authorization_code', 'refresh_token'],
    requiredAuthorizationExtensions: [],
    allowUnregisteredClients: true,
  })
}

/** What {@link useFrozenSandbox} gives a file's tests (set once its `beforeAll` ran). */
export interface FrozenSuite {
  readonly sandbox: UdapSandbox
  readonly trust: Trust
  /** Every bad chain of `badChainCases`; only when asked for (building them takes a while). */
  readonly chains: Readonly<Record<BadChainKind, Identity>>
}

/**
 * Starts the frozen sandbox before the tests of the calling file (or `describe`), with its trust
 * inputs and, when `badChains` is set, every bad chain; clears its request log before each test
 * (so "nothing is sent" is counted per test) and closes it after them.
 */
export function useFrozenSandbox(options: { readonly badChains?: boolean } = {}): FrozenSuite {
  let state: FrozenSuite | undefined
  let chains: FrozenSuite['chains'] | undefined
  beforeAll(async () => {
    const sandbox = await startFrozenSandbox()
    if (options.badChains === true) chains = await buildBadChains()
    state = {
      sandbox,
      trust: trustOf(sandbox),
      get chains() {
        if (chains === undefined)
          throw new Error('useFrozenSandbox({ badChains: true }) builds them')
        return chains
      },
    }
  }, 120_000)
  afterAll(() => state?.sandbox.close())
  beforeEach(() => started().sandbox.clearRequests())
  const started = (): FrozenSuite => {
    if (state === undefined) throw new Error('the sandbox starts in beforeAll')
    return state
  }
  return {
    get sandbox() {
      return started().sandbox
    },
    get trust() {
      return started().trust
    },
    get chains() {
      return started().chains
    },
  }
}

/** Trust inputs for the sandbox's community, as `Client` takes them. */
export function trustOf(sandbox: UdapSandbox) {
  return {
    trustedAnchors: sandbox.trust.anchors.map((anchor) => anchor.pem),
    crls: sandbox.trust.crls.map((crl) => crl.pem),
  }
}

/** A chain the sandbox trusts: its own intermediate issued it, with explicit dates. */
export async function trustedIdentity(
  sandbox: UdapSandbox,
  dates: { notBefore: Date; notAfter: Date } = valid,
): Promise<{ identity: Identity; serialNumber: string }> {
  const leaf = await sandbox.certificateAuthority.issue({
    commonName: 'design-11 trusted client',
    sanUris: [clientUri],
    ...dates,
  })
  return { identity: identityOf(leaf), serialNumber: leaf.serialNumber }
}

/** A UDAP `Client` for the sandbox at the suite's clock (or `at`). */
export function clientFor(
  sandbox: UdapSandbox,
  identity: Identity,
  config: Partial<ClientConfigInput> = {},
  at: () => Date = now,
): Client {
  return new Client(
    {
      baseUrl: sandbox.fhirBaseUrl,
      allowInsecureLocalhost: true,
      scopes: ['system/*.rs'],
      redirectUri,
      ...identity,
      ...config,
    },
    { protocol: 'udap', logger: silentLogger, now: at },
  )
}

/** Requests that carry something the client signed with its chain. */
export function signedRequestCount(sandbox: UdapSandbox): number {
  return sandbox.requestCounts.registration + sandbox.requestCounts.token
}
