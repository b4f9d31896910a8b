/**
 * `fhir-auth authorize --udap [--idp <url>]` against the UDAP sandboxes: the authorization code
 * of a registered UDAP client (signed authorization endpoint, UDAP authentication token, ID token
 * checked with the nonce sent), Tiered OAuth through a data holder and its identity provider, the
 * split run for scripts (`--url-only`, then `--redirect-url` with `--nonce`), and the usage errors
 * of flags that belong to the other protocol.
 */
import { readFile } from 'node:fs/promises'
import { Client, silentLogger } from '@fhir-auth/client'
import {
  startTieredOAuthSandboxes,
  type TieredOAuthSandboxes,
  type UdapSandbox,
} from '@fhir-auth/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../src/index.js'
import { captureIo, pendingInput, runCli } from './support/cli-harness.js'
import { type TemporaryDirectory, temporaryDirectory } from './support/temporary-files.js'
import { writeClientIdentity, writeTrustFiles } from './support/udap-files.js'

const redirectUri = 'https://app.example.test/callback'
const local = '--allow-insecure-localhost'

let sandboxes: TieredOAuthSandboxes
let files: TemporaryDirectory
/** `--key`, `--cert`… of the app registered at the data holder. */
let identityFlags: string[]
let trustFlags: string[]
let clientId: string

beforeAll(async () => {
  ;[sandboxes, files] = await Promise.all([startTieredOAuthSandboxes(), temporaryDirectory()])
  const { dataHolder } = sandboxes
  const clientUri = 'https://app.example.test/cli'
  const identity = await writeClientIdentity(files, dataHolder, clientUri, 'cli-app')
  identityFlags = identity.flags
  trustFlags = await writeTrustFiles(files, dataHolder.trust)
  // The app registers through the library (the register command has its own tests).
  const [leafFlag, leaf, issuerFlag, issuer] = identity.flags.slice(2)
  expect([leafFlag, issuerFlag]).toEqual(['--cert', '--cert'])
  const certificates = [
    await readFile(leaf as string, 'utf8'),
    new Uint8Array(await readFile(issuer as string)),
  ]
  const registrar = new Client(
    {
      baseUrl: dataHolder.fhirBaseUrl,
      allowInsecureLocalhost: true,
      privateKey: identity.privateKeyPem,
      certificateChain: certificates,
    },
    { protocol: 'udap', logger: silentLogger },
  )
  const registration = await registrar.registerClient(
    {
      client_name: 'fhir-auth CLI test app',
      contacts: ['mailto:ops@example.test'],
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: [redirectUri],
      logo_uri: 'https://app.example.test/logo.png',
      scope: 'openid fhirUser udap user/*.rs',
    },
    {
      clientUri,
      trustedAnchors: dataHolder.trust.anchors.map((anchor) => anchor.pem),
      crls: dataHolder.trust.crls.map((crl) => crl.pem),
    },
  )
  clientId = registration.client_id
})
afterAll(async () => {
  await Promise.all([sandboxes?.close(), files?.remove()])
})

function udapArguments(...extra: string[]): string[] {
  return [
    'authorize',
    '--udap',
    '--base-url',
    sandboxes.dataHolder.fhirBaseUrl,
    '--client-id',
    clientId,
    '--redirect-uri',
    redirectUri,
    '--scope',
    'openid fhirUser user/*.rs',
    ...identityFlags,
    ...trustFlags,
    local,
    ...extra,
  ]
}

/** Runs `authorize --json` in-process; the data holder's user agent signs in; the URL is pasted. */
async function authorizeWithJson(argv: readonly string[], sandbox: UdapSandbox) {
  const stdin = pendingInput()
  const capture = captureIo({ stdin: stdin.input })
  const exitCode = run(argv, capture.io)
  const request = JSON.parse(await capture.firstStdoutLine()).authorizationRequest
  const result = await sandbox.authorize(
    request.method === 'post' ? { endpoint: request.endpoint, params: request.params } : request,
  )
  stdin.send(`${result.redirectUrl?.href ?? ''}\n`)
  return { exitCode: await exitCode, stdout: capture.stdout(), stderr: capture.stderr(), request }
}

describe('authorize --udap', () => {
  it('signs in, exchanges the code with a UDAP authentication token and checks the ID token', async () => {
    const { dataHolder } = sandboxes
    const tokensBefore = dataHolder.authenticationTokens.length
    const result = await authorizeWithJson(udapArguments('--json', '--verbose'), dataHolder)
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.request.url.startsWith(`${dataHolder.endpoints.authorization}?`)).toBe(true)
    const parameters = new URL(result.request.url).searchParams
    expect(parameters.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(parameters.has('aud')).toBe(false)
    const token = JSON.parse(result.stdout.trim().split('\n')[1] as string)
    expect(token).toMatchObject({ token_type: 'Bearer', scope: 'openid fhirUser user/*.rs' })
    const { idTokenClaims } = JSON.parse(result.stdout.trim().split('\n')[2] as string)
    expect(idTokenClaims).toMatchObject({
      iss: dataHolder.issuer,
      sub: 'udap-user-1',
      nonce: parameters.get('nonce'),
    })
    expect(result.stderr).not.toContain(token.access_token)
    const [exchange] = dataHolder.authenticationTokens.slice(tokensBefore)
    expect(exchange).toMatchObject({
      grantType: 'authorization_code',
      accepted: true,
      authorizationHeader: false,
      clientId,
    })
    expect(exchange?.claims).not.toHaveProperty('extensions')
  })

  it('--idp: Tiered OAuth through the identity provider, authorize-post', async () => {
    const { dataHolder, identityProvider } = sandboxes
    const result = await authorizeWithJson(
      udapArguments('--idp', identityProvider.issuer, '--post', '--json'),
      dataHolder,
    )
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.request).toMatchObject({
      method: 'post',
      endpoint: dataHolder.endpoints.authorization,
      params: { idp: identityProvider.issuer, scope: 'openid fhirUser user/*.rs udap' },
    })
    expect(dataHolder.tieredLogins.at(-1)).toMatchObject({
      outcome: 'code',
      identity: { issuer: identityProvider.issuer },
    })
    expect(JSON.parse(result.stdout.trim().split('\n')[1] as string).scope).toContain('udap')
  })

  it('exits 1 with invalid_idp when the data holder cannot use the identity provider', async () => {
    sandboxes.dataHolder.setHostile('invalid-idp')
    try {
      const result = await authorizeWithJson(
        udapArguments('--idp', sandboxes.identityProvider.issuer, '--json'),
        sandboxes.dataHolder,
      )
      expect(result.exitCode).toBe(1)
      expect(result.stderr).toMatch(
        /^error: authorization failed: invalid_idp \(the requested identity provider cannot be used/,
      )
    } finally {
      sandboxes.dataHolder.setHostile(undefined)
    }
  })
})

describe('authorize --udap for scripts (--url-only, then --redirect-url with --nonce)', () => {
  async function splitRun(nonceOf: (printed: string) => string) {
    const first = await runCli(udapArguments('--url-only', '--json'))
    expect(first.exitCode, first.stderr).toBe(0)
    const { authorizationRequest, state, codeVerifier, nonce } = JSON.parse(first.stdout)
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const authorized = await sandboxes.dataHolder.authorize({ url: authorizationRequest.url })
    return runCli(
      udapArguments(
        '--redirect-url',
        authorized.redirectUrl?.href ?? '',
        '--state',
        state,
        '--code-verifier-env',
        'CODE_VERIFIER',
        '--nonce',
        nonceOf(nonce),
        '--json',
      ),
      { env: { CODE_VERIFIER: codeVerifier } },
    )
  }

  it('exchanges the code and checks the ID token against the printed nonce', async () => {
    const second = await splitRun((nonce) => nonce)
    expect(second.exitCode, second.stderr).toBe(0)
    expect(JSON.parse(second.stdout)).toMatchObject({ token_type: 'Bearer' })
  })

  it('exits 1 when the ID token carries another nonce', async () => {
    const second = await splitRun((nonce) => `${nonce}x`)
    expect(second.exitCode).toBe(1)
    // With --json the error is the one JSON document on stdout; no token response is printed.
    expect(JSON.parse(second.stdout)).toEqual({
      error: expect.objectContaining({ name: 'IdTokenError', reason: 'nonce' }),
    })
  })
})

describe('authorize: flags of the other protocol are usage errors (exit 2, nothing sent)', () => {
  it.each([
    {
      flags: ['--launch', 'abc'],
      message: /--launch is a SMART option and cannot be used with --udap/,
    },
    { flags: ['--kid', 'k-1'], message: /--kid is a SMART option/ },
    { flags: ['--client-secret-env', 'SECRET'], message: /--client-secret-env is a SMART option/ },
  ])('--udap with $flags.0', async ({ flags, message }) => {
    const requestsBefore = sandboxes.dataHolder.requests.length
    const result = await runCli(udapArguments(...flags, '--url-only'))
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toMatch(message)
    expect(sandboxes.dataHolder.requests.length).toBe(requestsBefore)
  })

  it.each([
    ['--idp', 'https://idp.example.test'],
    ['--trust-anchor', 'anchors.pem'],
  ])('%s without --udap', async (flag, value) => {
    const result = await runCli([
      'authorize',
      '--base-url',
      'https://ehr.example.test/fhir',
      '--client-id',
      'app',
      '--redirect-uri',
      redirectUri,
      flag,
      value,
    ])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain(`${flag} is a UDAP option: add --udap`)
  })

  it('--nonce only with --redirect-url', async () => {
    const result = await runCli(udapArguments('--nonce', 'n', '--url-only'))
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toMatch(/--nonce/)
  })
})
