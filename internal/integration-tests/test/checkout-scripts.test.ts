/**
 * The root scripts a person uses from a checkout, run as they would run them: `pnpm sandbox`
 * (both sandboxes, the files and clients it prints work with `Client`, Ctrl-C stops it and
 * removes its files) and `pnpm -s fhir-auth` (the CLI from sources, stdout clean for `--json`).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client, silentLogger } from '@fhir-auth/client'
import {
  type LocalSandboxesDescription,
  localSandboxesSummary,
  startLocalSandboxes,
} from '@fhir-auth/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..', '..')

interface Finished {
  readonly exitCode: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

/** Starts `pnpm <args>` at the repository root in its own process group (as a terminal would). */
function pnpm(args: readonly string[]) {
  const child = spawn('pnpm', args, {
    cwd: root,
    detached: true,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const finished = new Promise<Finished>((resolve) => {
    child.on('close', (exitCode, signal) => resolve({ exitCode, signal, stdout, stderr }))
  })
  return { child, finished, stdout: () => stdout, stderr: () => stderr }
}

/** Waits for a line of stdout that `accept` parses, failing after `timeoutMs`. */
async function firstLine<T>(
  output: () => string,
  accept: (line: string) => T | undefined,
  timeoutMs: number,
  describeFailure: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    for (const line of output().split('\n')) {
      const accepted = accept(line)
      if (accepted !== undefined) return accepted
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no expected line within ${timeoutMs} ms: ${describeFailure()}`)
}

/** Ctrl-C in a terminal: SIGINT to the whole foreground process group. */
function pressCtrlC(child: ChildProcess): void {
  if (child.pid !== undefined) process.kill(-child.pid, 'SIGINT')
}

describe('pnpm sandbox', () => {
  let run: ReturnType<typeof pnpm>
  let description: LocalSandboxesDescription

  beforeAll(async () => {
    run = pnpm(['sandbox', '--json'])
    description = await firstLine(
      run.stdout,
      (line) =>
        line.startsWith('{') ? (JSON.parse(line) as LocalSandboxesDescription) : undefined,
      60_000,
      () => run.stderr(),
    )
  }, 90_000)

  afterAll(async () => {
    if (run.child.exitCode === null && run.child.signalCode === null) pressCtrlC(run.child)
    await run.finished
  })

  it('prints base URLs, the trust anchor and CRL files, and a ready client of each kind', () => {
    const { smart, udap } = description
    expect(smart.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/fhir$/)
    expect(udap.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/fhir$/)
    expect(readFileSync(udap.trustAnchorFile, 'utf8')).toContain('-----BEGIN CERTIFICATE-----')
    expect(udap.crlFiles.length).toBeGreaterThan(0)
    for (const file of udap.crlFiles) {
      expect(readFileSync(file, 'utf8')).toContain('-----BEGIN X509 CRL-----')
    }
    expect(readFileSync(smart.backendClient.keyFile, 'utf8')).toContain('PRIVATE KEY')
    expect(readFileSync(udap.client.keyFile, 'utf8')).toContain('PRIVATE KEY')
    expect(readFileSync(udap.client.certificateChainFile, 'utf8')).toContain('CERTIFICATE')
  })

  it('its SMART backend client gets a token with the printed key file and kid', async () => {
    const { smart } = description
    const client = new Client(
      {
        baseUrl: smart.baseUrl,
        allowInsecureLocalhost: true,
        clientId: smart.backendClient.clientId,
        privateKey: readFileSync(smart.backendClient.keyFile, 'utf8'),
        kid: smart.backendClient.kid,
        scopes: [smart.backendClient.scope],
      },
      { clientType: 'confidential_asymmetric', logger: silentLogger },
    )
    expect((await client.requestBackendToken()).scope).toBe(smart.backendClient.scope)
  })

  it.each(['symmetricClient', 'webAppClient'] as const)(
    'its SMART %s authenticates with the printed secret',
    async (kind) => {
      const { smart } = description
      const client = (clientSecret: string) =>
        new Client(
          {
            baseUrl: smart.baseUrl,
            allowInsecureLocalhost: true,
            clientId: smart[kind].clientId,
            clientSecret,
            redirectUri:
              kind === 'webAppClient' ? smart.webAppClient.redirectUri : smart.redirectUri,
          },
          { clientType: 'confidential_symmetric', logger: silentLogger },
        )
      // A refresh token nobody issued: invalid_grant once the client is authenticated,
      // invalid_client when it is not.
      const refresh = (clientSecret: string) =>
        client(clientSecret)
          .refreshToken({ refreshToken: 'never-issued-refresh-token' })
          .catch((error: unknown) => error)
      expect(await refresh(smart[kind].clientSecret)).toMatchObject({
        error: 'invalid_grant',
      })
      expect(await refresh('not-the-printed-secret')).toMatchObject({ error: 'invalid_client' })
    },
  )

  it('its UDAP trust files validate the metadata, and its client gets an unregistered token', async () => {
    const { udap } = description
    const trust = {
      trustedAnchors: [readFileSync(udap.trustAnchorFile, 'utf8')],
      crls: udap.crlFiles.map((file) => readFileSync(file, 'utf8')),
    }
    const chain = readFileSync(udap.client.certificateChainFile, 'utf8')
      .split(/(?<=-----END CERTIFICATE-----\n)/)
      .filter((block) => block.includes('BEGIN'))
    const client = new Client(
      {
        baseUrl: udap.baseUrl,
        allowInsecureLocalhost: true,
        scopes: ['system/*.rs'],
        privateKey: readFileSync(udap.client.keyFile, 'utf8'),
        certificateChain: chain,
      },
      { protocol: 'udap', logger: silentLogger },
    )
    const metadata = await client.serverMetadata(trust)
    expect(metadata.signedClaims.iss).toBe(udap.baseUrl)
    const token = await client.requestBackendToken({
      clientUri: udap.client.clientUri,
      b2b: { organizationId: udap.b2b.organizationId, purposeOfUse: [udap.b2b.purposeOfUse] },
      ...trust,
    })
    expect(token.token_type).toBe('Bearer')
  })

  it('stops on Ctrl-C, closes both servers and removes its files', async () => {
    pressCtrlC(run.child)
    const finished = await run.finished
    expect(finished.signal ?? finished.exitCode, finished.stderr).toBeDefined()
    expect(existsSync(description.directory)).toBe(false)
    for (const baseUrl of [description.smart.baseUrl, description.udap.baseUrl]) {
      await expect(fetch(`${baseUrl}/.well-known/smart-configuration`)).rejects.toThrow()
    }
  })
})

describe('the summary pnpm sandbox prints for a person', () => {
  it('names every URL and file, and the commands to try use them', async () => {
    const sandboxes = await startLocalSandboxes()
    try {
      const { smart, udap } = sandboxes.description
      const text = localSandboxesSummary(sandboxes.description)
      for (const value of [
        smart.baseUrl,
        udap.baseUrl,
        udap.trustAnchorFile,
        ...udap.crlFiles,
        smart.backendClient.keyFile,
        smart.backendClient.kid,
        smart.symmetricClient.clientSecret,
        udap.client.keyFile,
        udap.client.certificateChainFile,
        'Ctrl-C',
        'npx -y pnpm@10 -s fhir-auth token --udap',
      ]) {
        expect(text).toContain(value)
      }
    } finally {
      await sandboxes.close()
    }
    expect(existsSync(sandboxes.description.directory)).toBe(false)
  })
})

describe('pnpm settings of the checkout', () => {
  it('turn the update notifier off, so no box interrupts the quick start or CLI output', () => {
    expect(readFileSync(join(root, '.npmrc'), 'utf8')).toMatch(/^update-notifier=false$/m)
  })
})

describe('pnpm -s fhir-auth', () => {
  it('runs the CLI from sources; stdout carries only its output', async () => {
    const version = pnpm(['-s', 'fhir-auth', '--version'])
    const finished = await version.finished
    expect(finished.exitCode, finished.stderr).toBe(0)
    const manifest = JSON.parse(
      readFileSync(join(root, 'packages', 'cli', 'package.json'), 'utf8'),
    ) as { version: string }
    expect(finished.stdout).toBe(`${manifest.version}\n`)
  }, 60_000)

  it('discovers from a sandbox with --json on a clean stdout', async () => {
    const sandboxes = await startLocalSandboxes()
    try {
      const discover = pnpm([
        '-s',
        'fhir-auth',
        'discover',
        sandboxes.description.smart.baseUrl,
        '--allow-insecure-localhost',
        '--json',
      ])
      const finished = await discover.finished
      expect(finished.exitCode, finished.stderr).toBe(0)
      expect(JSON.parse(finished.stdout)).toMatchObject({
        protocol: 'smart',
        baseUrl: sandboxes.description.smart.baseUrl,
      })
    } finally {
      await sandboxes.close()
    }
  }, 60_000)
})
