import type { FetchLike, Logger, TransportOptions } from '@fhir-auth/core/essentials'
import type { SmartMetadata } from '@fhir-auth/smart/launch'
import type { ClientType } from '../client-type.js'
import type { KnownServer } from '../smart/issuer-binding.js'
import type { DiagnosticCheck } from './diagnostic-report.js'
import type { DiagnosticServerAccess } from './server-access.js'

/** The SMART configuration as a diagnosis read it, with the server's `Date` header. */
export interface DiagnosedDiscovery {
  readonly check: DiagnosticCheck
  readonly metadata: SmartMetadata | undefined
  /** The `Date` header of the discovery response, when the server sent one. */
  readonly serverDate: Date | undefined
}

/**
 * `discovery`: fetches the SMART configuration through the library's own discovery (the same
 * tolerances, each noted as a `warn`) and keeps the response's `Date` header for `clock`.
 */
export async function checkDiscovery(
  server: DiagnosticServerAccess,
  baseUrl: string | undefined,
  transport: TransportOptions,
): Promise<DiagnosedDiscovery> {
  if (baseUrl === undefined) {
    return {
      check: {
        id: 'discovery',
        status: 'fail',
        message: 'no baseUrl is configured, so there is no SMART configuration to read',
        hint: 'set baseUrl to the FHIR base URL (the server’s "iss")',
      },
      metadata: undefined,
      serverDate: undefined,
    }
  }
  let serverDate: Date | undefined
  const fetch = transport.fetch ?? ((url, init) => globalThis.fetch(url, init))
  const dated: FetchLike = async (url, init) => {
    const response = await fetch(url, init)
    const date = Date.parse(response.headers.get('date') ?? '')
    serverDate = Number.isNaN(date) ? undefined : new Date(date)
    return response
  }
  const problems = collectingLogger()
  try {
    const metadata = await server.discover(baseUrl, {
      ...transport,
      fetch: dated,
      logger: problems,
    })
    await server.noteRelativeEndpoints(metadata, problems)
    const where = metadata.discoveryUrl ?? baseUrl
    const check: DiagnosticCheck =
      problems.messages.length === 0
        ? { id: 'discovery', status: 'pass', message: `SMART configuration read from ${where}` }
        : {
            id: 'discovery',
            status: 'warn',
            message: `SMART configuration read from ${where}, with deviations: ${problems.messages.join('; ')}`,
            hint: 'the client tolerates these; ask the server’s operators to fix them, since stricter clients fail on them',
          }
    return { check, metadata, serverDate }
  } catch (error) {
    return {
      check: {
        id: 'discovery',
        status: 'fail',
        message: (error as Error).message,
        hint: 'check baseUrl: the server must answer GET <baseUrl>/.well-known/smart-configuration with JSON (use allowInsecureLocalhost only for loopback http: servers)',
      },
      metadata: undefined,
      serverDate,
    }
  }
}

/** `issuer-binding`: the issuer the configuration names is used only when bound (ADR 0013). */
export async function checkIssuerBinding(
  server: DiagnosticServerAccess,
  metadata: SmartMetadata,
  known: KnownServer,
  transport: TransportOptions,
): Promise<DiagnosticCheck> {
  const issuer = metadata.issuer
  if (issuer === undefined) {
    return {
      id: 'issuer-binding',
      status: 'warn',
      message: 'the SMART configuration names no issuer',
      hint: 'without one, ID tokens and RFC 9207 iss cannot be checked: set issuer in the client configuration to the one the server documents',
    }
  }
  const binding = await server.bindIssuer(issuer, metadata, known, transport)
  if (binding.bound) {
    return {
      id: 'issuer-binding',
      status: 'pass',
      message: `issuer ${issuer} is bound to the server`,
    }
  }
  return {
    id: 'issuer-binding',
    status: 'fail',
    message: `issuer ${issuer} is not bound to the server: ${binding.why}`,
    hint: `if ${issuer} is this server's issuer, set issuer to it in the client configuration; otherwise the SMART configuration names another server's issuer, and callbacks with iss and ID tokens will be refused`,
  }
}

/** What each client type needs advertised: its capability and its authentication method. */
const advertisement = {
  public: { capability: 'client-public', method: 'none' },
  confidential_symmetric: {
    capability: 'client-confidential-symmetric',
    method: 'client_secret_basic',
  },
  confidential_asymmetric: {
    capability: 'client-confidential-asymmetric',
    method: 'private_key_jwt',
  },
} as const

/** `capabilities`: the server advertises this client type and how it authenticates. */
export function checkCapabilities(
  metadata: SmartMetadata,
  clientType: ClientType | null,
): DiagnosticCheck {
  const type = clientType ?? 'public'
  const { capability, method } = advertisement[type]
  const supported =
    type === 'public'
      ? metadata.supportsPublicAuth()
      : type === 'confidential_symmetric'
        ? metadata.supportsSymmetricAuth()
        : metadata.supportsAsymmetricAuth() || metadata.supportsBackendServices()
  const methods = metadata.tokenEndpointAuthMethodsSupported
  const found = `capabilities ${metadata.capabilities.includes(capability) ? 'list' : 'lack'} ${capability}${
    type === 'public' ? '' : `; token_endpoint_auth_methods_supported ${list(methods)}`
  }`
  if (supported) {
    return {
      id: 'capabilities',
      status: 'pass',
      message: `${type} clients are advertised (${found})`,
    }
  }
  return {
    id: 'capabilities',
    status: 'fail',
    message: `the server does not advertise ${type} clients (${found})`,
    hint: `register the kind of client the server supports and set clientType to match; a ${type} client needs ${capability}${type === 'public' ? '' : ` and ${method}`}`,
  }
}

/** `pkce`: `S256` listed (the client sends it whatever the list says). */
export function checkPkce(metadata: SmartMetadata, usesRedirects: boolean): DiagnosticCheck {
  if (!usesRedirects) {
    return { id: 'pkce', status: 'pass', message: 'not used: no redirectUri (backend services)' }
  }
  const methods = metadata.codeChallengeMethodsSupported
  if (methods === undefined) {
    return {
      id: 'pkce',
      status: 'warn',
      message: 'code_challenge_methods_supported is missing; S256 is sent anyway',
      hint: 'nothing to change if launches work (athenahealth works this way); ask the operators to list S256',
    }
  }
  if (!methods.includes('S256')) {
    return {
      id: 'pkce',
      status: 'fail',
      message: `code_challenge_methods_supported lists ${list(methods)}, not S256`,
      hint: 'SMART requires S256, which the client always sends: the server may refuse launches; ask its operators',
    }
  }
  if (methods.includes('plain')) {
    return {
      id: 'pkce',
      status: 'warn',
      message: 'S256 is listed, and plain too (SMART prohibits plain)',
      hint: 'nothing to change in the client (it only sends S256); tell the server’s operators',
    }
  }
  return { id: 'pkce', status: 'pass', message: 'S256 is listed' }
}

/** `scopes`: the configured scopes against `scopes_supported` (`x/*.y` covers `x/Type.y`). */
export function checkScopes(
  metadata: SmartMetadata,
  scopes: readonly string[] | undefined,
): DiagnosticCheck {
  if (scopes === undefined || scopes.length === 0) {
    return {
      id: 'scopes',
      status: 'warn',
      message: 'no scopes are configured',
      hint: 'set scopes (or pass them per request): backend services fall back to system/*.rs, which is deprecated',
    }
  }
  const supported = metadata.scopesSupported
  if (supported === undefined) {
    return {
      id: 'scopes',
      status: 'warn',
      message: 'the server lists no scopes_supported, so the scopes cannot be checked',
      hint: 'nothing to change unless a request fails with invalid_scope; then ask the operators which scopes the client may have',
    }
  }
  const missing = scopes.filter((scope) => !isCovered(scope, supported))
  if (missing.length === 0) {
    return {
      id: 'scopes',
      status: 'pass',
      message: `every configured scope is listed (${scopes.join(' ')})`,
    }
  }
  return {
    id: 'scopes',
    status: 'warn',
    message: `not in scopes_supported: ${missing.join(' ')}`,
    hint: `check the spelling and version (v1 .read or v2 .rs) of these scopes; the server lists ${list(supported)}`,
  }
}

/** The largest skew (in seconds) a server tolerates with assertion `iat`/`exp` in practice. */
const clockToleranceSeconds = 60

/** `clock`: this clock against the server's `Date` header. */
export function checkClock(serverDate: Date | undefined, now: Date): DiagnosticCheck {
  if (serverDate === undefined) {
    return {
      id: 'clock',
      status: 'warn',
      message: 'the server sent no Date header, so clock skew cannot be measured',
      hint: 'make sure this machine’s clock is synchronized (NTP): assertions are judged by the server’s clock',
    }
  }
  const skew = Math.round((now.getTime() - serverDate.getTime()) / 1000)
  if (Math.abs(skew) <= clockToleranceSeconds) {
    return {
      id: 'clock',
      status: 'pass',
      message: `this clock is within ${clockToleranceSeconds} s of the server's (${skew} s)`,
    }
  }
  return {
    id: 'clock',
    status: 'warn',
    message: `this clock is ${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} the server's`,
    hint: 'synchronize this machine’s clock (NTP): servers refuse assertions whose iat or exp look wrong to them',
  }
}

function isCovered(scope: string, supported: readonly string[]): boolean {
  if (supported.includes(scope)) return true
  const match = /^(patient|user|system)\/[^.]+\.(.+)$/.exec(scope)
  return match !== null && supported.includes(`${match[1]}/*.${match[2]}`)
}

function list(values: readonly string[] | undefined): string {
  return values === undefined ? '(none)' : values.length === 0 ? '(empty)' : values.join(', ')
}

/** A logger that keeps warnings as the deviations a check reports. */
function collectingLogger(): Logger & { readonly messages: string[] } {
  const messages: string[] = []
  const ignore = () => {}
  return {
    messages,
    debug: ignore,
    info: ignore,
    error: ignore,
    warn: (message) => void messages.push(message),
  }
}
