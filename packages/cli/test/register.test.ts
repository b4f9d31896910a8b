import {
  type SmartSandbox,
  startSmartSandbox,
  startUdapSandbox,
  type UdapSandbox,
} from '@fhir-auth/sandbox'
import { testPki } from '@fhir-auth/test-pki'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, stderrLines } from './support/cli-harness.js'
import { type TemporaryDirectory, temporaryDirectory } from './support/temporary-files.js'
import { writeClientIdentity, writeTrustFiles } from './support/udap-files.js'

let smart: SmartSandbox
let udap: UdapSandbox
let files: TemporaryDirectory
let trustFlags: string[]

const local = '--allow-insecure-localhost'
const smartMetadata = JSON.stringify({
  client_name: 'CLI test app',
  token_endpoint_auth_method: 'none',
  redirect_uris: ['https://app.example/callback'],
})
const udapMetadata = {
  client_name: 'CLI B2B client',
  contacts: ['mailto:ops@example.test'],
  grant_types: ['client_credentials'],
  scope: 'system/*.rs',
}
const { grant_types: _grantTypes, ...cancellationMetadata } = udapMetadata
// The committed test PKI's clients (and their PKCS#12 files) are trusted by this sandbox too.
const pkcs12Leaf = testPki.leaves['ec-p256-client']
const pkcs12ClientUri = pkcs12Leaf.sanUris[0] as string

beforeAll(async () => {
  ;[smart, udap, files] = await Promise.all([
    startSmartSandbox(),
    startUdapSandbox({
      clientTrust: {
        anchors: testPki.trustAnchors.map((anchor) => anchor.pem),
        crls: testPki.currentCrls.map((crl) => crl.pem),
      },
    }),
    temporaryDirectory(),
  ])
  trustFlags = await writeTrustFiles(files, udap.trust)
})
afterAll(async () => {
  await Promise.all([smart?.close(), udap?.close(), files?.remove()])
})

describe('register (SMART, RFC 7591)', () => {
  it('registers with an initial access token and prints the registration response', async () => {
    const result = await runCli([
      'register',
      '--base-url',
      smart.fhirBaseUrl,
      '--metadata',
      smartMetadata,
      '--initial-access-token',
      smart.initialAccessToken,
      local,
      '--json',
    ])
    expect(result.exitCode, result.stderr).toBe(0)
    const response = JSON.parse(result.stdout)
    expect(response.client_id).toEqual(expect.any(String))
    expect(response.client_name).toBe('CLI test app')
    const request = smart.requests.find((entry) => entry.path === '/reg')
    expect(request?.headers.authorization).toBe(`Bearer ${smart.initialAccessToken}`)
  })

  it('takes the metadata from a file and the whole header from --authorization, and reads well', async () => {
    const metadataFile = await files.write('smart-metadata.json', smartMetadata)
    const result = await runCli([
      'register',
      '--base-url',
      smart.fhirBaseUrl,
      '--metadata',
      metadataFile,
      '--authorization',
      `Bearer ${smart.initialAccessToken}`,
      local,
    ])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^Registered client \S+\n/)
    expect(result.stdout).toMatch(/client_name\s+CLI test app\n/)
  })

  it('exits 1 with a RegistrationError when the server refuses a registration without a token', async () => {
    const result = await runCli([
      'register',
      '--base-url',
      smart.fhirBaseUrl,
      '--metadata',
      smartMetadata,
      local,
      '--verbose',
    ])
    expect(result.exitCode, result.stderr).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^error: client registration to .* failed with HTTP 401/m)
    expect(result.stderr).toContain('RegistrationError (ERR_REGISTRATION)')
    expect(result.stderr).toContain('status: 401')
    expect(result.stderr).toContain('error: invalid_token')
  })

  it('exits 2 without usage for metadata that is not a JSON object', async () => {
    const result = await runCli([
      'register',
      '--base-url',
      smart.fhirBaseUrl,
      '--metadata',
      '{"client_name":',
      local,
    ])
    expect(result.exitCode, result.stderr).toBe(2)
    expect(stderrLines(result)).toHaveLength(1)
    expect(result.stderr).toMatch(/^error: --metadata is not valid JSON/)
  })

  it('refuses --initial-access-token together with --authorization (exit 2, usage)', async () => {
    const result = await runCli([
      'register',
      '--base-url',
      smart.fhirBaseUrl,
      '--metadata',
      smartMetadata,
      '--initial-access-token',
      'first-token-value',
      '--authorization',
      'Bearer second-token-value',
    ])
    expect(result.exitCode, result.stderr).toBe(2)
    expect(result.stderr).toContain(
      'error: --initial-access-token and --authorization cannot be used together',
    )
    expect(result.stderr).toContain('Usage:')
  })
})

/** `register --udap` for the PKCS#12 client's URI, before any key or trust flag. */
function pkcs12ClientRegister(): string[] {
  return ['register', '--udap', '--base-url', udap.fhirBaseUrl, '--client-uri', pkcs12ClientUri]
}

/** `register --udap` with the PKCS#12 client, its password flags, the trust flags and metadata. */
function pkcs12Registration(pkcs12: string, passwordFlags: readonly string[]): string[] {
  return [
    ...pkcs12ClientRegister(),
    '--pkcs12',
    pkcs12,
    ...passwordFlags,
    ...trustFlags,
    '--metadata',
    JSON.stringify(udapMetadata),
    local,
  ]
}

describe('register --udap', () => {
  it('registers and cancels with a PEM key and a PEM + DER certificate chain', async () => {
    const clientUri = 'https://cli.example.test/pem-client'
    const identity = await writeClientIdentity(files, udap, clientUri, 'pem-client')
    const common = [
      'register',
      '--udap',
      '--base-url',
      udap.fhirBaseUrl,
      '--client-uri',
      clientUri,
      ...identity.flags,
      ...trustFlags,
      local,
    ]
    const registered = await runCli([
      ...common,
      '--metadata',
      JSON.stringify(udapMetadata),
      '--json',
    ])
    expect(registered.stderr).toBe('')
    expect(registered.exitCode, registered.stderr).toBe(0)
    const { client_id: clientId, grant_types: grantTypes } = JSON.parse(registered.stdout)
    expect(grantTypes).toEqual(['client_credentials'])
    expect(udap.registrations.get(clientId)?.clientUri).toBe(clientUri)

    const cancelled = await runCli([
      ...common,
      '--metadata',
      JSON.stringify(cancellationMetadata),
      '--cancel',
    ])
    expect(cancelled.exitCode, cancelled.stderr).toBe(0)
    expect(cancelled.stdout).toContain(`Cancelled the registration of client ${clientId}\n`)
    expect(cancelled.stdout).toMatch(/grant_types\s+\(none\)\n/)
    expect(udap.registrations.get(clientId)?.cancelled).toBe(true)
  })

  it('registers and cancels with a PKCS#12 file whose password is in an environment variable', async () => {
    const pkcs12 = await files.write('client.p12', pkcs12Leaf.pkcs12)
    const result = await runCli(
      [...pkcs12Registration(pkcs12, ['--password-env', 'CLIENT_P12_PASSWORD']), '--json'],
      { env: { CLIENT_P12_PASSWORD: testPki.pkcs12Password } },
    )
    expect(result.stderr).toBe('')
    expect(result.exitCode, result.stderr).toBe(0)
    const clientId = JSON.parse(result.stdout).client_id
    expect(udap.registrations.get(clientId)?.clientUri).toBe(pkcs12ClientUri)

    const cancelled = await runCli(
      [
        'register',
        '--udap',
        '--cancel',
        '--base-url',
        udap.fhirBaseUrl,
        '--client-uri',
        pkcs12ClientUri,
        '--pkcs12',
        pkcs12,
        '--password-env',
        'CLIENT_P12_PASSWORD',
        ...trustFlags,
        '--metadata',
        JSON.stringify(cancellationMetadata),
        local,
        '--json',
      ],
      { env: { CLIENT_P12_PASSWORD: testPki.pkcs12Password } },
    )
    expect(cancelled.exitCode, cancelled.stderr).toBe(0)
    expect(JSON.parse(cancelled.stdout)).toMatchObject({ client_id: clientId, grant_types: [] })
    expect(udap.registrations.get(clientId)?.cancelled).toBe(true)
  })

  it('registers with a legacy (3DES) PKCS#12 file whose password is in a file', async () => {
    const pkcs12 = await files.write('client.legacy.p12', pkcs12Leaf.pkcs12Legacy)
    const passwordFile = await files.write('p12-password.txt', `${testPki.pkcs12Password}\n`)
    const result = await runCli(pkcs12Registration(pkcs12, ['--password-file', passwordFile]))
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^Registered client /)
  })

  it('exits 2 with a CryptoError for a wrong PKCS#12 password, without showing it', async () => {
    const pkcs12 = await files.write('wrong-password.p12', pkcs12Leaf.pkcs12)
    const wrongPassword = 'not-the-right-password'
    const registrationsBefore = udap.requestCounts.registration
    const result = await runCli(
      [...pkcs12Registration(pkcs12, ['--password-env', 'WRONG']), '--verbose'],
      { env: { WRONG: wrongPassword } },
    )
    expect(result.exitCode, result.stderr).toBe(2)
    expect(result.stderr).toContain('CryptoError (ERR_CRYPTO)')
    expect(result.stderr).toContain('reason: pkcs12-password')
    expect(result.stderr).not.toContain(wrongPassword)
    // The key is needed before anything is sent.
    expect(udap.requestCounts.registration).toBe(registrationsBefore)
  })

  it.each([
    ['truncated', (bytes: Uint8Array) => bytes.subarray(0, bytes.length - 40), 'pkcs12-invalid'],
    [
      'corrupted',
      (bytes: Uint8Array) => bytes.map((byte, index) => (index === 400 ? byte ^ 0x55 : byte)),
      'pkcs12-password',
    ],
  ])(
    'exits 2 with a CryptoError for a %s PKCS#12 file, never showing its password',
    async (name, damage, reason) => {
      const pkcs12 = await files.write(`${name}.p12`, damage(pkcs12Leaf.pkcs12))
      const passwordFile = await files.write(`${name}-password.txt`, `${testPki.pkcs12Password}\n`)
      const registrationsBefore = udap.requestCounts.registration
      const result = await runCli([
        ...pkcs12Registration(pkcs12, ['--password-file', passwordFile]),
        '--verbose',
      ])
      expect(result.exitCode, result.stderr).toBe(2)
      expect(result.stderr).toContain('CryptoError (ERR_CRYPTO)')
      expect(result.stderr).toContain(`reason: ${reason}`)
      expect(`${result.stdout}${result.stderr}`).not.toContain(testPki.pkcs12Password)
      expect(udap.requestCounts.registration).toBe(registrationsBefore)
    },
  )

  it('needs a password source for --pkcs12, and never takes a password on the command line', async () => {
    const pkcs12 = await files.write('no-password.p12', pkcs12Leaf.pkcs12)
    const base = pkcs12ClientRegister()
    const withoutSource = await runCli(pkcs12Registration(pkcs12, []))
    expect(withoutSource.exitCode, withoutSource.stderr).toBe(2)
    expect(withoutSource.stderr).toMatch(
      /^error: --pkcs12 needs its password from --password-env <VAR> or --password-file <file>/,
    )
    const onCommandLine = await runCli([...base, '--password', 'hunter2-secret'])
    expect(onCommandLine.exitCode, onCommandLine.stderr).toBe(2)
    expect(onCommandLine.stderr).toMatch(/^error: unknown option --password\n/)
    expect(onCommandLine.stderr).not.toContain('hunter2-secret')
  })

  it('refuses --cancel without --udap and SMART flags with --udap (exit 2)', async () => {
    const cancel = await runCli(['register', '--base-url', smart.fhirBaseUrl, '--cancel'])
    expect(cancel.exitCode, cancel.stderr).toBe(2)
    expect(cancel.stderr).toMatch(/^error: --cancel is a UDAP option: add --udap\n/)
    const smartFlag = await runCli([
      'register',
      '--udap',
      '--initial-access-token',
      'some-token-value',
    ])
    expect(smartFlag.exitCode, smartFlag.stderr).toBe(2)
    expect(smartFlag.stderr).toMatch(
      /^error: --initial-access-token is a SMART option and cannot be used with --udap\n/,
    )
  })
})
