import { execFile } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { inspect, promisify } from 'node:util'
import { ConfigurationError, CryptoError, DiscoveryError } from '@fhir-auth/client'
import { startUdapSandbox, type UdapSandbox } from '@fhir-auth/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Environment, readSettings } from '../src/settings.js'
import { b2bTokens, createUdapClient, readTrust, registerB2bClient } from '../src/udap-b2b.js'

const run = promisify(execFile)
const clientUri = 'https://client.example.test/udap-b2b-example'
const pkcs12Password = 'correct horse battery staple'

let sandbox: UdapSandbox
let directory: string
let environment: Environment

beforeAll(async () => {
  ;[sandbox, directory] = await Promise.all([
    startUdapSandbox(),
    mkdtemp(join(tmpdir(), 'udap-b2b-')),
  ])
  // A client certificate from the community's CA, packed the way communities hand them out.
  const issued = await sandbox.certificateAuthority.issue({
    commonName: 'UDAP B2B example',
    sanUris: [clientUri],
    keyType: 'p256',
  })
  const chainPem = issued.chainDer.map((der) => new X509Certificate(der).toString()).join('')
  await writeFile(join(directory, 'key.pem'), issued.privateKeyPem, { mode: 0o600 })
  await writeFile(join(directory, 'chain.pem'), chainPem)
  await run(
    'openssl',
    [
      'pkcs12',
      '-export',
      '-inkey',
      'key.pem',
      '-in',
      'chain.pem',
      '-out',
      'client.p12',
      '-passout',
      'env:P12_PASSWORD',
    ],
    { cwd: directory, env: { ...process.env, P12_PASSWORD: pkcs12Password }, timeout: 10_000 },
  )
  // Anchors as PEM and CRLs as DER: the example reads either.
  const anchorFiles = await writeAll(
    'anchor',
    'pem',
    sandbox.trust.anchors.map((anchor) => anchor.pem),
  )
  const crlFiles = await writeAll(
    'crl',
    'crl',
    sandbox.trust.crls.map((crl) => crl.der),
  )
  environment = {
    FHIR_BASE_URL: sandbox.fhirBaseUrl,
    CLIENT_URI: clientUri,
    CLIENT_P12_FILE: join(directory, 'client.p12'),
    CLIENT_P12_PASSWORD: pkcs12Password,
    TRUST_ANCHOR_FILES: anchorFiles.join(delimiter),
    CRL_FILES: crlFiles.join(delimiter),
    CONTACT: 'mailto:ops@client.example.test',
    ORGANIZATION_ID: 'https://client.example.test/organizations/42',
    ORGANIZATION_NAME: 'Example Clinic',
    ALLOW_INSECURE_LOCALHOST: 'true',
  }
})

afterAll(async () => {
  await sandbox?.close()
  if (directory) await rm(directory, { recursive: true, force: true })
})

async function writeAll(
  prefix: string,
  extension: string,
  contents: readonly (string | Uint8Array)[],
): Promise<string[]> {
  return Promise.all(
    contents.map(async (content, index) => {
      const file = join(directory, `${prefix}-${index}.${extension}`)
      await writeFile(file, content)
      return file
    }),
  )
}

describe('UDAP B2B against the UDAP sandbox', () => {
  it('registers with a signed software statement, then gets a token with hl7-b2b and reads with it', async () => {
    const settings = readSettings(environment)
    const [client, trust] = await Promise.all([createUdapClient(settings), readTrust(settings)])

    const clientId = await registerB2bClient(client, settings, trust)
    const tokensBefore = sandbox.requestCounts.token
    const tokens = b2bTokens(client, settings, trust)
    const token = await tokens.accessToken()

    expect(sandbox.registrations.get(clientId)).toMatchObject({ clientUri, cancelled: false })
    expect(sandbox.accessTokens.at(-1)).toMatchObject({
      accessToken: token,
      clientId,
      scope: 'system/*.rs',
      unregistered: false,
      b2b: {
        version: '1',
        organization_id: 'https://client.example.test/organizations/42',
        organization_name: 'Example Clinic',
        purpose_of_use: ['urn:oid:2.16.840.1.113883.5.8#TREAT'],
      },
    })
    const response = await tokens.fetch('Patient/patient-1')
    expect(response.status).toBe(200)
    expect(await tokens.accessToken()).toBe(token)
    expect(sandbox.requestCounts.token - tokensBefore).toBe(1)
  })

  it('keeps one token per hl7-b2b context: another organization gets its own', async () => {
    const settings = readSettings(environment)
    const [client, trust] = await Promise.all([createUdapClient(settings), readTrust(settings)])
    await registerB2bClient(client, settings, trust)
    const elsewhere = readSettings({
      ...environment,
      ORGANIZATION_ID: 'https://client.example.test/organizations/77',
    })
    const tokensBefore = sandbox.requestCounts.token
    const ours = await b2bTokens(client, settings, trust).accessToken()
    const theirs = await b2bTokens(client, elsewhere, trust).accessToken()

    expect(theirs).not.toBe(ours)
    expect(sandbox.accessTokens.at(-1)?.b2b).toMatchObject({
      organization_id: 'https://client.example.test/organizations/77',
    })
    expect(await b2bTokens(client, settings, trust).accessToken()).toBe(ours)
    expect(sandbox.requestCounts.token - tokensBefore).toBe(2)
  })

  it('reuses a stored CLIENT_ID without registering again', async () => {
    const first = readSettings(environment)
    const [registrar, trust] = await Promise.all([createUdapClient(first), readTrust(first)])
    const clientId = await registerB2bClient(registrar, first, trust)
    const registrationsBefore = sandbox.requestCounts.registration

    const settings = readSettings({ ...environment, CLIENT_ID: clientId })
    await b2bTokens(await createUdapClient(settings), settings, trust).accessToken()

    expect(sandbox.accessTokens.at(-1)?.clientId).toBe(clientId)
    expect(sandbox.requestCounts.registration).toBe(registrationsBefore)
  })

  it('stops at discovery, before registering, when the metadata is not signed under the anchors', async () => {
    const settings = readSettings(environment)
    const errors: string[] = []
    const logger = { info() {}, warn() {}, error: (message: string) => errors.push(message) }
    const [client, trust] = await Promise.all([
      createUdapClient(settings, { logger }),
      readTrust(settings),
    ])
    const registrationsBefore = sandbox.requestCounts.registration
    sandbox.setHostile('untrusted-root')
    try {
      const failure = await registerB2bClient(client, settings, trust).catch(
        (error: unknown) => error,
      )

      expect(failure).toBeInstanceOf(DiscoveryError)
      expect((failure as Error).message).toContain('not trusted')
      expect(errors.join('\n')).toContain('signed_metadata')
      expect(sandbox.requestCounts.registration).toBe(registrationsBefore)
    } finally {
      sandbox.setHostile(undefined)
    }
  })

  it('refuses a wrong PKCS#12 password with CryptoError, without echoing it', async () => {
    const settings = readSettings({ ...environment, CLIENT_P12_PASSWORD: 'wrong password 123' })
    const failure = await createUdapClient(settings).catch((error: unknown) => error)

    expect(failure).toBeInstanceOf(CryptoError)
    expect(failure).toMatchObject({ reason: 'pkcs12-password' })
    expect(inspect(failure, { depth: 10 })).not.toContain('wrong password 123')
  })

  it('runs src/main.ts as a script', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', '--conditions=@fhir-auth/source', 'src/main.ts'],
      {
        cwd: join(import.meta.dirname, '..'),
        env: { ...process.env, ...environment, FHIR_RESOURCE: 'Patient/patient-1' },
        timeout: 20_000,
      },
    )

    expect(stdout).toContain(`trusted server metadata; token endpoint ${sandbox.endpoints.token}`)
    expect(stdout).toMatch(/registered client_id \S+ \(set CLIENT_ID to reuse it\)/)
    expect(stdout).toContain(
      'access token ready for https://client.example.test/organizations/42 (reused until it nears expiry)',
    )
    expect(stdout).toContain('GET Patient/patient-1: 200')
  })
})

describe('settings', () => {
  it('names a missing variable', () => {
    const { ORGANIZATION_ID: _unused, ...rest } = environment
    expect(() => readSettings(rest)).toThrow(ConfigurationError)
    expect(() => readSettings(rest)).toThrow('ORGANIZATION_ID')
  })

  it('accepts an empty PKCS#12 password but not a missing one', () => {
    expect(readSettings({ ...environment, CLIENT_P12_PASSWORD: '' }).pkcs12Password).toBe('')
    const { CLIENT_P12_PASSWORD: _unused, ...rest } = environment
    expect(() => readSettings(rest)).toThrow('CLIENT_P12_PASSWORD')
  })

  it('splits file lists like PATH and defaults purpose of use to treatment', () => {
    const settings = readSettings({ ...environment, CRL_FILES: `a.crl${delimiter}b.crl` })
    expect(settings.crlFiles).toEqual(['a.crl', 'b.crl'])
    expect(settings.purposeOfUse).toEqual(['urn:oid:2.16.840.1.113883.5.8#TREAT'])
  })
})
