/**
 * RFC 7009 revocation through `Client` against the oidc-provider sandbox (its revocation feature
 * on, tokens opaque and stored, so a revoked token is refused at once): `session.revoke()` and
 * `SessionStore.signOut` for a public, a confidential symmetric and a confidential asymmetric
 * app. After them the server refuses the refresh token (`invalid_grant`) and the access token
 * (the FHIR server answers 401), and the session refuses every use. No token reaches a log line.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7009 RFC 7009
 */
import { type Client, type Logger, memoryStore, TokenError, type TokenSet } from '@fhir-auth/client'
import { createCapturingLogger } from '@fhir-auth/test-utils'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { readPatientStatus, rejectionOf, requestsTo } from './support/flows.js'
import {
  type AppKind,
  appClient,
  clientIds,
  type SmartFixture,
  startSmartFixture,
} from './support/smart-fixture.js'

let fixture: SmartFixture

beforeAll(async () => {
  fixture = await startSmartFixture({ standalonePatient: 'patient-7' })
})

afterAll(async () => {
  await fixture?.sandbox.close()
})

beforeEach(() => {
  fixture.sandbox.setDiscoveryOverride(undefined)
  fixture.sandbox.clearRequests()
})

/** A client of `kind` that logs to `logger`, and a session from a launch through the sandbox. */
async function signedIn(kind: AppKind, logger: Logger) {
  const client = appClient(fixture, kind, {}, { logger })
  const store = memoryStore()
  const begun = await client.beginAuthorization({ store })
  const result = await fixture.sandbox.authorize({ url: begun.authUrl })
  if (result.redirectUrl === undefined) throw new Error(`no callback: ${result.error}`)
  const session = await client.completeAuthorization(result.redirectUrl.href, { store })
  expect(session.tokens.refreshToken).toBeTypeOf('string')
  expect(await readPatientStatus(fixture.sandbox, 'patient-7', session.tokens.accessToken)).toBe(
    200,
  )
  return { client, session }
}

const revocations = () => requestsTo(fixture.sandbox, fixture.sandbox.endpoints.revocation)

/** The server's verdict on revoked tokens: the refresh token and the access token refused. */
async function expectRefusedByServer(client: Client, tokens: TokenSet) {
  const refresh = await rejectionOf(
    client.refreshToken({ refreshToken: tokens.refreshToken as string }),
  )
  expect(refresh).toBeInstanceOf(TokenError)
  expect((refresh as TokenError).error).toBe('invalid_grant')
  expect(await readPatientStatus(fixture.sandbox, 'patient-7', tokens.accessToken)).toBe(401)
}

function expectNoSecretIn(lines: readonly string[], tokens: TokenSet) {
  const text = lines.join('\n')
  for (const secret of [tokens.accessToken, tokens.refreshToken, fixture.symmetricSecret]) {
    expect(text).not.toContain(secret)
  }
}

describe.each(['public', 'symmetric', 'RS384'] as const)('a %s app', (kind) => {
  it('session.revoke() revokes the refresh token then the access token; the server and the session refuse both', async () => {
    const logger = createCapturingLogger()
    const { client, session } = await signedIn(kind, logger)
    const { tokens } = session

    await expect(session.revoke()).resolves.toBe(true)

    const sent = revocations()
    expect(sent.map((request) => request.form?.token_type_hint)).toEqual([
      'refresh_token',
      'access_token',
    ])
    expect(sent.map((request) => request.form?.token)).toEqual([
      tokens.refreshToken,
      tokens.accessToken,
    ])
    // The client's own authentication, as at the token endpoint.
    for (const request of sent) {
      if (kind === 'public') expect(request.form?.client_id).toBe(clientIds.public)
      if (kind === 'symmetric') expect(request.headers.authorization).toMatch(/^Basic /)
      if (kind === 'RS384') {
        const assertion = request.form?.client_assertion as string
        const claims = JSON.parse(
          Buffer.from(assertion.split('.')[1] ?? '', 'base64url').toString(),
        )
        expect(claims.aud).toBe(fixture.sandbox.endpoints.revocation)
      }
    }
    await expectRefusedByServer(client, tokens)
    fixture.sandbox.clearRequests()
    for (const use of [
      () => session.accessToken(),
      () => session.refresh(),
      () => session.fetch('Patient/patient-7'),
    ]) {
      const error = await rejectionOf(use())
      expect(error).toBeInstanceOf(TokenError)
      expect((error as Error).message).toContain('revoked')
    }
    expect(fixture.sandbox.requests).toEqual([])
    expectNoSecretIn(logger.renderedLines(), tokens)
  })

  it('sessions().signOut(id) revokes, deletes, and resolves true', async () => {
    const logger = createCapturingLogger()
    const { client, session } = await signedIn(kind, logger)
    const sessions = client.sessions({ store: memoryStore() })
    const id = await sessions.save(session)

    await expect(sessions.signOut(id)).resolves.toBe(true)

    expect(revocations()).toHaveLength(2)
    await expect(sessions.open(id)).resolves.toBeUndefined()
    await expectRefusedByServer(client, session.tokens)
    expectNoSecretIn(logger.renderedLines(), session.tokens)
  })
})

describe('a server that advertises no revocation_endpoint', () => {
  it('revoke() resolves false and sends nothing; the session is over all the same', async () => {
    const logger = createCapturingLogger()
    const { session } = await signedIn('public', logger)
    fixture.sandbox.setDiscoveryOverride({
      document: ({ revocation_endpoint: _, ...document }) => document,
    })
    // A new client reads the document without the endpoint.
    const client = appClient(fixture, 'public')
    const resumed = client.resumeSession(session.tokens)
    fixture.sandbox.clearRequests()

    await expect(resumed.revoke()).resolves.toBe(false)

    expect(revocations()).toHaveLength(0)
    await expect(resumed.accessToken()).rejects.toBeInstanceOf(TokenError)
    const sessions = client.sessions({ store: memoryStore() })
    await expect(
      sessions.signOut(await sessions.save(client.resumeSession(session.tokens))),
    ).resolves.toBe(false)
    expect(revocations()).toHaveLength(0)
  })

  it('signOut resolves false with a warning naming no token when the server refuses the revocation', async () => {
    const logger = createCapturingLogger()
    const { session } = await signedIn('public', logger)
    fixture.sandbox.setDiscoveryOverride({
      document: (document) => ({
        ...document,
        revocation_endpoint: `${fixture.sandbox.origin}/no-such-revocation`,
      }),
    })
    const client = appClient(fixture, 'public', {}, { logger })
    const sessions = client.sessions({ store: memoryStore() })
    const id = await sessions.save(client.resumeSession(session.tokens))

    await expect(sessions.signOut(id)).resolves.toBe(false)

    expect(logger.renderedLines().some((line) => line.includes('sessions.revocation_failed'))).toBe(
      true,
    )
    await expect(sessions.open(id)).resolves.toBeUndefined()
    expectNoSecretIn(logger.renderedLines(), session.tokens)
  })
})
