import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateClientKeys } from '../keys.js'
import type { SmartSandbox } from '../smart/options.js'
import { sandboxDefaultRedirectUri } from '../smart/sandbox-client.js'
import { startSmartSandbox } from '../smart/start-smart-sandbox.js'
import type { UdapSandbox } from '../udap/options.js'
import {
  startTieredOAuthSandboxes,
  type TieredOAuthSandboxes,
} from '../udap/start-tiered-oauth-sandboxes.js'
import { startUdapSandbox } from '../udap/start-udap-sandbox.js'
import { type UdapCommunityFiles, writeUdapCommunityFiles } from './udap-community-files.js'

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
      /**
       * An EHR launch of that app, as an EHR would open it: its launch URL with `iss` (this
       * sandbox) and a `launch` value the sandbox issued for {@link ehrLaunchPatient}.
       */
      readonly ehrLaunchUrl: string
      readonly ehrLaunchPatient: string
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
  /** The UDAP sandbox for B2B client credentials (unregistered clients allowed). */
  readonly udap: UdapCommunityFiles & {
    readonly baseUrl: string
    readonly b2b: { readonly organizationId: string; readonly purposeOfUse: string }
  }
  /** With `udapTiered`: the data holder and the identity provider of the demo's Tiered OAuth. */
  readonly udapTiered?: {
    /** The data holder: apps register here (authorization code) and authorize with `idp`. */
    readonly dataHolder: UdapCommunityFiles & {
      readonly baseUrl: string
      /** Never contacted: the sandbox's user agent stops there; paste the URL you land on. */
      readonly redirectUri: string
    }
    /** The `idp` value: the identity provider's base URL. */
    readonly identityProvider: { readonly baseUrl: string }
  }
}

/** Both sandboxes running, with their files written. */
export interface LocalSandboxes {
  readonly description: LocalSandboxesDescription
  readonly smart: SmartSandbox
  readonly udap: UdapSandbox
  /** With `udapTiered`: the data holder and the identity provider. */
  readonly udapTiered: TieredOAuthSandboxes | undefined
  /** Closes every server and removes the files (when the directory was created here). */
  close(): Promise<void>
}

/** Options of {@link startLocalSandboxes}. */
export interface LocalSandboxesOptions {
  /** Where to write keys, certificates and CRLs; default a fresh temporary directory, removed on close. */
  readonly directory?: string | undefined
  /**
   * Also start the data holder and identity provider of Tiered OAuth (`startTieredOAuthSandboxes`,
   * as the demo does), with a client certificate for an app registering at the data holder.
   */
  readonly udapTiered?: boolean | undefined
}

const webAppRedirectUri = 'http://localhost:3000/callback'
/** The node-web-app example's EHR launch URL: same origin as its redirect URI (its cookie). */
const webAppLaunchUrl = new URL('/launch', webAppRedirectUri).href
const ehrLaunchPatient = 'patient-2'
const browserAppRedirectUri = 'http://127.0.0.1:5173/'

/**
 * Starts the SMART sandbox (a public, a `client_secret_basic` and a backend-services client, and
 * clients for the web-app and browser examples on their default ports, with an EHR launch for the
 * web app) and the UDAP sandbox (unregistered clients allowed) — with `udapTiered`, the Tiered
 * OAuth data holder and identity provider too — issues UDAP client certificates, and writes the
 * backend client's key, the UDAP clients' keys and chains, the trust anchors and the CRLs as PEM
 * files.
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
  const [smart, udap, udapTiered] = await allStarted([
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
    startUdapSandbox({ allowUnregisteredClients: true, crlDistributionPoints: true }),
    options.udapTiered === true ? startTieredOAuthSandboxes() : Promise.resolve(undefined),
  ])
  const close = async () => {
    await Promise.all([smart.close(), udap.close(), udapTiered?.close()])
    if (ownsDirectory) await rm(directory, { recursive: true, force: true })
  }
  try {
    const file = async (name: string, text: string) => {
      const path = join(directory, name)
      await writeFile(path, text, { mode: 0o600 })
      return path
    }
    const launch = new URL(webAppLaunchUrl)
    launch.search = new URLSearchParams({
      iss: smart.fhirBaseUrl,
      launch: smart.createLaunch({ patient: ehrLaunchPatient }),
    }).toString()
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
          ehrLaunchUrl: launch.href,
          ehrLaunchPatient,
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
        ...(await writeUdapCommunityFiles(
          udap,
          file,
          'udap',
          'https://client.sandbox.example/fhir-auth',
        )),
        b2b: {
          organizationId: 'https://org.sandbox.example/organizations/1',
          purposeOfUse: 'urn:oid:2.16.840.1.113883.5.8#TREAT',
        },
      },
      ...(udapTiered === undefined
        ? {}
        : {
            udapTiered: {
              dataHolder: {
                baseUrl: udapTiered.dataHolder.fhirBaseUrl,
                redirectUri: sandboxDefaultRedirectUri,
                ...(await writeUdapCommunityFiles(
                  udapTiered.dataHolder,
                  file,
                  'udap-tiered',
                  'https://tiered-app.sandbox.example/fhir-auth',
                )),
              },
              identityProvider: { baseUrl: udapTiered.identityProvider.fhirBaseUrl },
            },
          }),
    }
    return { description, smart, udap, udapTiered, close }
  } catch (error) {
    await close()
    throw error
  }
}

type Closable = { close(): Promise<void> } | undefined

/** Every server started, or, when one fails to start, the others closed and its error thrown. */
async function allStarted<const T extends readonly Closable[]>(
  starting: {
    readonly [K in keyof T]: Promise<T[K]>
  },
): Promise<T> {
  const settled = await Promise.allSettled(starting)
  const failure = settled.find((result) => result.status === 'rejected')
  if (failure === undefined) {
    return settled.map(
      (result) => (result as PromiseFulfilledResult<Closable>).value,
    ) as unknown as T
  }
  await Promise.all(
    settled.map((result) => (result.status === 'fulfilled' ? result.value?.close() : undefined)),
  )
  throw failure.reason
}
