/**
 * `session.revoke()` and `SessionStore.signOut` while a refresh is in flight, against a loopback
 * server that holds its token response until the test lets it go: the refresh token revoked is
 * the one the refresh rotated in, never the one it replaced, which would leave the new one valid
 * at the server (RFC 7009; RFC 9700 §4.14.2 on refresh token rotation).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client, memoryStore } from '@fhir-auth/client'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { smartConfiguration } from './support.js'

/** A SMART server whose token endpoint answers a refresh only when `releaseToken()` is called. */
interface HeldServer {
  readonly baseUrl: string
  /** The `token` of every revocation request, in order. */
  readonly revoked: string[]
  /** The refresh tokens the token endpoint received, in order. */
  readonly refreshed: string[]
  /** Resolves when the token endpoint has received its first request (held open). */
  readonly tokenRequested: Promise<void>
  /** Answers the held token request with rotated tokens (`at-2`, `rt-2`). */
  releaseToken(): void
  readonly server: Server
}

let held: HeldServer

async function startHeldServer(): Promise<HeldServer> {
  const revoked: string[] = []
  const refreshed: string[] = []
  let requested = () => {}
  const tokenRequested = new Promise<void>((resolve) => {
    requested = resolve
  })
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  let origin = ''
  const server = createServer(async (request, response) => {
    let body = ''
    for await (const chunk of request) body += chunk
    const form = new URLSearchParams(body)
    const json = (value: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      response.end(JSON.stringify(value))
    }
    if (request.url === '/fhir/.well-known/smart-configuration') {
      return json({
        ...smartConfiguration,
        issuer: `${origin}/fhir`,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        revocation_endpoint: `${origin}/revoke`,
      })
    }
    if (request.url === '/token') {
      refreshed.push(form.get('refresh_token') ?? '')
      requested()
      await released
      return json({
        access_token: 'at-2',
        refresh_token: 'rt-2',
        token_type: 'Bearer',
        expires_in: 300,
      })
    }
    if (request.url === '/revoke') {
      revoked.push(form.get('token') ?? '')
      response.writeHead(200)
      return response.end()
    }
    response.writeHead(404)
    response.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    baseUrl: `${origin}/fhir`,
    revoked,
    refreshed,
    tokenRequested,
    releaseToken: release,
    server,
  }
}

beforeEach(async () => {
  held = await startHeldServer()
})

afterEach(async () => {
  held.releaseToken()
  held.server.closeAllConnections()
  await new Promise((resolve) => held.server.close(resolve))
})

function heldClient(): Client {
  return new Client({
    baseUrl: held.baseUrl,
    clientId: 'app',
    scopes: ['patient/*.rs', 'offline_access'],
    allowInsecureLocalhost: true,
  })
}

const firstGrant = {
  access_token: 'at-1',
  refresh_token: 'rt-1',
  token_type: 'Bearer',
  expires_in: 300,
}

describe('revocation while a refresh is in flight', () => {
  it('session.revoke() waits for the refresh and revokes the rotated tokens', async () => {
    const session = heldClient().resumeSession(firstGrant)
    const refreshing = session.refresh()
    await held.tokenRequested
    const revoking = session.revoke()
    held.releaseToken()
    expect((await refreshing).refreshToken).toBe('rt-2')
    expect(await revoking).toBe(true)
    expect(held.refreshed).toEqual(['rt-1'])
    expect(held.revoked).toEqual(['rt-2', 'at-2'])
  })

  it('SessionStore.signOut waits for a refresh of the session opened elsewhere and revokes the rotated tokens', async () => {
    const client = heldClient()
    const sessions = client.sessions({ store: memoryStore() })
    const id = await sessions.save(client.resumeSession(firstGrant))
    const opened = await sessions.open(id)
    const refreshing = opened?.refresh()
    await held.tokenRequested
    const signingOut = sessions.signOut(id)
    held.releaseToken()
    expect((await refreshing)?.refreshToken).toBe('rt-2')
    expect(await signingOut).toBe(true)
    expect(held.refreshed).toEqual(['rt-1'])
    expect(held.revoked).toEqual(['rt-2', 'at-2'])
    expect(await sessions.open(id)).toBeUndefined()
  })
})
