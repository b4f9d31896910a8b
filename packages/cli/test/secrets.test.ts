import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type ClientKeys,
  generateClientKeys,
  type SmartSandbox,
  sandboxDefaultRedirectUri,
  startSmartSandbox,
  startUdapSandbox,
  type UdapSandbox,
} from '@fhir-auth/sandbox'
import { testPki } from '@fhir-auth/test-pki'
import { SecretScanner } from '@fhir-auth/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CliResult, runCli } from './support/cli-harness.js'
import { type TemporaryDirectory, temporaryDirectory } from './support/temporary-files.js'
import { writeClientIdentity, writeTrustFiles } from './support/udap-files.js'

let smart: SmartSandbox
let udap: UdapSandbox
let echoServer: Server
let echoUrl: string
let files: TemporaryDirectory
let keys: ClientKeys
let keyFile: string

const local = '--allow-insecure-localhost'
const clientSecret = 'cli-secret-never-on-stderr-4711'
const pkcs12Password = testPki.pkcs12Password

beforeAll(async () => {
  keys = await generateClientKeys('ES384')
  ;[smart, udap, files] = await Promise.all([
    startSmartSandbox({
      clients: [
        {
          client_id: 'secret-backend',
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: [keys.publicJwk] },
        },
        {
          client_id: 'secret-symmetric',
          token_endpoint_auth_method: 'client_secret_basic',
          client_secret: clientSecret,
        },
      ],
    }),
    startUdapSandbox({
      clientTrust: {
        anchors: testPki.trustAnchors.map((anchor) => anchor.pem),
        crls: testPki.currentCrls.map((crl) => crl.pem),
      },
    }),
    temporaryDirectory(),
  ])
  keyFile = await files.write('backend-key.pem', keys.privateKeyPem)
  // A hostile registration endpoint that echoes the request's Authorization header back.
  echoServer = createServer((request, response) => {
    response.writeHead(400, { 'content-type': 'application/json' })
    response.end(
      JSON.stringify({
        error: 'invalid_client_metadata',
        error_description: `refused ${request.headers.authorization ?? ''}`,
      }),
    )
  })
  await new Promise<void>((resolve) => echoServer.listen(0, '127.0.0.1', resolve))
  echoUrl = `http://127.0.0.1:${(echoServer.address() as AddressInfo).port}/register`
})
afterAll(async () => {
  echoServer?.closeAllConnections()
  await Promise.all([
    smart?.close(),
    udap?.close(),
    files?.remove(),
    new Promise((resolve) => (echoServer ? echoServer.close(resolve) : resolve(undefined))),
  ])
})

/** Fails with the list of leaks when any registered secret appears in the given texts. */
function expectNoSecrets(scanner: SecretScanner, texts: Record<string, string>): void {
  for (const [source, text] of Object.entries(texts)) scanner.addText(source, text)
  expect(scanner.findings()).toEqual([])
}

function stderrOf(results: Record<string, CliResult>): Record<string, string> {
  return Object.fromEntries(Object.entries(results).map(([name, result]) => [name, result.stderr]))
}

describe('no secret reaches stderr (progress, warnings, errors, --verbose detail)', () => {
  it('SMART backend services: the private key stays off stderr and stdout; tokens only on stdout', async () => {
    const base = [
      'token',
      '--base-url',
      smart.fhirBaseUrl,
      '--client-id',
      'secret-backend',
      '--key',
      keyFile,
      local,
      '--verbose',
    ]
    const success = await runCli([...base, '--kid', keys.kid, '--scope', 'system/*.rs', '--json'], {
      stderrIsTty: true,
    })
    const failure = await runCli([...base, '--kid', 'wrong-kid', '--scope', 'system/*.rs'])
    expect(success.exitCode, success.stderr).toBe(0)
    expect(failure.exitCode, failure.stderr).toBe(1)
    const accessToken: string = JSON.parse(success.stdout).access_token
    const scanner = new SecretScanner()
      .addPrivateKeyPem('backend key', keys.privateKeyPem)
      .addSecret('access token', accessToken)
    expectNoSecrets(scanner, {
      ...stderrOf({ success, failure }),
      'failure stdout': failure.stdout,
    })
    const keyOnly = new SecretScanner().addPrivateKeyPem('backend key', keys.privateKeyPem)
    expectNoSecrets(keyOnly, { 'success stdout': success.stdout })
  })

  it('SMART registration: an initial access token the server echoes is redacted', async () => {
    const token = 'initial-access-token-5c1b7f2e'
    const echoed = await runCli([
      'register',
      '--registration-endpoint',
      echoUrl,
      '--metadata',
      '{"client_name":"x"}',
      '--initial-access-token',
      token,
      local,
      '--verbose',
      '--json',
    ])
    expect(echoed.exitCode, echoed.stderr).toBe(1)
    expect(echoed.stderr).toContain('invalid_client_metadata')
    const registered = await runCli([
      'register',
      '--base-url',
      smart.fhirBaseUrl,
      '--metadata',
      '{"client_name":"x","token_endpoint_auth_method":"client_secret_basic","redirect_uris":["https://app.example/callback"]}',
      '--initial-access-token',
      smart.initialAccessToken,
      local,
      '--verbose',
    ])
    expect(registered.exitCode, registered.stderr).toBe(0)
    const scanner = new SecretScanner()
      .addSecret('echoed token', token)
      .addSecret('sandbox initial access token', smart.initialAccessToken)
    expectNoSecrets(scanner, {
      ...stderrOf({ echoed, registered }),
      'echoed error document': echoed.stdout,
    })
  })

  it('authorize: client secret, code and code verifier stay off stderr; the verifier stays off stdout', async () => {
    const argv = (secretVariable: string) => [
      'authorize',
      '--base-url',
      smart.fhirBaseUrl,
      '--client-id',
      'secret-symmetric',
      '--redirect-uri',
      sandboxDefaultRedirectUri,
      '--scope',
      'openid fhirUser patient/*.rs',
      '--client-secret-env',
      secretVariable,
      local,
      '--verbose',
    ]
    const env = { GOOD_SECRET: clientSecret, BAD_SECRET: 'a-wrong-client-secret-9876' }
    const scanner = new SecretScanner()
      .addSecret('client secret', clientSecret)
      .addSecret('wrong client secret', env.BAD_SECRET)
    const results: Record<string, CliResult> = {}
    for (const variable of ['GOOD_SECRET', 'BAD_SECRET']) {
      const first = await runCli([...argv(variable), '--url-only', '--json'], { env })
      const { authorizationRequest, state, codeVerifier, nonce } = JSON.parse(first.stdout)
      const authorized = await smart.authorize({ url: authorizationRequest.url })
      const code = authorized.code ?? ''
      const redirectUrl = authorized.redirectUrl?.href ?? ''
      const second = await runCli(
        [
          ...argv(variable),
          '--redirect-url',
          redirectUrl,
          '--state',
          state,
          '--code-verifier-env',
          'VERIFIER',
          ...(nonce === undefined ? [] : ['--nonce', nonce]),
        ],
        { env: { ...env, VERIFIER: codeVerifier }, stderrIsTty: true },
      )
      expect(second.exitCode, second.stderr).toBe(variable === 'GOOD_SECRET' ? 0 : 1)
      scanner.addSecret(`${variable} code`, code).addSecret(`${variable} verifier`, codeVerifier)
      scanner.addText(`${variable} exchange stdout`, second.stdout)
      results[`${variable} url-only`] = first
      results[`${variable} exchange`] = second
    }
    expectNoSecrets(scanner, stderrOf(results))
  })

  it('UDAP with PKCS#12: the password and the key stay off every stream', async () => {
    const pkcs12 = await files.write('secret.p12', testPki.leaves['rsa-client'].pkcs12)
    const passwordFile = await files.write('password.txt', pkcs12Password)
    const trustFlags = await writeTrustFiles(files, udap.trust)
    const identity = await writeClientIdentity(
      files,
      udap,
      'https://cli.example.test/secret',
      'secret',
    )
    const metadata = JSON.stringify({
      client_name: 'Secret test',
      contacts: ['mailto:ops@example.test'],
      grant_types: ['client_credentials'],
      scope: 'system/*.rs',
    })
    const base = [
      'register',
      '--udap',
      '--base-url',
      udap.fhirBaseUrl,
      ...trustFlags,
      '--metadata',
      metadata,
      local,
      '--verbose',
    ]
    const clientUri = testPki.leaves['rsa-client'].sanUris[0] as string
    const results = {
      withPasswordFile: await runCli([
        ...base,
        '--client-uri',
        clientUri,
        '--pkcs12',
        pkcs12,
        '--password-file',
        passwordFile,
        '--json',
      ]),
      wrongPassword: await runCli(
        [...base, '--client-uri', clientUri, '--pkcs12', pkcs12, '--password-env', 'P'],
        {
          env: { P: 'wrong-password-1234' },
        },
      ),
      pemIdentity: await runCli([
        ...base,
        '--client-uri',
        'https://cli.example.test/secret',
        ...identity.flags,
      ]),
      wrongClientUri: await runCli([
        ...base,
        '--client-uri',
        'https://cli.example.test/not-mine',
        ...identity.flags,
      ]),
    }
    expect(results.withPasswordFile.exitCode, results.withPasswordFile.stderr).toBe(0)
    expect(results.wrongPassword.exitCode, results.wrongPassword.stderr).toBe(2)
    expect(results.pemIdentity.exitCode, results.pemIdentity.stderr).toBe(0)
    expect(results.wrongClientUri.exitCode, results.wrongClientUri.stderr).not.toBe(0)
    const scanner = new SecretScanner()
      .addSecret('PKCS#12 password', pkcs12Password)
      .addSecret('wrong password', 'wrong-password-1234')
      .addPrivateKeyPem('PEM client key', identity.privateKeyPem)
      .addPrivateKeyPem('PKCS#12 client key', testPki.leaves['rsa-client'].privateKeyPkcs8Pem)
    expectNoSecrets(scanner, {
      ...stderrOf(results),
      ...Object.fromEntries(
        Object.entries(results).map(([name, result]) => [`${name} stdout`, result.stdout]),
      ),
    })
  })
})
