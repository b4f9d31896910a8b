/**
 * What `pnpm sandbox` hands a person beyond the servers: CRLs labelled (the two a UDAP client
 * needs apart from those of the hostile test CAs), commands that need only Node and npm, and
 * with `--udap-tiered` the demo's data holder and identity provider with files that let an app
 * register and sign in by Tiered OAuth through `Client`.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { Client, memoryStore, silentLogger } from '@fhir-auth/client'
import {
  type LocalSandboxes,
  type LocalSandboxesDescription,
  localSandboxesSummary,
  startLocalSandboxes,
} from '@fhir-auth/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..', '..')

type UdapFiles = LocalSandboxesDescription['udap']

function trustOf(files: Pick<UdapFiles, 'trustAnchorFile' | 'crlFiles'>) {
  return {
    trustedAnchors: [readFileSync(files.trustAnchorFile, 'utf8')],
    crls: files.crlFiles.map((file) => readFileSync(file, 'utf8')),
  }
}

function certificateChainOf(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split(/(?<=-----END CERTIFICATE-----\n)/)
    .filter((block) => block.includes('BEGIN'))
}

describe('pnpm sandbox --udap-tiered', () => {
  let sandboxes: LocalSandboxes
  beforeAll(async () => {
    sandboxes = await startLocalSandboxes({ udapTiered: true })
  }, 60_000)
  afterAll(async () => {
    await sandboxes?.close()
  })

  it('labels the CRLs: the root and intermediate ones, apart from the hostile test CAs', () => {
    const { udap } = sandboxes.description
    expect(udap.crlFiles.map((file) => basename(file))).toEqual([
      'udap-crl-root.pem',
      'udap-crl-intermediate.pem',
    ])
    // The sandbox's current CRLs, all of them written: two needed, the rest its test CAs'.
    expect(udap.crlFiles.length + udap.hostileTestCaCrlFiles.length).toBe(
      sandboxes.udap.trust.crls.length,
    )
    expect(udap.hostileTestCaCrlFiles.length).toBeGreaterThan(0)
    for (const file of [...udap.crlFiles, ...udap.hostileTestCaCrlFiles]) {
      expect(readFileSync(file, 'utf8')).toContain('-----BEGIN X509 CRL-----')
    }
    const text = localSandboxesSummary(sandboxes.description)
    expect(text).toContain(`CRLs                  ${udap.crlFiles.join('\n')}`.split('\n')[0])
    expect(text).toContain('all a client needs')
    expect(text).toContain('hostile test certificates, for its test suite: not needed here')
  })

  it('a UDAP B2B client needs only the two labelled CRLs', async () => {
    const { udap } = sandboxes.description
    const client = new Client(
      {
        baseUrl: udap.baseUrl,
        allowInsecureLocalhost: true,
        scopes: ['system/*.rs'],
        privateKey: readFileSync(udap.client.keyFile, 'utf8'),
        certificateChain: certificateChainOf(udap.client.certificateChainFile),
      },
      { protocol: 'udap', logger: silentLogger },
    )
    const token = await client.requestBackendToken({
      clientUri: udap.client.clientUri,
      b2b: { organizationId: udap.b2b.organizationId, purposeOfUse: [udap.b2b.purposeOfUse] },
      ...trustOf(udap),
    })
    expect(token.token_type).toBe('Bearer')
  })

  it('prints the data holder and the idp, and its files let an app register and sign in there', async () => {
    const tiered = sandboxes.description.udapTiered
    if (tiered === undefined) throw new Error('no udapTiered in the description')
    const { dataHolder, identityProvider } = tiered
    expect(dataHolder.baseUrl).toBe(sandboxes.udapTiered?.dataHolder.fhirBaseUrl)
    expect(identityProvider.baseUrl).toBe(sandboxes.udapTiered?.identityProvider.issuer)
    expect(dataHolder.crlFiles.map((file) => basename(file))).toEqual([
      'udap-tiered-crl-root.pem',
      'udap-tiered-crl-intermediate.pem',
    ])

    const trust = trustOf(dataHolder)
    const identity = {
      privateKey: readFileSync(dataHolder.client.keyFile, 'utf8'),
      certificateChain: certificateChainOf(dataHolder.client.certificateChainFile),
    }
    const registrar = new Client(
      { baseUrl: dataHolder.baseUrl, allowInsecureLocalhost: true, ...identity },
      { protocol: 'udap', logger: silentLogger },
    )
    const registration = await registrar.registerClient(
      {
        client_name: 'fhir-auth sandbox Tiered OAuth app',
        contacts: ['mailto:admin@tiered-app.sandbox.example'],
        grant_types: ['authorization_code', 'refresh_token'],
        redirect_uris: [dataHolder.redirectUri],
        logo_uri: 'https://tiered-app.sandbox.example/logo.png',
        scope: 'openid fhirUser udap user/*.rs',
      },
      { clientUri: dataHolder.client.clientUri, ...trust },
    )
    const app = new Client(
      {
        baseUrl: dataHolder.baseUrl,
        allowInsecureLocalhost: true,
        clientId: registration.client_id,
        redirectUri: dataHolder.redirectUri,
        scopes: ['openid', 'fhirUser', 'user/*.rs'],
        ...identity,
      },
      { protocol: 'udap', flow: 'tiered_oauth', logger: silentLogger },
    )
    const store = memoryStore()
    const { authUrl } = await app.beginAuthorization({
      store,
      idp: identityProvider.baseUrl,
      ...trust,
    })
    const signIn = await sandboxes.udapTiered?.dataHolder.authorize({ url: authUrl })
    if (signIn?.redirectUrl === undefined) throw new Error(`sign-in failed: ${signIn?.error}`)
    const session = await app.completeAuthorization(signIn.redirectUrl, { store, ...trust })
    expect(session.tokens.idTokenClaims?.iss).toBe(dataHolder.baseUrl)
    expect(sandboxes.udapTiered?.dataHolder.tieredLogins.at(-1)?.identity?.issuer).toBe(
      identityProvider.baseUrl,
    )
  })

  it('prints the register and Tiered OAuth authorize commands with --idp, through npx', () => {
    const tiered = sandboxes.description.udapTiered
    const text = localSandboxesSummary(sandboxes.description)
    expect(text).toContain(
      `npx -y pnpm@10 -s fhir-auth register --udap --base-url ${tiered?.dataHolder.baseUrl} --client-uri ${tiered?.dataHolder.client.clientUri}`,
    )
    expect(text).toContain(`--idp ${tiered?.identityProvider.baseUrl}`)
    expect(text).not.toMatch(/^ {2}pnpm /m)
  })
})

describe('the sandbox script with --udap-tiered', () => {
  it('starts the Tiered OAuth pair and prints it in its JSON line; Ctrl-C stops it', async () => {
    const child = spawn('pnpm', ['sandbox', '--udap-tiered', '--json'], {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    const finished = new Promise((resolve) => child.on('close', resolve))
    try {
      const jsonLine = () =>
        stdout
          .split('\n')
          .find((line, index, lines) => line.startsWith('{') && index < lines.length - 1)
      const deadline = Date.now() + 60_000
      while (jsonLine() === undefined && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      const description = JSON.parse(jsonLine() ?? '') as LocalSandboxesDescription
      const dataHolder = description.udapTiered?.dataHolder.baseUrl ?? ''
      const discovery = await fetch(`${dataHolder}/.well-known/udap`)
      expect(discovery.status).toBe(200)
      expect(await discovery.json()).toMatchObject({
        grant_types_supported: expect.arrayContaining(['authorization_code']),
      })
    } finally {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGINT')
      await finished
    }
  }, 90_000)

  it('refuses an unknown flag with its usage, which names --udap-tiered', async () => {
    const child = spawn('pnpm', ['-s', 'sandbox', '--udap-tierd'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    const exitCode = await new Promise((resolve) => child.on('close', resolve))
    expect(exitCode).not.toBe(0)
    expect(stderr).toContain('usage: pnpm sandbox [--json] [--dir <directory>] [--udap-tiered]')
  }, 60_000)
})
