import {
  type ClientKeys,
  generateClientKeys,
  type SmartSandbox,
  sandboxDefaultRedirectUri,
  startSmartSandbox,
} from '@fhir-auth/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from '../src/index.js'
import { captureIo, lastRequestTo, pendingInput, runCli } from './support/cli-harness.js'
import { type TemporaryDirectory, temporaryDirectory } from './support/temporary-files.js'

let sandbox: SmartSandbox
let files: TemporaryDirectory
let keys: ClientKeys
let keyFile: string

const local = '--allow-insecure-localhost'
const clientSecret = 'cli-symmetric-secret-0123456789'

beforeAll(async () => {
  keys = await generateClientKeys('RS384')
  ;[sandbox, files] = await Promise.all([
    startSmartSandbox({
      clients: [
        { client_id: 'cli-public', token_endpoint_auth_method: 'none' },
        {
          client_id: 'cli-symmetric',
          token_endpoint_auth_method: 'client_secret_basic',
          client_secret: clientSecret,
        },
        {
          client_id: 'cli-asymmetric',
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: [keys.publicJwk] },
        },
      ],
    }),
    temporaryDirectory(),
  ])
  keyFile = await files.write('asymmetric-key.pem', keys.privateKeyPem)
})
afterAll(async () => {
  await Promise.all([sandbox?.close(), files?.remove()])
})

function authorizeArguments(clientId: string, ...extra: string[]): string[] {
  return [
    'authorize',
    '--base-url',
    sandbox.fhirBaseUrl,
    '--client-id',
    clientId,
    '--redirect-uri',
    sandboxDefaultRedirectUri,
    '--scope',
    'launch/patient openid fhirUser patient/*.rs',
    local,
    ...extra,
  ]
}

/**
 * Runs `authorize` in-process as a person would: waits for the request on stdout, lets the
 * sandbox's headless user agent sign in, and pastes the redirect URL on stdin.
 */
async function authorizeInteractively(
  argv: readonly string[],
  options: { readonly env?: Record<string, string>; readonly decision?: 'approve' | 'deny' } = {},
) {
  const stdin = pendingInput()
  const capture = captureIo({ stdin: stdin.input, env: options.env ?? {} })
  const exitCode = run(argv, capture.io)
  const isJson = argv.includes('--json')
  const request = isJson
    ? JSON.parse(await capture.firstStdoutLine()).authorizationRequest
    : undefined
  const url = isJson ? request.url : /\n {2}(http\S+)\n/.exec(await untilUrl(capture))?.[1]
  const result = await sandbox.authorize(
    request?.method === 'post' ? { endpoint: request.endpoint, params: request.params } : { url },
    { decision: options.decision ?? 'approve' },
  )
  stdin.send(`${result.redirectUrl?.href ?? ''}\n`)
  return { exitCode: await exitCode, stdout: capture.stdout(), stderr: capture.stderr(), request }
}

async function untilUrl(capture: ReturnType<typeof captureIo>): Promise<string> {
  await capture.firstStdoutLine()
  while (!/\n {2}http\S+\n/.test(capture.stdout()))
    await new Promise((resolve) => setTimeout(resolve, 5))
  return capture.stdout()
}

describe('authorize (interactive: the redirect URL is pasted on stdin)', () => {
  it('prints the request as the first JSON line and the token response as the second', async () => {
    const result = await authorizeInteractively(authorizeArguments('cli-public', '--json'))
    expect(result.stderr).toBe('')
    expect(result.exitCode, result.stderr).toBe(0)
    const lines = result.stdout.trim().split('\n')
    expect(lines).toHaveLength(2)
    expect(result.request).toEqual({
      method: 'get',
      url: expect.stringContaining(sandbox.endpoints.authorization),
    })
    const token = JSON.parse(lines[1] as string)
    expect(token).toMatchObject({ token_type: 'Bearer', patient: 'patient-1' })
    expect(token.scope).toContain('patient/*.rs')
  })

  it('runs an EHR launch for a confidential symmetric client with a readable transcript', async () => {
    const launch = sandbox.createLaunch({ patient: 'patient-7' })
    const result = await authorizeInteractively(
      authorizeArguments(
        'cli-symmetric',
        '--scope',
        'launch',
        '--launch',
        launch,
        '--client-secret-env',
        'CLIENT_SECRET',
      ),
      { env: { CLIENT_SECRET: clientSecret } },
    )
    expect(result.stderr).toBe('Paste the URL your browser was redirected to and press Enter: ')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^Open this URL in a browser and sign in:\n\n {2}http/)
    expect(result.stdout).toMatch(/Token response\n/)
    expect(result.stdout).toMatch(/patient\s+patient-7\n/)
    expect(result.stderr).toBe('Paste the URL your browser was redirected to and press Enter: ')
    const exchange = lastRequestTo(sandbox.requests, '/token')
    expect(exchange?.headers.authorization).toMatch(/^Basic /)
  })

  it('uses authorize-post with --post and a confidential asymmetric client with --key/--kid', async () => {
    const result = await authorizeInteractively(
      authorizeArguments('cli-asymmetric', '--post', '--key', keyFile, '--kid', keys.kid, '--json'),
    )
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.request).toMatchObject({
      method: 'post',
      endpoint: sandbox.endpoints.authorization,
      params: { client_id: 'cli-asymmetric', code_challenge_method: 'S256' },
    })
    expect(JSON.parse(result.stdout.trim().split('\n')[1] as string).token_type).toBe('Bearer')
    const exchange = lastRequestTo(sandbox.requests, '/token')
    expect(exchange?.form?.client_assertion_type).toBe(
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    )
  })

  it('exits 1 with the server’s error when the user denies access', async () => {
    const result = await authorizeInteractively(authorizeArguments('cli-public', '--json'), {
      decision: 'deny',
    })
    expect(result.exitCode, result.stderr).toBe(1)
    expect(result.stderr).toMatch(/^error: authorization failed: access_denied/)
  })

  it('exits 2 when stdin ends without a redirect URL', async () => {
    const result = await runCli(authorizeArguments('cli-public', '--json'))
    expect(result.exitCode, result.stderr).toBe(2)
    expect(result.stderr).toMatch(/^error: no redirect URL on stdin/)
  })
})

describe('authorize for scripts (--url-only, then --redirect-url)', () => {
  it('prints state and code verifier, then exchanges the code of the given redirect URL', async () => {
    const first = await runCli(authorizeArguments('cli-public', '--url-only', '--json'))
    expect(first.exitCode, first.stderr).toBe(0)
    const { authorizationRequest, state, codeVerifier, nonce } = JSON.parse(first.stdout)
    const authorized = await sandbox.authorize({ url: authorizationRequest.url })
    expect(authorized.state).toBe(state)

    const second = await runCli(
      authorizeArguments(
        'cli-public',
        '--redirect-url',
        authorized.redirectUrl?.href ?? '',
        '--state',
        state,
        '--code-verifier-env',
        'CODE_VERIFIER',
        // openid is asked: the ID token must carry the nonce the first run printed.
        '--nonce',
        nonce,
        '--json',
      ),
      { env: { CODE_VERIFIER: codeVerifier } },
    )
    expect(second.stderr).toBe('')
    expect(second.exitCode, second.stderr).toBe(0)
    expect(JSON.parse(second.stdout)).toMatchObject({ token_type: 'Bearer', patient: 'patient-1' })
  })

  it('warns, and still exchanges, when the pasted URL is not at the redirect URI', async () => {
    const first = await runCli(authorizeArguments('cli-public', '--url-only', '--json'))
    const { authorizationRequest, state, codeVerifier, nonce } = JSON.parse(first.stdout)
    const authorized = await sandbox.authorize({ url: authorizationRequest.url })
    const elsewhere = (authorized.redirectUrl?.href ?? '').replace('/callback', '/elsewhere')
    const result = await runCli(
      authorizeArguments(
        'cli-public',
        '--redirect-url',
        elsewhere,
        '--state',
        state,
        '--code-verifier-env',
        'CODE_VERIFIER',
        '--nonce',
        nonce,
        '--json',
      ),
      { env: { CODE_VERIFIER: codeVerifier } },
    )
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stderr).toBe(
      `warning: the pasted URL is not at the redirect URI ${sandboxDefaultRedirectUri}\n`,
    )
  })

  it('refuses a redirect URL whose state does not match, and exchanges nothing (exit 1)', async () => {
    const first = await runCli(authorizeArguments('cli-public', '--url-only', '--json'))
    const { authorizationRequest, codeVerifier } = JSON.parse(first.stdout)
    const authorized = await sandbox.authorize({ url: authorizationRequest.url })
    const exchangesBefore = sandbox.requests.filter((entry) => entry.path === '/token').length
    const result = await runCli(
      authorizeArguments(
        'cli-public',
        '--redirect-url',
        authorized.redirectUrl?.href ?? '',
        '--state',
        'a-state-from-another-request',
        '--code-verifier-env',
        'CODE_VERIFIER',
      ),
      { env: { CODE_VERIFIER: codeVerifier } },
    )
    expect(result.exitCode, result.stderr).toBe(1)
    expect(result.stderr).toMatch(/^error: the callback state is not the state of this launch/)
    expect(sandbox.requests.filter((entry) => entry.path === '/token')).toHaveLength(
      exchangesBefore,
    )
  })

  it('prints the authorize-post request as an HTML form with escaped values', async () => {
    const result = await runCli(authorizeArguments('cli-public', '--post', '--url-only'))
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toContain(
      `<form method="post" action="${sandbox.endpoints.authorization}">`,
    )
    expect(result.stdout).toContain('<input type="hidden" name="client_id" value="cli-public">')
    expect(result.stdout).toMatch(/<input type="hidden" name="state" value="[^"]+">/)
    expect(result.stdout).toMatch(/code verifier\s+\S{43,}\n/)
  })

  it('refuses script flags in the wrong mode (usage, exit 2)', async () => {
    const stateAlone = await runCli(authorizeArguments('cli-public', '--state', 'abc'))
    expect(stateAlone.exitCode, stateAlone.stderr).toBe(2)
    expect(stateAlone.stderr).toMatch(/^error: --state is only used with --redirect-url\n/)
    const postWithRedirect = await runCli(
      authorizeArguments('cli-public', '--redirect-url', 'https://app.example/callback', '--post'),
    )
    expect(postWithRedirect.exitCode, postWithRedirect.stderr).toBe(2)
    expect(postWithRedirect.stderr).toMatch(/^error: --post cannot be used with --redirect-url\n/)
  })
})

describe('authorize: the ID token and the redirect checks (completeAuthorization)', () => {
  /** A --url-only run and the user's sign-in: what a second run gets. */
  async function firstRun(...extra: string[]) {
    const first = await runCli(authorizeArguments('cli-public', '--url-only', '--json', ...extra))
    expect(first.exitCode, first.stderr).toBe(0)
    const printed = JSON.parse(first.stdout)
    const authorized = await sandbox.authorize({ url: printed.authorizationRequest.url })
    return { printed, redirectUrl: new URL(authorized.redirectUrl?.href ?? '') }
  }

  function secondRun(
    redirectUrl: URL,
    printed: { state: string; codeVerifier: string },
    ...extra: string[]
  ) {
    return runCli(
      authorizeArguments(
        'cli-public',
        '--redirect-url',
        redirectUrl.href,
        '--state',
        printed.state,
        '--code-verifier-env',
        'CODE_VERIFIER',
        ...extra,
      ),
      { env: { CODE_VERIFIER: printed.codeVerifier } },
    )
  }

  it('--verbose prints the validated ID token claims after the token response', async () => {
    const result = await authorizeInteractively(authorizeArguments('cli-public', '--verbose'))
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/Token response\n[\s\S]*\nID token claims \(validated\)\n/)
    expect(result.stdout).toMatch(/ {2}sub\s+practitioner-1\n/)
    expect(result.stdout).toContain(`${sandbox.fhirBaseUrl}/Practitioner/practitioner-1`)
    expect(result.stdout).toMatch(/ {2}aud\s+cli-public\n/)
    const quiet = await authorizeInteractively(authorizeArguments('cli-public'))
    expect(quiet.stdout).not.toContain('ID token claims')
  })

  it('--verbose --json: the claims are a third line, {"idTokenClaims": …}, with the nonce sent', async () => {
    const { printed, redirectUrl } = await firstRun()
    expect(printed.nonce).toMatch(/^[\w-]{43}$/)
    const result = await secondRun(
      redirectUrl,
      printed,
      '--nonce',
      printed.nonce,
      '--json',
      '--verbose',
    )
    expect(result.exitCode, result.stderr).toBe(0)
    const lines = result.stdout.trim().split('\n')
    expect(lines).toHaveLength(2)
    expect(JSON.parse(lines[0] as string)).toMatchObject({ token_type: 'Bearer' })
    expect(JSON.parse(lines[1] as string).idTokenClaims).toMatchObject({
      iss: sandbox.issuer,
      sub: 'practitioner-1',
      aud: 'cli-public',
      nonce: printed.nonce,
    })
  })

  it('--verbose says so when there is no ID token (no openid)', async () => {
    const result = await authorizeInteractively(
      [...authorizeArguments('cli-public', '--verbose')].map((argument) =>
        argument === 'launch/patient openid fhirUser patient/*.rs'
          ? 'launch/patient patient/*.rs'
          : argument,
      ),
    )
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).not.toContain('ID token claims')
    expect(result.stderr).toContain('no ID token: the server sent none (ask for the openid scope)')
  })

  it('with openid, a second run without --nonce is a usage error that names --nonce, and exchanges nothing', async () => {
    const { printed, redirectUrl } = await firstRun()
    const exchangesBefore = sandbox.requests.filter((entry) => entry.path === '/token').length
    const result = await secondRun(redirectUrl, printed)
    expect(result.exitCode, result.stderr).not.toBe(0)
    expect(result.stderr).toMatch(/^error: nonce is required when the scopes include openid/)
    expect(result.stderr).toContain('(set --nonce to the nonce --url-only printed)')
    expect(sandbox.requests.filter((entry) => entry.path === '/token')).toHaveLength(
      exchangesBefore,
    )
  })

  it('refuses an ID token without the nonce given with --nonce (exit 1, reason nonce)', async () => {
    const { printed, redirectUrl } = await firstRun()
    const result = await secondRun(redirectUrl, printed, '--nonce', 'not-the-nonce-sent')
    expect(result.exitCode, result.stderr).toBe(1)
    expect(result.stderr).toMatch(/^error: the ID token nonce is not the one sent/)
  })

  it('refuses a redirect from another issuer (RFC 9207) and exchanges nothing', async () => {
    const { printed, redirectUrl } = await firstRun()
    redirectUrl.searchParams.set('iss', 'https://evil.example')
    const exchangesBefore = sandbox.requests.filter((entry) => entry.path === '/token').length
    const result = await secondRun(redirectUrl, printed, '--nonce', printed.nonce)
    expect(result.exitCode, result.stderr).toBe(1)
    expect(result.stderr).toMatch(/RFC 9207/)
    expect(sandbox.requests.filter((entry) => entry.path === '/token')).toHaveLength(
      exchangesBefore,
    )
  })

  it('never shows a code the server quotes in a long error description', async () => {
    const { printed, redirectUrl } = await firstRun()
    const code = redirectUrl.searchParams.get('code') ?? ''
    redirectUrl.searchParams.set('error', 'invalid_request')
    redirectUrl.searchParams.set('error_description', `${'x'.repeat(500)}${code}`)
    const result = await secondRun(redirectUrl, printed, '--nonce', printed.nonce)
    expect(result.exitCode, result.stderr).toBe(1)
    expect(result.stderr).toMatch(/^error: authorization failed: invalid_request/)
    expect(code.length).toBeGreaterThan(8)
    expect(result.stderr + result.stdout).not.toContain(code.slice(0, 8))
  })
})

describe('--basic-auth-encoding', () => {
  const specialSecret = 'cli~secret+with/every=char:%é'
  let rawServer: SmartSandbox

  beforeAll(async () => {
    rawServer = await startSmartSandbox({
      basicAuthDecoding: 'raw',
      clients: [
        {
          client_id: 'cli-raw',
          token_endpoint_auth_method: 'client_secret_basic',
          client_secret: specialSecret,
        },
      ],
    })
  })
  afterAll(async () => {
    await rawServer?.close()
  })

  /** The two-step authorize against the raw server; the second run's result. */
  async function authorizeAgainstRawServer(...extra: string[]) {
    const common = [
      'authorize',
      '--base-url',
      rawServer.fhirBaseUrl,
      '--client-id',
      'cli-raw',
      '--redirect-uri',
      sandboxDefaultRedirectUri,
      '--scope',
      'launch/patient patient/*.rs',
      '--client-secret-env',
      'CLIENT_SECRET',
      local,
      ...extra,
    ]
    const env = { CLIENT_SECRET: specialSecret }
    const first = await runCli([...common, '--url-only', '--json'], { env })
    expect(first.exitCode, first.stderr).toBe(0)
    const { authorizationRequest, state, codeVerifier } = JSON.parse(first.stdout)
    const authorized = await rawServer.authorize({ url: authorizationRequest.url })
    return runCli(
      [
        ...common,
        '--redirect-url',
        authorized.redirectUrl?.href ?? '',
        '--state',
        state,
        '--code-verifier-env',
        'CODE_VERIFIER',
        '--json',
      ],
      { env: { ...env, CODE_VERIFIER: codeVerifier } },
    )
  }

  it('raw: a server that reads base64(id:secret) as it is accepts the secret', async () => {
    const result = await authorizeAgainstRawServer('--basic-auth-encoding', 'raw')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ token_type: 'Bearer' })
  })

  it('default: invalid_client, with one hint naming --basic-auth-encoding and never the secret', async () => {
    const result = await authorizeAgainstRawServer()
    expect(result.exitCode, result.stderr).toBe(1)
    const [line] = result.stderr.split('\n')
    expect(line).toMatch(/invalid_client/)
    expect(line).toContain("set --basic-auth-encoding to 'raw'")
    expect(result.stderr).not.toContain(specialSecret.slice(0, 10))
  })

  it('is refused without --client-secret-env, and for an unknown value (exit 2)', async () => {
    const withoutSecret = await runCli(
      authorizeArguments('cli-public', '--basic-auth-encoding', 'raw', '--json'),
    )
    expect(withoutSecret.exitCode, withoutSecret.stderr).toBe(2)
    expect(withoutSecret.stderr).toMatch(
      /--basic-auth-encoding is only used with --client-secret-env/,
    )
    const unknown = await runCli(
      authorizeArguments(
        'cli-symmetric',
        '--client-secret-env',
        'S',
        '--basic-auth-encoding',
        'b64',
      ),
      { env: { S: clientSecret } },
    )
    expect(unknown.exitCode, unknown.stderr).toBe(2)
    expect(unknown.stderr).toMatch(/--basic-auth-encoding must be form-urlencoded or raw/)
  })
})
