/**
 * The complete program each guide opens with (internal/package-checks/test/guide-programs/,
 * type-checked there and kept identical to the guide by guide-programs.test.ts) runs against the
 * local sandboxes with the values `pnpm sandbox` prints, as a person would run it: a child
 * process, configured by environment variables, a pasted redirect on stdin where it asks.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type LocalSandboxes, startLocalSandboxes } from '@fhir-auth/sandbox'
import { startRedisServer } from '@fhir-auth/test-utils/redis-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..', '..')
const programs = join(root, 'internal', 'package-checks', 'test', 'guide-programs')

let sandboxes: LocalSandboxes
let scratch: string

beforeAll(async () => {
  sandboxes = await startLocalSandboxes()
  scratch = mkdtempSync(join(tmpdir(), 'fhir-auth-guide-programs-'))
}, 60_000)

afterAll(async () => {
  await sandboxes?.close()
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true })
})

interface Run {
  readonly child: ChildProcessWithoutNullStreams
  readonly stdout: () => string
  readonly finished: Promise<{ code: number | null; stdout: string; stderr: string }>
}

/** Starts `node --import tsx <program>` from the repository root, as its guide says. */
function start(program: string, environment: Record<string, string>): Run {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@fhir-auth/source', join(programs, program)],
    { cwd: root, env: { ...process.env, ...environment, ALLOW_INSECURE_LOCALHOST: 'true' } },
  )
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  const finished = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  )
  return { child, stdout: () => stdout, finished }
}

async function run(program: string, environment: Record<string, string>) {
  const result = await start(program, environment).finished
  expect(result.code, result.stderr).toBe(0)
  return result.stdout
}

/** Waits until `pattern` matches the program's output. */
async function waitFor(output: () => string, pattern: RegExp): Promise<RegExpExecArray> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const match = pattern.exec(output())
    if (match !== null) return match
    if (Date.now() > deadline) throw new Error(`no ${pattern} in: ${output()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

function backendEnvironment(): Record<string, string> {
  const { smart } = sandboxes.description
  return {
    FHIR_BASE_URL: smart.baseUrl,
    CLIENT_ID: smart.backendClient.clientId,
    PRIVATE_KEY_FILE: smart.backendClient.keyFile,
    KID: smart.backendClient.kid,
  }
}

/** Signs in where a launch program asks: the sandbox's user approves, the redirect is pasted. */
async function signInAtPrompt(launch: Run): Promise<void> {
  const [authUrl] = await waitFor(launch.stdout, /^http\S+$/m)
  await waitFor(launch.stdout, /Paste the address/)
  const result = await sandboxes.smart.authorize({ url: authUrl })
  if (result.redirectUrl === undefined) throw new Error(`sign-in failed: ${result.error}`)
  launch.child.stdin.end(`${result.redirectUrl.href}\n`)
}

function publicClientEnvironment(): Record<string, string> {
  const { smart } = sandboxes.description
  return {
    FHIR_BASE_URL: smart.baseUrl,
    CLIENT_ID: smart.publicClient.clientId,
    REDIRECT_URI: smart.redirectUri,
  }
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

describe('the program each guide opens with runs against the sandbox', () => {
  it('backend-services: a token, then a FHIR read with it', async () => {
    const stdout = await run('backend-services.ts', backendEnvironment())
    expect(stdout).toContain('granted system/Patient.rs for 300 s')
    expect(stdout).toContain('200: Patient patient-1')
  }, 60_000)

  it('backend-services-at-scale: two reads, one token request', async () => {
    sandboxes.smart.clearRequests()
    const stdout = await run('backend-services-at-scale.ts', backendEnvironment())
    expect(stdout).toContain('patient-1 200')
    expect(stdout).toContain('patient-2 200')
    const tokenRequests = sandboxes.smart.requests.filter((request) => request.path === '/token')
    expect(tokenRequests).toHaveLength(1)
  }, 60_000)

  it('backend-services-at-scale with REDIS_URL: two processes, one token request', async () => {
    const redis = await startRedisServer()
    try {
      sandboxes.smart.clearRequests()
      const environment = { ...backendEnvironment(), REDIS_URL: redis.url }
      for (const instance of [1, 2]) {
        const stdout = await run('backend-services-at-scale.ts', environment)
        expect(stdout, `process ${instance}`).toContain('patient-2 200')
      }
      const tokenRequests = sandboxes.smart.requests.filter((request) => request.path === '/token')
      expect(tokenRequests).toHaveLength(1)
    } finally {
      await redis.stop()
    }
  }, 90_000)

  it('crypto-backends: the token request signed by the stand-in KMS signer', async () => {
    const stdout = await run('crypto-backends.ts', backendEnvironment())
    expect(stdout).toContain('granted system/Patient.rs')
  }, 60_000)

  it('errors-and-logging: each failure told apart by its code', async () => {
    const stdout = await run('errors-and-logging.ts', backendEnvironment())
    expect(stdout).toContain('a scope the server refuses: token refused: invalid_scope')
    expect(stdout).toContain(
      'a server that is not there: the server could not be reached or understood',
    )
    expect(stdout).toContain('a timeout of 0 ms: fix the configuration')
  }, 60_000)

  it('registration: registers a key, then gets a token as the new client', async () => {
    const { smart } = sandboxes.description
    const stdout = await run('registration.ts', {
      FHIR_BASE_URL: smart.baseUrl,
      INITIAL_ACCESS_TOKEN: smart.initialAccessToken,
    })
    expect(stdout).toMatch(/^registered \S+$/m)
    expect(stdout).toContain('granted system/Patient.rs to the new client')
  }, 60_000)

  it('key-rotation: a token with the current key, then with the published next key', async () => {
    const { smart } = sandboxes.description
    const stdout = await run('key-rotation.ts', {
      FHIR_BASE_URL: smart.baseUrl,
      INITIAL_ACCESS_TOKEN: smart.initialAccessToken,
    })
    expect(stdout).toContain('current key: granted system/Patient.rs')
    expect(stdout).toContain('next key: granted system/Patient.rs')
    expect(stdout).toMatch(/^published kids: [\w-]{43}, [\w-]{43}$/m)
  }, 60_000)

  it('troubleshooting: every check of client.diagnose, the token request included', async () => {
    const stdout = await run('troubleshooting.ts', backendEnvironment())
    expect(stdout).toMatch(/^discovery\s+pass /m)
    expect(stdout).toMatch(/^token\s+pass a client_credentials token was granted/m)
    expect(stdout).toMatch(/^jwks\s+warn no jwksUri is configured/m)
    expect(stdout).toMatch(/^ok$/m)
  }, 60_000)

  it('standalone-launch: sign in with a pasted redirect, read the patient', async () => {
    const launch = start('standalone-launch.ts', publicClientEnvironment())
    await signInAtPrompt(launch)
    const result = await launch.finished
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('patient patient-1')
    expect(result.stdout).toContain('200: Patient patient-1')
  }, 60_000)

  it('scopes: the grant compared by meaning, a read it allows, a refresh that narrows it', async () => {
    const launch = start('scopes.ts', publicClientEnvironment())
    await signInAtPrompt(launch)
    const result = await launch.finished
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('asks patient/Observation.rs where category=laboratory')
    expect(result.stdout).toContain('granted all it asked')
    expect(result.stdout).toContain('200: Patient patient-1')
    expect(result.stdout).toContain('refreshed with patient/Patient.rs offline_access')
    expect(result.stdout).toMatch(
      /refused before sending: a refresh may only narrow .*patient\/Condition\.rs/,
    )
  }, 60_000)

  it('tokens-over-time: signs in once, then a later run resumes, reads and refreshes', async () => {
    const sessionFile = join(scratch, 'session.json')
    const environment = { ...publicClientEnvironment(), SESSION_FILE: sessionFile }
    const first = start('tokens-over-time.ts', environment)
    await signInAtPrompt(first)
    const signedIn = await first.finished
    expect(signedIn.code, signedIn.stderr).toBe(0)
    const afterSignIn = readFileSync(sessionFile, 'utf8')

    const later = await run('tokens-over-time.ts', environment)
    expect(later).not.toContain('Open this in a browser')
    expect(later).toContain('patient patient-1')
    expect(later).toContain('refreshed: valid until')
    // The rotated refresh token was written back.
    expect(JSON.parse(readFileSync(sessionFile, 'utf8')).raw.refresh_token).not.toBe(
      JSON.parse(afterSignIn).raw.refresh_token,
    )
  }, 90_000)

  it('udap: trusted discovery, a signed registration, a B2B token', async () => {
    const { udap } = sandboxes.description
    const stdout = await run('udap.ts', {
      FHIR_BASE_URL: udap.baseUrl,
      TRUST_ANCHOR_FILE: udap.trustAnchorFile,
      CLIENT_URI: udap.client.clientUri,
      PRIVATE_KEY_FILE: udap.client.keyFile,
      CERTIFICATE_CHAIN_FILE: udap.client.certificateChainFile,
    })
    expect(stdout).toContain(`trusted ${udap.baseUrl}`)
    expect(stdout).toMatch(/^registered \S+$/m)
    expect(stdout).toContain('granted system/*.rs for')
  }, 60_000)

  it('ehr-launch: the EHR launch URL the sandbox prints ends on the patient page', async () => {
    const { smart } = sandboxes.description
    const port = await freePort()
    const server = start('ehr-launch.ts', {
      FHIR_BASE_URL: smart.baseUrl,
      CLIENT_ID: smart.webAppClient.clientId,
      CLIENT_SECRET: smart.webAppClient.clientSecret,
      REDIRECT_URI: smart.webAppClient.redirectUri,
      PORT: String(port),
    })
    try {
      await waitFor(server.stdout, /EHR launch URL/)
      const printed = new URL(smart.webAppClient.ehrLaunchUrl)
      const appOrigin = `http://127.0.0.1:${port}`
      const launch = await fetch(`${appOrigin}${printed.pathname}${printed.search}`, {
        redirect: 'manual',
      })
      expect(launch.status).toBe(302)
      const cookie = (launch.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
      const result = await sandboxes.smart.authorize({ url: launch.headers.get('location') ?? '' })
      if (result.redirectUrl === undefined) throw new Error(`sign-in failed: ${result.error}`)
      const callback = await fetch(
        `${appOrigin}${result.redirectUrl.pathname}${result.redirectUrl.search}`,
        { headers: { cookie } },
      )
      expect(callback.status).toBe(200)
      expect(await callback.text()).toContain(`patient ${smart.webAppClient.ehrLaunchPatient}:`)
      // Another browser (no cookie) cannot complete this browser's sign-in.
      const forged = await fetch(
        `${appOrigin}${result.redirectUrl.pathname}${result.redirectUrl.search}`,
      )
      expect(forged.status).toBe(400)
    } finally {
      server.child.kill('SIGTERM')
      await server.finished
    }
  }, 60_000)

  it('web-apps: the EHR launch URL the sandbox prints ends on the patient page, then signs out', async () => {
    const { smart } = sandboxes.description
    const port = await freePort()
    const server = start('web-apps.ts', {
      EHR_A_BASE_URL: smart.baseUrl,
      EHR_A_CLIENT_ID: smart.webAppClient.clientId,
      EHR_A_CLIENT_SECRET: smart.webAppClient.clientSecret,
      REDIRECT_URI: smart.webAppClient.redirectUri,
      PORT: String(port),
    })
    try {
      await waitFor(server.stdout, /EHR launch URL/)
      const printed = new URL(smart.webAppClient.ehrLaunchUrl)
      const appOrigin = `http://127.0.0.1:${port}`
      const launch = await fetch(`${appOrigin}${printed.pathname}${printed.search}`, {
        redirect: 'manual',
      })
      expect(launch.status).toBe(302)
      const launchCookie = (launch.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
      expect(launchCookie.startsWith('fhir-auth-launch=')).toBe(true)
      const result = await sandboxes.smart.authorize({ url: launch.headers.get('location') ?? '' })
      if (result.redirectUrl === undefined) throw new Error(`sign-in failed: ${result.error}`)
      const callbackPath = `${result.redirectUrl.pathname}${result.redirectUrl.search}`
      // Another browser (no launch cookie) cannot complete this browser's sign-in.
      expect((await fetch(`${appOrigin}${callbackPath}`, { redirect: 'manual' })).status).toBe(403)
      const callback = await fetch(`${appOrigin}${callbackPath}`, {
        headers: { cookie: launchCookie },
        redirect: 'manual',
      })
      expect(callback.status).toBe(302)
      const sessionCookie =
        callback.headers
          .getSetCookie()
          .find((header) => header.startsWith('fhir-auth='))
          ?.split(';')[0] ?? ''
      const page = await fetch(`${appOrigin}/`, { headers: { cookie: sessionCookie } })
      expect(await page.text()).toContain(`patient ${smart.webAppClient.ehrLaunchPatient}:`)
      const logout = await fetch(`${appOrigin}/logout`, {
        method: 'POST',
        headers: { cookie: sessionCookie },
        redirect: 'manual',
      })
      expect(logout.status).toBe(303)
      expect((await fetch(`${appOrigin}/`, { headers: { cookie: sessionCookie } })).status).toBe(
        401,
      )
    } finally {
      server.child.kill('SIGTERM')
      await server.finished
    }
  }, 60_000)
})
