/**
 * DESIGN §11 (second paragraph): the client checks its own chain "with the same policy except
 * trust and revocation, which are the server's to judge". A chain under a root nobody trusts, a
 * leaf the issuer has revoked, and a chain that stops short of its anchor are all still signed
 * and sent: the server refuses them (or not), never the client. A good chain the server trusts
 * goes through every operation (the control that shows the refusals elsewhere are not vacuous).
 */
import { CertificateChainError } from '@fhir-auth/client'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildUntrustedGoodChain, clientUri, type Identity } from './support/bad-chains.js'
import {
  authorizationCodeOperations,
  clientCredentialsOperations,
  registration,
  registrationOperations,
  type SigningOperation,
} from './support/operations.js'
import { expectNoKeyMaterial } from './support/refusal.js'
import {
  clientFor,
  redirectUri,
  signedRequestCount,
  trustedIdentity,
  useFrozenSandbox,
} from './support/sandbox.js'

const suite = useFrozenSandbox()

const allOperations = [
  ...registrationOperations,
  ...clientCredentialsOperations,
  ...authorizationCodeOperations,
]

/** What the operation did: the value, or what it threw. */
async function outcomeOf(run: () => Promise<unknown>): Promise<{ error?: unknown }> {
  try {
    await run()
    return {}
  } catch (error) {
    return { error }
  }
}

async function expectSentOnce(operation: SigningOperation, identity: Identity): Promise<void> {
  const client = clientFor(
    suite.sandbox,
    identity,
    operation.registered ? { clientId: 'design-11-client' } : {},
  )
  await client.serverMetadata(suite.trust)
  suite.sandbox.clearRequests()
  const { error } = await outcomeOf(() => operation.run(client, suite.trust))
  expect(error).not.toBeInstanceOf(CertificateChainError)
  expect(signedRequestCount(suite.sandbox)).toBe(1)
  if (error !== undefined) expectNoKeyMaterial(error, identity.privateKey)
}

describe('DESIGN §11: trust is not judged locally — a chain under a root nobody trusts is sent', () => {
  let identity: Identity
  beforeAll(async () => {
    identity = await buildUntrustedGoodChain()
  })

  it.each(allOperations)('$name: signed and sent once (the server refuses)', async (operation) => {
    await expectSentOnce(operation, identity)
  })
})

describe('DESIGN §11: the same untrusted chain ending in its self-signed root is sent', () => {
  let identity: Identity
  beforeAll(async () => {
    identity = await buildUntrustedGoodChain(true)
  })

  it.each(allOperations)('$name: signed and sent once', async (operation) => {
    await expectSentOnce(operation, identity)
  })
})

describe('DESIGN §11: revocation is not judged locally — a revoked leaf is sent', () => {
  let identity: Identity
  beforeAll(async () => {
    const revoked = await trustedIdentity(suite.sandbox)
    suite.sandbox.revokeCertificate(revoked.serialNumber)
    identity = revoked.identity
  })

  it('the control: the sandbox really lists it (its own CRL refuses the registration)', async () => {
    const client = clientFor(suite.sandbox, identity)
    const { error } = await outcomeOf(() =>
      client.registerClient(registration, { clientUri, ...suite.trust }),
    )
    expect(error).toMatchObject({ name: 'RegistrationError' })
    expect(suite.sandbox.requestCounts.registration).toBe(1)
  })

  it.each(allOperations)('$name: signed and sent once', async (operation) => {
    await expectSentOnce(operation, identity)
  })
})

describe("DESIGN §11: the path to an anchor is the server's to build — a leaf-only chain is sent", () => {
  let identity: Identity
  beforeAll(async () => {
    const { identity: full } = await trustedIdentity(suite.sandbox)
    identity = { privateKey: full.privateKey, certificateChain: full.certificateChain.slice(0, 1) }
  })

  it.each(allOperations)('$name: signed and sent once', async (operation) => {
    await expectSentOnce(operation, identity)
  })
})

describe('DESIGN §11 control: a good chain the server trusts goes through every signing operation', () => {
  it('registration, modification, client_credentials (registered and not), cached tokens, cancellation', async () => {
    const { identity } = await trustedIdentity(suite.sandbox)
    const first = clientFor(suite.sandbox, identity)
    const registered = (await first.registerClient(registration, {
      clientUri,
      ...suite.trust,
    })) as {
      client_id: string
    }
    expect(typeof registered.client_id).toBe('string')
    const client = clientFor(suite.sandbox, identity, { clientId: registered.client_id })
    const modified = (await client.registerClient(registration, { clientUri, ...suite.trust })) as {
      client_id: string
    }
    expect(modified.client_id).toBe(registered.client_id)
    const token = await client.requestBackendToken({ ...suite.trust })
    expect(typeof token.access_token).toBe('string')
    const cached = await client.backendTokens({ ...suite.trust }).accessToken()
    expect(typeof cached).toBe('string')
    const unregistered = await clientFor(suite.sandbox, identity).requestBackendToken({
      clientUri,
      ...suite.trust,
    })
    expect(typeof unregistered.access_token).toBe('string')
    const cancelled = await client.cancelRegistration(
      {
        client_name: 'design-11 client',
        contacts: ['mailto:ops@example.test'],
        scope: 'system/*.rs',
      },
      { clientUri, ...suite.trust },
    )
    expect(cancelled.grant_types).toEqual([])
    expect(suite.sandbox.requestCounts).toMatchObject({ registration: 3, token: 3 })
  })

  it('authorization code: registration, completeAuthorization, session.refresh and refreshToken', async () => {
    const { identity } = await trustedIdentity(suite.sandbox)
    const registered = (await clientFor(suite.sandbox, identity).registerClient(
      {
        client_name: 'design-11 code client',
        contacts: ['mailto:ops@example.test'],
        grant_types: ['authorization_code', 'refresh_token'],
        scope: 'user/*.rs',
        redirect_uris: [redirectUri],
        logo_uri: 'https://client.example.test/logo.png',
      },
      { clientUri, ...suite.trust },
    )) as { client_id: string }
    const client = clientFor(suite.sandbox, identity, {
      clientId: registered.client_id,
      scopes: ['user/*.rs'],
    })
    const { authUrl, state, codeVerifier } = await client.authorizationUrl({ ...suite.trust })
    const redirect = await suite.sandbox.authorize({ url: authUrl })
    expect(redirect.code).toBeTypeOf('string')
    const session = await client.completeAuthorization(String(redirect.redirectUrl), {
      state,
      codeVerifier,
    })
    const refreshed = await session.refresh()
    expect(refreshed.refreshToken).toBeTypeOf('string')
    const again = await client.refreshToken({ refreshToken: refreshed.refreshToken as string })
    expect(again.access_token).toBeTypeOf('string')
    expect(suite.sandbox.requestCounts.token).toBe(3)
  })
})
