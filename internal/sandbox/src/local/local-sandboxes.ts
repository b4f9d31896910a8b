import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateClientKeys } from '../keys.js'
import type { SmartSandbox } from '../smart/options.js'
import { sandboxDefaultRedirectUri } from '../smart/sandbox-client.js'
import { startSmartSandbox } from '../smart/start-smart-sandbox.js'
import type { UdapSandbox } from '../udap/options.js'
import { toPkiObject } from '../udap/pki-object.js'
import { startUdapSandbox } from '../udap/start-udap-sandbox.js'

/**
 * What `pnpm sandbox` hands a person trying the CLI or the examples: where the servers are and
 * the files and values a ready client needs. Files are absolute paths.
 */
export interface LocalSandboxesDescription {
  readonly directory: string
  readonly smart: {
    readonly baseUrl: string
    readonly redirectUri: string
    readonly initialAccessToken: string
    readonly publicClient: { readonly clientId: string }
    readonly symmetricClient: { readonly clientId: string; readonly clientSecret: string }
    /** For `examples/node-web-app` on port 3000: redirect URI `http://localhost:3000/callback`. */
    readonly webAppClient: {
      readonly clientId: string
      readonly clientSecret: string
      readonly redirectUri: string
    }
    /** For `examples/browser-spa` on port 5173: redirect URI `http://127.0.0.1:5173/`. */
    readonly browserAppClient: { readonly clientId: string; readonly redirectUri: string }
    readonly backendClient: {
      readonly clientId: string
      readonly keyFile: string
      readonly kid: string
      readonly scope: string
    }
  }
  readonly udap: {
    readonly baseUrl: string
    readonly trustAnchorFile: string
    readonly crlFiles: readonly string[]
    readonly client: {
      readonly clientUri: string
      readonly keyFile: string
      readonly certificateChainFile: string
    }
    readonly b2b: { readonly organizationId: string; readonly purposeOfUse: string }
  }
}

/** Both sandboxes running, with their files written. */
export interface LocalSandboxes {
  readonly description: LocalSandboxesDescription
  readonly smart: SmartSandbox
  readonly udap: UdapSandbox
  /** Closes both servers and removes the files (when the directory was created here). */
  close(): Promise<void>
}

/** Options of {@link startLocalSandboxes}. */
export interface LocalSandboxesOptions {
  /** Where to write keys, certificates and CRLs; default a fresh temporary directory, removed on close. */
  readonly directory?: string | undefined
}

const webAppRedirectUri = 'http://localhost:3000/callback'
const browserAppRedirectUri = 'http://127.0.0.1:5173/'

/**
 * Starts the SMART sandbox (a public, a `client_secret_basic` and a backend-services client, and
 * clients for the web-app and browser examples on their default ports) and the UDAP sandbox (unregistered clients allowed), issues a UDAP client
 * certificate, and writes the backend client's key, the UDAP client's key and chain, the trust
 * anchor and the CRLs as PEM files.
 */
export async function startLocalSandboxes(
  options: LocalSandboxesOptions = {},
): Promise<LocalSandboxes> {
  const ownsDirectory = options.directory === undefined
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 'fhir-auth-sandbox-')))
  await mkdir(directory, { recursive: true })
  const keys = await generateClientKeys('ES384')
  const clientSecret = randomBytes(18).toString('base64url')
  const backendScope = 'system/*.rs'
  const [smart, udap] = await Promise.all([
    startSmartSandbox({
      clients: [
        { client_id: 'sandbox-public', token_endpoint_auth_method: 'none' },
        {
          client_id: 'sandbox-symmetric',
          token_endpoint_auth_method: 'client_secret_basic',
          client_secret: clientSecret,
        },
        {
          client_id: 'sandbox-web-app',
          token_endpoint_auth_method: 'client_secret_basic',
          client_secret: clientSecret,
          redirect_uris: [webAppRedirectUri],
        },
        {
          client_id: 'sandbox-browser-app',
          token_endpoint_auth_method: 'none',
          redirect_uris: [browserAppRedirectUri],
        },
        {
          client_id: 'sandbox-backend',
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: [keys.publicJwk] },
          scope: `${backendScope} system/Patient.rs`,
        },
      ],
    }),
    startUdapSandbox({ allowUnregisteredClients: true }),
  ])
  const close = async () => {
    await Promise.all([smart.close(), udap.close()])
    if (ownsDirectory) await rm(directory, { recursive: true, force: true })
  }
  try {
    const clientUri = 'https://client.sandbox.example/fhir-auth'
    const issued = await udap.certificateAuthority.issue({
      commonName: 'fhir-auth sandbox client',
      sanUris: [clientUri],
      keyType: 'p256',
    })
    const file = async (name: string, text: string) => {
      const path = join(directory, name)
      await writeFile(path, text, { mode: 0o600 })
      return path
    }
    const chainPem = issued.chainDer.map((der) => toPkiObject(der, 'CERTIFICATE').pem).join('')
    const description: LocalSandboxesDescription = {
      directory,
      smart: {
        baseUrl: smart.fhirBaseUrl,
        redirectUri: sandboxDefaultRedirectUri,
        initialAccessToken: smart.initialAccessToken,
        publicClient: { clientId: 'sandbox-public' },
        symmetricClient: { clientId: 'sandbox-symmetric', clientSecret },
        webAppClient: {
          clientId: 'sandbox-web-app',
          clientSecret,
          redirectUri: webAppRedirectUri,
        },
        browserAppClient: { clientId: 'sandbox-browser-app', redirectUri: browserAppRedirectUri },
        backendClient: {
          clientId: 'sandbox-backend',
          keyFile: await file('smart-backend-key.pem', keys.privateKeyPem),
          kid: keys.kid,
          scope: backendScope,
        },
      },
      udap: {
        baseUrl: udap.fhirBaseUrl,
        trustAnchorFile: await file(
          'udap-trust-anchor.pem',
          udap.trust.anchors.map((anchor) => anchor.pem).join(''),
        ),
        crlFiles: await Promise.all(
          udap.trust.crls.map((crl, index) => file(`udap-crl-${index + 1}.pem`, crl.pem)),
        ),
        client: {
          clientUri,
          keyFile: await file('udap-client-key.pem', issued.privateKeyPem),
          certificateChainFile: await file('udap-client-chain.pem', chainPem),
        },
        b2b: {
          organizationId: 'https://org.sandbox.example/organizations/1',
          purposeOfUse: 'urn:oid:2.16.840.1.113883.5.8#TREAT',
        },
      },
    }
    return { description, smart, udap, close }
  } catch (error) {
    await close()
    throw error
  }
}
