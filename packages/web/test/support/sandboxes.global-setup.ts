/**
 * Vitest global setup (runs in Node for every project): two SMART sandboxes (oidc-provider) that
 * both register the web app's confidential client, and a small loopback "test driver" server
 * that lets a test in any runtime (the edge runtime has no `node:` modules) play the user at a
 * sandbox (`POST /authorize`), create an EHR launch (`POST /launch`), read the requests each
 * sandbox received (`GET /requests`) and forget them (`POST /clear`). What the tests need comes
 * through `provide`/`inject`.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type SmartSandbox, startSmartSandbox } from '@fhir-auth/sandbox'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The FHIR base URLs of the two sandboxes (`ehrA` registers the app; so does `ehrB`). */
    ehrA: string
    ehrB: string
    /** The app's confidential client at both sandboxes. */
    webClientId: string
    webClientSecret: string
    /** `http://127.0.0.1:<port>` of the test driver. */
    driverOrigin: string
  }
}

function body(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}

async function drive(
  sandboxes: Record<string, SmartSandbox>,
  request: IncomingMessage,
): Promise<unknown> {
  const url = new URL(request.url ?? '/', 'http://driver')
  const sandbox = sandboxes[url.searchParams.get('ehr') ?? 'ehrA']
  if (url.pathname === '/requests') {
    return Object.fromEntries(Object.entries(sandboxes).map(([name, s]) => [name, s.requests]))
  }
  if (url.pathname === '/clear') {
    for (const each of Object.values(sandboxes)) each.clearRequests()
    return {}
  }
  if (sandbox === undefined) throw new Error('unknown sandbox')
  if (url.pathname === '/launch') return { launch: sandbox.createLaunch({ patient: 'patient-1' }) }
  if (url.pathname === '/authorize') {
    const decision = url.searchParams.get('decision') === 'deny' ? 'deny' : 'approve'
    const result = await sandbox.authorize({ url: await body(request) }, { decision })
    return { redirectUrl: result.redirectUrl?.href, error: result.error }
  }
  throw new Error('unknown driver path')
}

function close(server: Server): Promise<void> {
  server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const secret = randomBytes(24).toString('base64url')
  const client = {
    client_id: 'web-app',
    token_endpoint_auth_method: 'client_secret_basic',
    client_secret: secret,
  } as const
  const [ehrA, ehrB] = await Promise.all([
    startSmartSandbox({ clients: [client] }),
    startSmartSandbox({ clients: [client] }),
  ])
  const sandboxes = { ehrA, ehrB }
  const driver = createServer((request, response) => {
    drive(sandboxes, request).then(
      (result) => {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify(result))
      },
      (error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' })
        response.end(error instanceof Error ? error.message : 'failed')
      },
    )
  })
  await new Promise<void>((resolve) => driver.listen(0, '127.0.0.1', resolve))
  project.provide('ehrA', ehrA.fhirBaseUrl)
  project.provide('ehrB', ehrB.fhirBaseUrl)
  project.provide('webClientId', client.client_id)
  project.provide('webClientSecret', secret)
  project.provide('driverOrigin', `http://127.0.0.1:${(driver.address() as AddressInfo).port}`)
  return async () => {
    await close(driver)
    await Promise.all([ehrA.close(), ehrB.close()])
  }
}
