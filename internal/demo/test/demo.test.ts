import { readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type SmartSandbox, startSmartSandbox } from '@fhir-auth/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sandboxFlows } from '../src/sandbox-walk.js'
import { type LedgerEntry, scrubMarker, secretsFileVariable } from '../src/secret-ledger.js'
import { type DemoProcessResult, runDemoProcess } from './run-demo-process.js'

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC.
const ansiEscape = /\u001b\[/

const secretsFile = join(tmpdir(), `fhir-auth-demo-secrets-${process.pid}.json`)
let sandbox: SmartSandbox
let runs: {
  readonly walk: DemoProcessResult
  readonly help: DemoProcessResult
  readonly timedOut: DemoProcessResult
  readonly remote: DemoProcessResult
}

// The demo processes run side by side: each spends most of its time starting Node and tsx.
// Command line errors and an unreachable --base-url are tested in-process (src/run-demo.test.ts).
beforeAll(async () => {
  sandbox = await startSmartSandbox()
  const [walk, help, timedOut, remote] = await Promise.all([
    runDemoProcess([], { [secretsFileVariable]: secretsFile }),
    runDemoProcess(['--help']),
    runDemoProcess(['--timeout', '0.001']),
    runDemoProcess(['--base-url', sandbox.fhirBaseUrl]),
  ])
  runs = { walk, help, timedOut, remote }
}, 30_000)

afterAll(async () => {
  await sandbox.close()
  await rm(secretsFile, { force: true })
})

describe('pnpm demo (the sandbox walk, end to end)', () => {
  it('exits 0 with nothing on stderr and ends with the summary line', () => {
    const { walk } = runs
    expect(walk.stderr).toBe('')
    expect(walk.exitCode).toBe(0)
    expect(walk.stdout).toMatch(
      new RegExp(`\\n${sandboxFlows.length} flows, all passed in \\d+\\.\\d s\\n`),
    )
  })

  it('shows every section heading, numbered, in order', () => {
    expect(sandboxFlows).toHaveLength(14)
    let previous = -1
    sandboxFlows.forEach((flow, index) => {
      const heading = `\n${String(index + 1).padStart(2)}. ${flow.title}\n`
      const position = runs.walk.stdout.indexOf(heading)
      expect(position, heading).toBeGreaterThan(previous)
      previous = position
    })
  })

  it('never prints a secret it used, nor needs the scrub to hide one', async () => {
    const written = JSON.parse(await readFile(secretsFile, 'utf8')) as { secrets: LedgerEntry[] }
    const labels = written.secrets.map((entry) => entry.label)
    // The scan is only as good as the ledger: every kind of secret must be in it.
    for (const kind of [
      'symmetric client secret',
      'SMART initial access token',
      'ES384 client key',
      'RS384 client key (line 1)',
      'UDAP client key',
      'fhir-auth demo consumer app key',
      'fhir-auth demo data holder key',
      'state',
      'PKCE code verifier',
      'authorization code',
      'request form client_assertion',
      'response body.access_token',
      'response body.refresh_token',
      'response body.id_token',
      'request body.software_statement',
      'Basic credentials',
      'Authorization header',
    ]) {
      expect(labels, kind).toContain(kind)
    }
    const output = `${runs.walk.stdout}\n${runs.walk.stderr}`
    const leaked = written.secrets
      .filter((entry) => output.includes(entry.value))
      .map((entry) => entry.label)
    expect(leaked).toEqual([])
    expect(output).not.toContain(scrubMarker)
  })

  it('shows secrets as length and fingerprint, and client authentication decoded', () => {
    const { stdout } = runs.walk
    expect(stdout).toMatch(/access_token {2,}\[REDACTED\] 43 chars #[0-9a-f]{6}/)
    expect(stdout).toContain('Basic [REDACTED] base64(client_id ":" client_secret)')
    expect(stdout).toMatch(/client_assertion +\[REDACTED\] \d+ chars #[0-9a-f]{6} \(JWT\), decoded/)
    expect(stdout).toMatch(/header +\{"alg":"ES384","typ":"JWT","kid":/)
    expect(stdout).toMatch(/header +\{"alg":"RS384","typ":"JWT","kid":/)
    expect(stdout).toContain('⚠ logger.warn: SMART backend services: no scopes given')
    expect(stdout).toContain("DiscoveryError, cause CertificateChainError reason 'revoked'")
  })

  it('is plain text under NO_COLOR', () => {
    expect(runs.walk.stdout).not.toMatch(ansiEscape)
  })
})

/** The transcript of one section: from its heading to the next one (or the summary). */
function section(number: number): string {
  const { stdout } = runs.walk
  const start = stdout.indexOf(`\n${String(number).padStart(2)}. `)
  const end = stdout.indexOf(`\n${String(number + 1).padStart(2)}. `, start + 1)
  expect(start).toBeGreaterThan(-1)
  return stdout.slice(start, end === -1 ? stdout.lastIndexOf('\n14 flows') : end)
}

describe('pnpm demo: the SMART launches (sections 2 to 4)', () => {
  it.each([2, 3, 4])(
    'section %i launches with beginAuthorization and lets completeAuthorization check state',
    (number) => {
      const text = section(number)
      expect(text).toMatch(/client\.beginAuthorization\(\{ store[ ,]/)
      expect(text).toContain('client.completeAuthorization(callbackUrl, { store })')
      expect(text).toContain("state is this launch's, iss the server's (RFC 9207)")
      // No authorization URL built by hand, no state compared by the app.
      expect(text).not.toContain('client.authorizationUrl(')
      expect(text).not.toContain('client.requestAccessToken(')
      expect(text).not.toContain('state in the redirect equals')
    },
  )
})

describe('pnpm demo: the UDAP authorization-code sections (12 to 14)', () => {
  /** The decoded client_assertion claim names of each token request in a section. */
  function assertionClaimNames(text: string): string[][] {
    return text
      .split('client_assertion       [REDACTED]')
      .slice(1)
      .map((block) => {
        const rows = block.split('\n    udap ')[0] ?? ''
        return [...rows.matchAll(/^ {6}(\w+) /gm)].map((match) => match[1] as string)
      })
  }

  it('12: a b2c app signs in with a nonce, reads FHIR through the session and refreshes', () => {
    const text = section(12)
    expect(text).toContain("new Client(config, { protocol: 'udap', flow: 'b2c' })")
    expect(text).toMatch(
      /client\.beginAuthorization\(\{ store \}\)\n {2}→ GET http:\/\/127\.0\.0\.1:\d+\/authorize/,
    )
    expect(text).toMatch(/\n {4}nonce {18}[A-Za-z0-9_-]{43}\n/)
    expect(text).not.toMatch(/\n {4}(aud|launch) /)
    expect(text).toContain('aud = client_id, nonce = the one sent')
    expect(text).toContain("session.fetch('Patient/patient-1')")
    expect(text).toMatch(
      /refreshed with a new authentication token: refresh token #[0-9a-f]{6} replaces #[0-9a-f]{6}/,
    )
    expect(text).toContain(
      'a b2c client has no client credentials: ConfigurationError on flow, nothing sent',
    )
    // Code exchange and refresh: authentication tokens without extensions.
    const claims = assertionClaimNames(text)
    expect(claims).toHaveLength(2)
    for (const names of claims)
      expect(names).toEqual(['header', 'x5c', 'iss', 'sub', 'aud', 'iat', 'exp', 'jti'])
  })

  it('13: interactive B2B by authorize-POST, ES384, no extensions', () => {
    const text = section(13)
    expect(text).toContain("client.authorizationUrl({ method: 'post' })")
    expect(text).toContain('client.completeAuthorization(callbackUrl, { state, codeVerifier })')
    expect(text).not.toContain('state in the redirect equals')
    expect(text).toContain('/authorize  the browser submits this form (authUrl + params)')
    expect(text).toContain('header  {"alg":"ES384"}')
    expect(assertionClaimNames(text)).toEqual([
      ['header', 'x5c', 'iss', 'sub', 'aud', 'iat', 'exp', 'jti'],
    ])
    expect(text).toContain('no refresh token (none registered)')
  })

  it('14: Tiered OAuth as the app and as the data holder', () => {
    const text = section(14)
    expect(text).toContain('client.beginAuthorization({ store, idp })')
    expect(text).toMatch(
      /\n {4}scope {18}openid fhirUser user\/\*\.rs udap\n {4}idp {20}http:\/\/127\.0\.0\.1:\d+\/fhir\n/,
    )
    expect(text).toContain('and the library added the udap scope')
    expect(text).toMatch(
      /the data holder signed the user in at http:\/\/127\.0\.0\.1:\d+\/fhir \(sub udap-user-1\)/,
    )
    expect(text).toContain('AuthorizationError invalid_idp: the app may retry with another idp')
    expect(text).toContain("client.registerClient({ …, scope: 'openid udap' }")
    expect(text).toContain(
      "IdP ID token verified with the IdP's keys (iss = idp, aud = this client, nonce); no refresh token",
    )
    expect(text).toMatch(
      /map \(iss, sub\) = \(http:\/\/127\.0\.0\.1:\d+\/fhir, udap-user-1\) to a local user/,
    )
  })
})

describe('pnpm demo --help and the time limit', () => {
  it('prints the usage and exits 0', () => {
    const { help } = runs
    expect(help.exitCode).toBe(0)
    expect(help.stderr).toBe('')
    expect(help.stdout).toContain('Usage')
    for (const option of ['--base-url', '--trust-anchor', '--crl', '--timeout', '--no-color']) {
      expect(help.stdout).toContain(option)
    }
  })

  it('gives up at the time limit with exit 1 and one line, instead of hanging', () => {
    const { timedOut } = runs
    expect(timedOut.exitCode).toBe(1)
    expect(timedOut.stderr).toBe('fhir-auth demo timed out after 0.001 s in start-up\n')
  })
})

describe('pnpm demo --base-url (a real server: discovery only)', () => {
  it('runs SMART discovery, says why UDAP was skipped, and exits 0', () => {
    const { remote } = runs
    expect(remote.stderr).toBe('')
    expect(remote.exitCode).toBe(0)
    expect(remote.stdout).toContain(`against ${sandbox.fhirBaseUrl}`)
    expect(remote.stdout).toContain(' 1. SMART discovery\n')
    expect(remote.stdout).toContain(`→ GET ${sandbox.endpoints.discovery}\n`)
    expect(remote.stdout).toContain('✔ supportsPkceS256')
    expect(remote.stdout).toContain(' 2. UDAP discovery\n')
    expect(remote.stdout).toContain('pass --trust-anchor <pem file> and --crl <file>')
    expect(remote.stdout).toMatch(/\n2 flows: 1 passed, 1 skipped in \d+\.\d s\n/)
    // Discovery only: the sandbox saw one request and the demo started no sandbox of its own.
    expect(remote.stdout).not.toContain('SMART sandbox')
    expect(sandbox.requests.map((request) => request.path)).toEqual([
      '/fhir/.well-known/smart-configuration',
    ])
  })
})
