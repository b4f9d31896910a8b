import {
  type SmartSandbox,
  startSmartSandbox,
  startUdapSandbox,
  type UdapSandbox,
} from '@fhir-auth/sandbox'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { runCli, stderrLines } from './support/cli-harness.js'
import { type TemporaryDirectory, temporaryDirectory } from './support/temporary-files.js'
import { writeTrustFiles } from './support/udap-files.js'

let smart: SmartSandbox
let udap: UdapSandbox
let files: TemporaryDirectory
let trustFlags: string[]

beforeAll(async () => {
  ;[smart, udap, files] = await Promise.all([
    startSmartSandbox(),
    startUdapSandbox(),
    temporaryDirectory(),
  ])
  trustFlags = await writeTrustFiles(files, udap.trust)
})
afterAll(async () => {
  await Promise.all([smart?.close(), udap?.close(), files?.remove()])
})
afterEach(() => udap.setHostile(undefined))

const local = '--allow-insecure-localhost'

describe('discover (SMART)', () => {
  it('prints the endpoints, capabilities and support as one JSON document with --json', async () => {
    const result = await runCli(['discover', smart.fhirBaseUrl, local, '--json'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout.trim().split('\n')).toHaveLength(1)
    const document = JSON.parse(result.stdout)
    expect(document).toMatchObject({
      protocol: 'smart',
      baseUrl: smart.fhirBaseUrl,
      discoveryUrl: smart.endpoints.discovery,
      endpoints: {
        authorization: smart.endpoints.authorization,
        token: smart.endpoints.token,
        registration: smart.endpoints.registration,
      },
      supports: { backendServices: true, postAuthorization: true, pkceS256: true },
      compliant: true,
    })
    expect(document.capabilities).toContain('launch-standalone')
    expect(document.document.token_endpoint).toBe(smart.endpoints.token)
    expect(result.stderr).toBe('')
  })

  it('prints a readable listing without --json', async () => {
    const result = await runCli(['discover', smart.fhirBaseUrl, local])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toContain(`SMART configuration of ${smart.fhirBaseUrl}\n`)
    expect(result.stdout).toMatch(new RegExp(`token\\s+${smart.endpoints.token}\\n`))
    expect(result.stdout).toMatch(/backendServices\s+yes\n/)
    expect(result.stdout).toContain('Capabilities (16):')
  })

  it('warns on stderr about every SMART 2.2.0 violation and reports the document as not compliant', async () => {
    smart.setDiscoveryOverride({
      document: (document) => {
        delete (document as Record<string, unknown>).code_challenge_methods_supported
        return undefined
      },
    })
    try {
      const result = await runCli(['discover', smart.fhirBaseUrl, local, '--json'])
      expect(result.exitCode, result.stderr).toBe(0)
      expect(JSON.parse(result.stdout).compliant).toBe(false)
      expect(result.stderr).toContain(
        "warning: SMART metadata non-compliance: required field 'code_challenge_methods_supported' is missing",
      )
    } finally {
      smart.setDiscoveryOverride(undefined)
    }
  })

  it('shows progress on a terminal, and never with --json or when stderr is not a terminal', async () => {
    const onTerminal = await runCli(['discover', smart.fhirBaseUrl, local], { stderrIsTty: true })
    expect(onTerminal.stderr).toBe(`… discovering ${smart.endpoints.discovery}\n`)
    const json = await runCli(['discover', smart.fhirBaseUrl, local, '--json'], {
      stderrIsTty: true,
    })
    expect(json.stderr).toBe('')
    const piped = await runCli(['discover', smart.fhirBaseUrl, local])
    expect(piped.stderr).toBe('')
  })

  it('refuses loopback HTTP without --allow-insecure-localhost (exit 2), naming the flag once', async () => {
    const result = await runCli(['discover', smart.fhirBaseUrl])
    expect(result.exitCode, result.stderr).toBe(2)
    expect(stderrLines(result)).toEqual([
      `error: baseUrl must be HTTPS (loopback HTTP needs --allow-insecure-localhost), got ${JSON.stringify(smart.fhirBaseUrl)}`,
    ])
  })

  it.each([[[]], [[local]]])(
    'refuses HTTP to another host (exit 2) without suggesting --allow-insecure-localhost (flags %j)',
    async (extra) => {
      const result = await runCli(['discover', 'http://ehr.example.test/fhir', ...extra])
      expect(result.exitCode, result.stderr).toBe(2)
      expect(stderrLines(result)).toEqual([
        'error: baseUrl must be HTTPS (plain HTTP is allowed only to a loopback host), got "http://ehr.example.test/fhir" (check the <fhir-base> argument)',
      ])
    },
  )

  it('says an unknown host could not be resolved (exit 1)', async () => {
    // .invalid never resolves (RFC 6761 §6.4).
    const result = await runCli([
      'discover',
      'https://unknown-host.invalid/fhir',
      '--timeout',
      '15000',
    ])
    expect(result.exitCode, result.stderr).toBe(1)
    expect(stderrLines(result)).toHaveLength(1)
    expect(result.stderr).toMatch(/the host name could not be resolved \((ENOTFOUND|EAI_AGAIN)\)/)
  }, 30_000)

  it('exits 1 with a DiscoveryError when the server has no SMART configuration', async () => {
    smart.setDiscoveryOverride({ response: { status: 404, contentType: 'text/plain', body: 'no' } })
    try {
      const result = await runCli(['discover', smart.fhirBaseUrl, local, '--verbose'])
      expect(result.exitCode, result.stderr).toBe(1)
      expect(result.stderr).toContain('DiscoveryError (ERR_DISCOVERY)')
      expect(result.stderr).toContain('status: 404')
    } finally {
      smart.setDiscoveryOverride(undefined)
    }
  })
})

describe('discover --udap', () => {
  it('prints the verified metadata, signed endpoints and server certificate as JSON', async () => {
    const result = await runCli([
      'discover',
      udap.fhirBaseUrl,
      '--udap',
      ...trustFlags,
      local,
      '--json',
    ])
    expect(result.exitCode, result.stderr).toBe(0)
    const document = JSON.parse(result.stdout)
    expect(document).toMatchObject({
      protocol: 'udap',
      baseUrl: udap.fhirBaseUrl,
      tokenEndpoint: udap.endpoints.token,
      registrationEndpoint: udap.endpoints.registration,
      serverCertificate: { subjectAltNameUris: [udap.fhirBaseUrl] },
      supports: { clientCredentials: true, b2bExtensionRequired: true },
    })
    expect(document.serverCertificate.subject).toContain(`CN=${udap.fhirBaseUrl}`)
    expect(document.signedClaims.iss).toBe(udap.fhirBaseUrl)
    expect(result.stderr).toBe('')
  })

  it('prints a readable listing that says signed_metadata was verified', async () => {
    const result = await runCli(['discover', udap.fhirBaseUrl, '--udap', ...trustFlags, local])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toContain(
      `UDAP metadata of ${udap.fhirBaseUrl} (signed_metadata verified)`,
    )
    expect(result.stdout).toMatch(new RegExp(`token\\s+${udap.endpoints.token}\\n`))
    expect(result.stdout).toMatch(new RegExp(`SAN URIs\\s+${udap.fhirBaseUrl}\\n`))
  })

  it('sends --community and exits 1 when the server does not know the community', async () => {
    const result = await runCli([
      'discover',
      udap.fhirBaseUrl,
      '--udap',
      ...trustFlags,
      '--community',
      'udap://unknown.example/',
      local,
    ])
    expect(result.exitCode, result.stderr).toBe(1)
    expect(result.stderr).toMatch(/community not recognised/)
  })

  it.each([
    ['untrusted-root', /certificate chain is not trusted/],
    ['alg-none', /header alg must be "RS256"/],
    ['san-trailing-slash', /is not a URI subject alternative name/],
    ['revoked-leaf', /revoked/],
  ] as const)(
    'refuses the hostile variant %s with exit 3 and one error line',
    async (variant, message) => {
      udap.setHostile(variant)
      const result = await runCli(['discover', udap.fhirBaseUrl, '--udap', ...trustFlags, local])
      expect(result.exitCode, result.stderr).toBe(3)
      expect(result.stdout).toBe('')
      const lines = stderrLines(result)
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/^error: signed_metadata from .* failed validation: /)
      expect(lines[0]).toMatch(message)
    },
  )

  it('exits 3 when a CRL is missing (revocation fails closed), with the chain reason under --verbose', async () => {
    const missing = await writeTrustFiles(
      files,
      { ...udap.trust, crls: udap.trust.crlVariants.missing },
      'missing',
    )
    const result = await runCli([
      'discover',
      udap.fhirBaseUrl,
      '--udap',
      ...missing,
      local,
      '--verbose',
    ])
    expect(result.exitCode, result.stderr).toBe(3)
    expect(result.stderr).toContain('caused by CertificateChainError (ERR_CERTIFICATE_CHAIN)')
    // CRLs missing from the files are looked for at the certificates' distribution points
    // (issue 30); the sandbox's certificates name none, so revocation fails closed.
    expect(result.stderr).toContain('reason: revocation-unavailable')
  })

  it('writes a machine-readable error document on stdout with --json', async () => {
    udap.setHostile('untrusted-root')
    const result = await runCli([
      'discover',
      udap.fhirBaseUrl,
      '--udap',
      ...trustFlags,
      local,
      '--json',
    ])
    expect(result.exitCode, result.stderr).toBe(3)
    const { error } = JSON.parse(result.stdout)
    expect(error).toMatchObject({ name: 'DiscoveryError', code: 'ERR_DISCOVERY' })
    expect(error.causes[0]).toMatchObject({ name: 'CertificateChainError', reason: 'no-path' })
  })

  it('needs --trust-anchor: usage error, exit 2', async () => {
    const result = await runCli(['discover', udap.fhirBaseUrl, '--udap', local])
    expect(result.exitCode, result.stderr).toBe(2)
    expect(result.stderr).toMatch(/^error: --trust-anchor <file> is required with --udap/)
    expect(result.stderr).toContain('Usage:\n  fhir-auth discover <fhir-base>')
  })
})
