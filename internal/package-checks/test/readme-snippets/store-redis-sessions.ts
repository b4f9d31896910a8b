import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Client } from '@fhir-auth/client'
import { redisStore } from '@fhir-auth/store-redis'
import { createClient } from 'redis'

/**
 * A whole web server whose sessions live in Redis: run it in as many processes as you like
 * behind a load balancer. Each request opens the session its cookie names; a refresh happens
 * once per expiry window for all of them, and a rotated refresh token is never lost.
 * `/login` starts a launch, `/callback` finishes it, `/` reads the patient in context.
 */
export async function sessionServer(
  client: Client,
  redisUrl: string,
  encryptionKey: Uint8Array, // 32 bytes from your secrets manager, the same in every process
): Promise<{ server: Server; close: () => Promise<void> }> {
  const redis = await createClient({ url: redisUrl }).connect()
  // Launches and sessions in one Redis; every value sealed (AES-256-GCM).
  const store = redisStore(redis, { encryptionKey })
  const sessions = client.sessions({ store, ttlSeconds: 8 * 3600 })
  const cookie = (request: IncomingMessage, name: string) =>
    new RegExp(`(?:^|;\\s*)${name}=([\\w-]+)`).exec(request.headers.cookie ?? '')?.[1]
  const attributes = 'HttpOnly; Secure; SameSite=Lax; Path=/'

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost')
    if (url.pathname === '/login') {
      const { authUrl, state } = await client.beginAuthorization({ store })
      // The callback must come back to the browser that began the launch (RFC 6749 §10.12).
      response.writeHead(302, { location: authUrl, 'set-cookie': `launch=${state}; ${attributes}` })
      response.end()
    } else if (url.pathname === '/callback') {
      const state = url.searchParams.get('state')
      if (state === null || state !== cookie(request, 'launch')) {
        response.writeHead(400).end('This sign-in was not started in this browser')
        return
      }
      const session = await client.completeAuthorization(url, { store })
      // A new id for every sign-in: 256 bits from the CSPRNG, the only thing the cookie holds.
      const id = await sessions.save(session)
      response.writeHead(303, { location: '/', 'set-cookie': `sid=${id}; ${attributes}` })
      response.end()
    } else if (url.pathname === '/logout') {
      const id = cookie(request, 'sid')
      if (id !== undefined) await sessions.signOut(id)
      response.writeHead(303, { location: '/login', 'set-cookie': `sid=; Max-Age=0; Path=/` })
      response.end()
    } else {
      const id = cookie(request, 'sid')
      const session = id === undefined ? undefined : await sessions.open(id)
      if (session === undefined) {
        response.writeHead(303, { location: '/login' }).end()
        return
      }
      const patient = await session.fetch(`Patient/${session.tokens.patient}`)
      response.writeHead(patient.status, { 'content-type': 'application/fhir+json' })
      response.end(await patient.text())
    }
  }

  const server = createServer((request, response) => {
    // fhir-auth errors never carry a secret, but a production server logs them instead.
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(502)
      response.end()
    })
  })
  const close = async () => {
    await new Promise((resolve) => server.close(resolve))
    await redis.quit()
  }
  return { server, close }
}
