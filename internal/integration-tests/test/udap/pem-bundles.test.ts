/**
 * A PEM file read as one string is one entry however many certificates it holds (issue 25):
 * `pnpm sandbox` writes the UDAP client's chain as one file, leaf first, and a user passes
 * `certificateChain: [readFileSync(chainFile, 'utf8')]`. Every block is read, in order, with
 * either crypto backend: the software statement's `x5c` carries the whole chain, so the sandbox
 * finds a path (only the first block was read before, and registration failed with the
 * server's "no valid path"). The same holds for an anchor bundle and a CRL bundle.
 */
import { readFileSync } from 'node:fs'
import {
  Client,
  ConfigurationError,
  type CryptoBackend,
  CryptoError,
  silentLogger,
} from '@fhir-auth/client'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import { type LocalSandboxes, startLocalSandboxes } from '@fhir-auth/sandbox'
import { testPki } from '@fhir-auth/test-pki'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inspectJws } from './support/jws-inspection.js'
import { requestsTo, softwareStatementOf } from './support/sandbox-requests.js'
import { clientCredentialsRegistration } from './support/udap-test-context.js'

let sandboxes: LocalSandboxes

beforeAll(async () => {
  sandboxes = await startLocalSandboxes()
}, 60_000)
afterAll(() => sandboxes.close())

/** The sandbox's files as a user reads them: each file one string. */
function files() {
  const { udap } = sandboxes.description
  return {
    chainPem: readFileSync(udap.client.certificateChainFile, 'utf8'),
    keyPem: readFileSync(udap.client.keyFile, 'utf8'),
    // A bundle whose first anchor signs nothing here: the community's anchor comes after it.
    anchorBundle: `${testPki.authorities['untrusted-root'].pem}${readFileSync(udap.trustAnchorFile, 'utf8')}`,
    anchorFile: readFileSync(udap.trustAnchorFile, 'utf8'),
    crlFiles: udap.crlFiles.map((file) => readFileSync(file, 'utf8')),
    crlBundle: udap.crlFiles.map((file) => readFileSync(file, 'utf8')).join(''),
  }
}

function clientWith(certificateChain: readonly string[], crypto: CryptoBackend | undefined) {
  const { udap } = sandboxes.description
  return new Client(
    {
      baseUrl: udap.baseUrl,
      allowInsecureLocalhost: true,
      scopes: ['system/*.rs'],
      privateKey: files().keyPem,
      certificateChain,
    },
    { protocol: 'udap', logger: silentLogger, ...(crypto === undefined ? {} : { crypto }) },
  )
}

const backends: ReadonlyArray<readonly [string, () => CryptoBackend | undefined]> = [
  ['crypto-node', () => undefined],
  ['crypto-webcrypto', () => createWebCryptoBackend()],
]

describe.each(backends)(
  'PEM bundles through Client against the UDAP sandbox (%s)',
  (_name, backend) => {
    it('registers with the sandbox chain file as one entry and sends every certificate in x5c', async () => {
      const { chainPem, anchorFile, crlFiles } = files()
      expect(chainPem.match(/-----BEGIN CERTIFICATE-----/g)).toHaveLength(2)
      const client = clientWith([chainPem], backend())
      const since = sandboxes.udap.requests.length
      const registration = await client.registerClient(clientCredentialsRegistration, {
        clientUri: sandboxes.description.udap.client.clientUri,
        trustedAnchors: [anchorFile],
        crls: crlFiles,
      })
      expect(registration.client_id).toEqual(expect.any(String))
      const [request] = requestsTo(sandboxes.udap, '/register', since)
      if (request === undefined) throw new Error('no registration request reached the sandbox')
      const { x5c } = inspectJws(softwareStatementOf(request)).header
      const sentChain = (x5c as string[]).map((certificate) => Buffer.from(certificate, 'base64'))
      const fileChain = chainPem
        .split(/(?<=-----END CERTIFICATE-----\n)/)
        .filter((block) => block.includes('BEGIN'))
        .map((block) => Buffer.from(block.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64'))
      expect(sentChain).toEqual(fileChain)
      const token = await client.requestBackendToken({
        b2b: {
          organizationId: sandboxes.description.udap.b2b.organizationId,
          purposeOfUse: [sandboxes.description.udap.b2b.purposeOfUse],
        },
      })
      expect(token.access_token).toEqual(expect.any(String))
    })

    it('validates signed metadata with an anchor bundle (the anchor not first) and a CRL bundle', async () => {
      const { chainPem, anchorBundle, crlBundle } = files()
      const metadata = await clientWith([chainPem], backend()).serverMetadata({
        trustedAnchors: [anchorBundle],
        crls: [crlBundle],
      })
      expect(metadata.signedClaims.iss).toBe(sandboxes.description.udap.baseUrl)
    })

    it('refuses a chain file whose second block is malformed, naming certificateChain, before sending', async () => {
      const { chainPem, anchorBundle, crlBundle } = files()
      const [leafBlock] = chainPem.split(/(?<=-----END CERTIFICATE-----\n)/)
      const broken = `${leafBlock}-----BEGIN CERTIFICATE-----\nAQ*D\n-----END CERTIFICATE-----\n`
      const since = sandboxes.udap.requests.length
      const error = await failureOf(
        clientWith([broken], backend()).registerClient(clientCredentialsRegistration, {
          clientUri: sandboxes.description.udap.client.clientUri,
          trustedAnchors: [anchorBundle],
          crls: [crlBundle],
        }),
        ConfigurationError,
      )
      expect(error.invalidAttribute).toBe('certificateChain')
      expect(error.cause).toBeInstanceOf(CryptoError)
      expect(requestsTo(sandboxes.udap, '/register', since)).toEqual([])
    })

    it('refuses an anchor entry with no certificate block as a ConfigurationError on trustedAnchors', async () => {
      const { chainPem, crlBundle } = files()
      const error = await failureOf(
        clientWith([chainPem], backend()).serverMetadata({
          trustedAnchors: ['not a certificate'],
          crls: [crlBundle],
        }),
        ConfigurationError,
      )
      expect(error.invalidAttribute).toBe('trustedAnchors')
    })
  },
)
