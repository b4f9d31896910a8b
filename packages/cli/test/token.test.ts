import {
  type ClientKeys,
  generateClientKeys,
  type SmartSandbox,
  startSmartSandbox,
  startUdapSandbox,
  type UdapSandbox,
} from '@fhir-auth/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lastRequestTo, runCli } from './support/cli-harness.js'
import { type TemporaryDirectory, temporaryDirectory } from './support/temporary-files.js'
import { writeClientIdentity, writeTrustFiles } from './support/udap-files.js'

let smart: SmartSandbox
let udap: UdapSandbox
let files: TemporaryDirectory
let keys: ClientKeys
let keyFile: string
let trustFlags: string[]
let identityFlags: string[]
let udapClientId: string

const local = '--allow-insecure-localhost'
const clientUri = 'https://cli.example.test/token-client'
const b2bFlags = [
  '--b2b-organization-id',
  'https://org.example.test',
  '--b2b-purpose-of-use',
  'urn:oid:2.16.840.1.113883.5.8#TREAT',
]

beforeAll(async () => {
  keys = await generateClientKeys('ES384')
  ;[smart, udap, files] = await Promise.all([
    startSmartSandbox({
      clients: [
        {
          client_id: 'cli-backend',
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: [keys.publicJwk] },
        },
      ],
    }),
    startUdapSandbox({ allowUnregisteredClients: true }),
    temporaryDirectory(),
  ])
  keyFile = await files.write('backend-key.pem', keys.privateKeyPem)
  trustFlags = await writeTrustFiles(files, udap.trust)
  identityFlags = (await writeClientIdentity(files, udap, clientUri, 'token-client')).flags
  const registered = await runCli([
    'register',
    '--udap',
    '--base-url',
    udap.fhirBaseUrl,
    '--client-uri',
    clientUri,
    ...identityFlags,
    ...trustFlags,
    '--metadata',
    JSON.stringify({
      client_name: 'CLI token client',
      contacts: ['mailto:ops@example.test'],
      grant_types: ['client_credentials'],
      scope: 'system/*.rs',
    }),
    local,
    '--json',
  ])
  udapClientId = JSON.parse(registered.stdout).client_id
})
afterAll(async () => {
  await Promise.all([smart?.close(), udap?.close(), files?.remove()])
})

function smartTokenArguments(...extra: string[]): string[] {
  return smartTokenArgumentsWith({ key: keyFile, kid: keys.kid }, ...extra)
}

function smartTokenArgumentsWith(
  credentials: { readonly key: string; readonly kid: string },
  ...extra: string[]
): string[] {
  return [
    'token',
    '--base-url',
    smart.fhirBaseUrl,
    '--client-id',
    'cli-backend',
    '--key',
    credentials.key,
    '--kid',
    credentials.kid,
    local,
    ...extra,
  ]
}

describe('token (SMART Backend Services)', () => {
  it.each(['', '  '])(
    'refuses an explicitly empty --scope %j (exit 2) and sends no token request',
    async (scope) => {
      const tokenRequests = smart.requests.filter((request) => request.path === '/token').length
      const result = await runCli(smartTokenArguments('--scope', scope))
      expect(result.exitCode, result.stderr).toBe(2)
      expect(result.stderr).toMatch(/^error: --scope is empty/)
      expect(result.stderr).not.toContain('system/*.rs')
      expect(smart.requests.filter((request) => request.path === '/token')).toHaveLength(
        tokenRequests,
      )
    },
  )

  it('prints the token response it was asked for as JSON', async () => {
    const result = await runCli(smartTokenArguments('--scope', 'system/*.rs', '--json'))
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({
      access_token: expect.any(String),
      token_type: 'Bearer',
      scope: 'system/*.rs',
      expires_in: 300,
    })
    expect(result.stderr).toBe('')
  })

  it('prints a readable token response, with scopes given as one space-separated value', async () => {
    const result = await runCli(smartTokenArguments('--scope', 'system/*.rs system/Patient.rs'))
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^Token response\n/)
    expect(result.stdout).toMatch(/access_token\s+\S{16,}\n/)
    expect(result.stdout).toMatch(/scope\s+system\/\*\.rs system\/Patient\.rs\n/)
    const request = lastRequestTo(smart.requests, '/token')
    expect(request?.form?.scope).toBe('system/*.rs system/Patient.rs')
  })

  it('shows the library’s deprecation warning when no --scope is given', async () => {
    const result = await runCli(smartTokenArguments('--json'))
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout).scope).toBe('system/*.rs')
    expect(result.stderr).toMatch(/^warning: .*system\/\*\.rs/m)
  })

  it('exits 2 with usage when --kid is missing', async () => {
    const result = await runCli([
      'token',
      '--base-url',
      smart.fhirBaseUrl,
      '--client-id',
      'cli-backend',
      '--key',
      keyFile,
    ])
    expect(result.exitCode, result.stderr).toBe(2)
    expect(result.stderr).toMatch(/^error: --kid is required to name the registered key\n/)
    expect(result.stderr).toContain('Usage:\n  fhir-auth token ')
  })

  it('exits 1 with the server’s OAuth error when the key id is unknown', async () => {
    const result = await runCli(
      smartTokenArgumentsWith(
        { key: keyFile, kid: 'unknown-kid' },
        '--scope',
        'system/*.rs',
        '--verbose',
      ),
    )
    expect(result.exitCode, result.stderr).toBe(1)
    expect(result.stderr).toContain('TokenError (ERR_TOKEN)')
    expect(result.stderr).toMatch(/status: 400|status: 401/)
    expect(result.stderr).toContain('error: invalid_client')
  })

  it('exits 2 naming the flag when the key file does not exist', async () => {
    const result = await runCli(
      smartTokenArgumentsWith(
        { key: `${keyFile}.missing`, kid: keys.kid },
        '--scope',
        'system/*.rs',
      ),
    )
    expect(result.exitCode, result.stderr).toBe(2)
    expect(result.stderr).toBe(`error: cannot read --key file "${keyFile}.missing": no such file\n`)
  })
})

describe('token --udap (client credentials with a UDAP authentication token)', () => {
  it('gets a token for the registered client with the hl7-b2b extension', async () => {
    const result = await runCli([
      'token',
      '--udap',
      '--base-url',
      udap.fhirBaseUrl,
      '--client-id',
      udapClientId,
      ...identityFlags,
      ...trustFlags,
      '--scope',
      'system/*.rs',
      ...b2bFlags,
      '--b2b-organization-name',
      'Example Org',
      local,
      '--json',
    ])
    expect(result.stderr).toBe('')
    expect(result.exitCode, result.stderr).toBe(0)
    const response = JSON.parse(result.stdout)
    expect(response).toMatchObject({ token_type: 'Bearer', scope: 'system/*.rs' })
    const issued = udap.accessTokens.find((token) => token.accessToken === response.access_token)
    expect(issued).toMatchObject({ clientId: udapClientId, unregistered: false })
    expect(issued?.b2b).toMatchObject({
      organization_id: 'https://org.example.test',
      organization_name: 'Example Org',
      purpose_of_use: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
    })
  })

  it('gets a token as an unregistered client with --client-uri alone', async () => {
    const result = await runCli([
      'token',
      '--udap',
      '--base-url',
      udap.fhirBaseUrl,
      '--client-uri',
      clientUri,
      ...identityFlags,
      ...trustFlags,
      '--scope',
      'system/*.rs',
      ...b2bFlags,
      local,
      '--json',
    ])
    expect(result.exitCode, result.stderr).toBe(0)
    const { access_token: accessToken } = JSON.parse(result.stdout)
    expect(udap.accessTokens.find((token) => token.accessToken === accessToken)).toMatchObject({
      unregistered: true,
    })
  })

  it('exits 2 and names the b2b flags when the server requires hl7-b2b and none is given', async () => {
    const result = await runCli([
      'token',
      '--udap',
      '--base-url',
      udap.fhirBaseUrl,
      '--client-id',
      udapClientId,
      ...identityFlags,
      ...trustFlags,
      '--scope',
      'system/*.rs',
      local,
    ])
    expect(result.exitCode, result.stderr).toBe(2)
    expect(result.stderr).toMatch(
      /^error: the server requires the authorization extension "hl7-b2b".*\(for hl7-b2b, set --b2b-organization-id and --b2b-purpose-of-use\)\n$/,
    )
  })

  it('refuses half a b2b extension and a missing client identity (usage, exit 2)', async () => {
    const base = ['token', '--udap', '--base-url', udap.fhirBaseUrl, '--scope', 'system/*.rs']
    const halfB2b = await runCli([
      ...base,
      '--client-id',
      udapClientId,
      '--b2b-purpose-of-use',
      'urn:oid:2.16.840.1.113883.5.8#TREAT',
    ])
    expect(halfB2b.exitCode, halfB2b.stderr).toBe(2)
    expect(halfB2b.stderr).toMatch(/^error: --b2b-purpose-of-use needs --b2b-organization-id\n/)
    const noClient = await runCli(base)
    expect(noClient.exitCode, noClient.stderr).toBe(2)
    expect(noClient.stderr).toMatch(/^error: --client-id \(registered client\) or --client-uri/)
  })
})
