import type {
  BasicAuthEncoding,
  BeginAuthorizationResult,
  Client,
  ClientConfigInput,
} from '@fhir-auth/client'
import { ConfigurationError } from '@fhir-auth/core'
import {
  checkOnlyWith,
  checkProtocolOptions,
  type OptionSpec,
  type ParsedFlags,
  readScopes,
  usageError,
} from '../args.js'
import {
  type AuthorizationTarget,
  smartTarget,
  udapAuthorizeOptions,
  udapTarget,
} from '../authorization/authorization-target.js'
import { authorizationFormHtml } from '../authorization/post-form.js'
import { readFirstLine } from '../authorization/read-line.js'
import { isAtRedirectUri, readRedirectUrl } from '../authorization/redirect-callback.js'
import { readEnvironmentSecret } from '../inputs/secret-inputs.js'
import { smartClientFromCredentials } from '../inputs/smart-credentials.js'
import { formatRows } from '../output/human-format.js'
import { writeIdTokenClaims } from '../output/id-token-claims-output.js'
import { writeTokenResponse } from '../output/token-output.js'
import type { Command, CommandContext } from './command.js'
import {
  baseUrlOption,
  clientIdOption,
  keyOption,
  kidOption,
  scopeOption,
  secretsNote,
  udapIdentityUsage,
  udapOption,
} from './shared-options.js'

const options: readonly OptionSpec[] = [
  udapOption,
  baseUrlOption,
  clientIdOption,
  {
    name: 'redirect-uri',
    kind: 'string',
    valueName: 'uri',
    description: 'the registered redirect URI',
  },
  scopeOption,
  {
    name: 'launch',
    kind: 'string',
    valueName: 'token',
    description: 'the launch parameter of an EHR launch',
    protocol: 'smart',
  },
  {
    name: 'post',
    kind: 'boolean',
    description: 'authorize-post: print an HTML form (or, with --json, the parameters)',
  },
  {
    name: 'client-secret-env',
    kind: 'string',
    valueName: 'VAR',
    description: 'environment variable holding the client secret (confidential symmetric client)',
    protocol: 'smart',
  },
  {
    name: 'basic-auth-encoding',
    kind: 'string',
    valueName: 'form-urlencoded|raw',
    description:
      'with --client-secret-env: how id and secret go in HTTP Basic (default form-urlencoded, RFC 6749; raw = base64(id:secret))',
    protocol: 'smart',
  },
  {
    ...keyOption,
    description: `${keyOption.description} (confidential asymmetric client; UDAP: the client key)`,
  },
  kidOption,
  ...udapAuthorizeOptions,
  {
    name: 'redirect-url',
    kind: 'string',
    valueName: 'url',
    description:
      'the redirect URL of an earlier --url-only run, with --state and --code-verifier-env',
  },
  {
    name: 'url-only',
    kind: 'boolean',
    description:
      'print the request with its state and code verifier and stop (finish with --redirect-url)',
  },
  {
    name: 'state',
    kind: 'string',
    valueName: 'state',
    description: 'with --redirect-url: the state printed by --url-only',
  },
  {
    name: 'code-verifier-env',
    kind: 'string',
    valueName: 'VAR',
    description: 'with --redirect-url: environment variable holding the printed code verifier',
  },
  {
    name: 'nonce',
    kind: 'string',
    valueName: 'nonce',
    description:
      'with --redirect-url: the nonce printed by --url-only (openid), which the ID token must carry',
  },
]

/** What a launch needs to be finished: kept in memory, or printed by `--url-only`. */
interface KeptLaunch {
  readonly state: string
  readonly codeVerifier: string
  readonly nonce: string | undefined
}

/** The flags that build a new request, meaningless when finishing one with `--redirect-url`. */
const requestFlags = ['launch', 'idp', 'post', 'url-only']

/**
 * `fhir-auth authorize`: a SMART App Launch authorization (EHR launch with `--launch`, else
 * standalone) with PKCE, or with `--udap` a UDAP authorization code (the signed authorization
 * endpoint, a UDAP authentication token; `--idp` for Tiered OAuth), on `beginAuthorization` /
 * `completeAuthorization`. Prints the authorization URL (or the authorize-post form), keeps
 * `state`, the code verifier and the nonce in memory, reads the redirect URL pasted on stdin, lets
 * the library check it (error, state, RFC 9207 `iss`, code), exchange the code and validate the
 * ID token; `--verbose` prints the validated claims. Scripts split it in two runs: `--url-only`,
 * then `--redirect-url` with `--state`, `--code-verifier-env` and `--nonce`.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/app-launch.html
 * @see https://hl7.org/fhir/us/udap-security/STU2/consumer.html
 */
export const authorizeCommand: Command = {
  name: 'authorize',
  summary: 'authorize an app in a browser (SMART or UDAP) and exchange the code for tokens',
  synopsis: [
    '--base-url <url> --client-id <id> --redirect-uri <uri> --scope <scope>… [--launch <token>] [--post] [--client-secret-env <VAR> [--basic-auth-encoding raw] | --key <file> --kid <kid>]',
    `--udap --base-url <url> --client-id <id> --redirect-uri <uri> --scope <scope>… [--idp <url>] [--post] ${udapIdentityUsage} --trust-anchor <file>… [--crl <file>…]`,
    '… --url-only',
    '… --redirect-url <url> --state <state> --code-verifier-env <VAR> [--nonce <nonce>]',
  ],
  positionals: [],
  options,
  notes: [
    'Interactive: open the printed URL (or submit the printed form), sign in, then paste the URL the browser was redirected to. The code is exchanged only when the redirect carries no error, its state matches and its iss (RFC 9207) is the server\'s; with openid the ID token is validated. --json writes two lines on stdout: {"authorizationRequest": …} first, then the token response.',
    'Identity: with --verbose, the validated ID token claims follow the token response (with --json as a third line, {"idTokenClaims": …}).',
    'Scripts: --url-only prints the request with its state, code verifier and nonce (JSON: {authorizationRequest, state, codeVerifier, nonce}); a second run with --redirect-url, --state, the verifier in an environment variable and --nonce exchanges the code.',
    'Client type: public by default; --client-secret-env makes a confidential symmetric client, --key with --kid a confidential asymmetric one. Prints the token response (tokens included); stderr never shows a token, code or verifier.',
    'UDAP (--udap): a registered client (fhir-auth register --udap with authorization_code) signs a UDAP authentication token with its key and certificate; the authorization endpoint is the one the server signed, checked against --trust-anchor and --crl. --idp <url> asks for Tiered OAuth (the udap scope is added): the data holder signs the user in at that identity provider. With openid, the ID token is validated with the nonce sent (--nonce in the second run of a split authorization).',
    'HTTP Basic: id and secret are form-urlencoded first (RFC 6749 §2.3.1); servers that expect base64(id:secret) as it is (the SMART IG example) need --basic-auth-encoding raw when the id or secret has characters such as ~ + / = : % or non-ASCII.',
    secretsNote,
  ],
  async execute(flags: ParsedFlags, context: CommandContext): Promise<void> {
    checkProtocolOptions(flags, options, flags.flag('udap') ? 'udap' : 'smart')
    const redirectUrl = flags.string('redirect-url')
    if (redirectUrl !== undefined) {
      await finishAuthorization(flags, redirectUrl, context)
      return
    }
    checkOnlyWith(flags, ['state', 'code-verifier-env', 'nonce'], 'redirect-url')
    const target = await authorizationTarget(flags, context)
    context.output.progress('discovering the authorization endpoint')
    // No store: the CLI keeps the launch itself, in memory or printed for a second run.
    const request = await target.client.beginAuthorization({
      ...target.requestOptions,
      method: flags.flag('post') ? 'post' : 'get',
    })
    const kept: KeptLaunch = {
      state: request.state,
      codeVerifier: request.codeVerifier ?? '',
      nonce: request.nonce,
    }
    context.secrets.add(kept.codeVerifier)
    if (flags.flag('url-only')) {
      writeUrlOnly(request, kept, context)
      return
    }
    writeRequest(request, context)
    if (!context.output.isJson) {
      context.output.prompt('Paste the URL your browser was redirected to and press Enter: ')
    }
    const pasted = await readFirstLine(context.io.stdin)
    if (pasted === undefined) {
      throw new ConfigurationError({
        invalidAttribute: 'redirectUrl',
        message:
          'no redirect URL on stdin: paste the address the browser was sent to after signing in',
      })
    }
    await exchange(target, pasted, kept, context)
  },
}

/**
 * The second run of a split authorization: exchanges the code of a pasted redirect URL with the
 * `--state` and code verifier printed by `--url-only`. The flags of the other mode and missing
 * companions are refused before anything is read.
 *
 * @throws ConfigurationError on the flag (a usage error).
 */
async function finishAuthorization(
  flags: ParsedFlags,
  redirectUrl: string,
  context: CommandContext,
): Promise<void> {
  for (const flag of requestFlags) {
    if (flags.has(flag))
      throw usageError(`--${flag}`, `--${flag} cannot be used with --redirect-url`)
  }
  const state = flags.requireString('state', 'with --redirect-url')
  const variable = flags.requireString('code-verifier-env', 'with --redirect-url')
  const target = await authorizationTarget(flags, context)
  const codeVerifier = readEnvironmentSecret(variable, '--code-verifier-env', context)
  await exchange(
    target,
    redirectUrl,
    { state, codeVerifier, nonce: flags.string('nonce') },
    context,
  )
}

/** The client of this authorization and the protocol's part of the request and exchange. */
async function authorizationTarget(
  flags: ParsedFlags,
  context: CommandContext,
): Promise<AuthorizationTarget> {
  if (flags.flag('udap')) return udapTarget(flags, context)
  return smartTarget(await authorizeClient(flags, context), flags)
}

/** The SMART client for this authorization, its type chosen by the credential flags. */
function authorizeClient(flags: ParsedFlags, context: CommandContext): Promise<Client> {
  const config: ClientConfigInput = {
    baseUrl: flags.requireString('base-url'),
    clientId: flags.requireString('client-id'),
    redirectUri: flags.requireString('redirect-uri'),
    scopes: readScopes(flags),
  }
  return smartClientFromCredentials(flags, context, config, {
    keyOnly: ['kid'],
    secretOnly: ['basic-auth-encoding'],
    basicAuthEncoding: () => readBasicAuthEncoding(flags),
  })
}

/**
 * Reads `--basic-auth-encoding`.
 *
 * @throws ConfigurationError on `--basic-auth-encoding` (a usage error) for another value.
 */
function readBasicAuthEncoding(flags: ParsedFlags): BasicAuthEncoding | undefined {
  const value = flags.string('basic-auth-encoding')
  if (value === undefined || value === 'form-urlencoded' || value === 'raw') return value
  throw usageError('--basic-auth-encoding', '--basic-auth-encoding must be form-urlencoded or raw')
}

function requestDocument(request: BeginAuthorizationResult): Record<string, unknown> {
  return request.params === undefined
    ? { method: 'get', url: request.authUrl }
    : { method: 'post', endpoint: request.authUrl, params: request.params }
}

function requestText(request: BeginAuthorizationResult): string {
  if (request.params === undefined) {
    return `Open this URL in a browser and sign in:\n\n  ${request.authUrl}\n\n`
  }
  return `Submit this form from a browser page (authorize-post) and sign in:\n\n${authorizationFormHtml(request.authUrl, request.params)}\n`
}

function writeRequest(request: BeginAuthorizationResult, context: CommandContext): void {
  context.output.result({ authorizationRequest: requestDocument(request) }, () =>
    requestText(request),
  )
}

function writeUrlOnly(
  request: BeginAuthorizationResult,
  kept: KeptLaunch,
  context: CommandContext,
): void {
  const document = {
    authorizationRequest: requestDocument(request),
    state: kept.state,
    codeVerifier: kept.codeVerifier,
    ...(kept.nonce === undefined ? {} : { nonce: kept.nonce }),
  }
  const rows: [string, string][] = [
    ['state', kept.state],
    ['code verifier', kept.codeVerifier],
    ...(kept.nonce === undefined ? [] : [['nonce', kept.nonce] as [string, string]]),
  ]
  const nonceFlag = kept.nonce === undefined ? '' : ' --nonce <nonce>'
  context.output.result(
    document,
    () =>
      `${requestText(request)}${formatRows(rows)}\nThen run the same command with --redirect-url <url> --state <state> --code-verifier-env <VAR>${nonceFlag}.\n`,
  )
}

/**
 * Finishes the launch with the library: the redirect's checks, the code exchange and the ID
 * token validation, then the token response (and, with `--verbose`, the validated claims).
 */
async function exchange(
  target: AuthorizationTarget,
  redirectUrl: string,
  kept: KeptLaunch,
  context: CommandContext,
): Promise<void> {
  const { client } = target
  // The redirect URL carries the code: keep it off stderr before anything can fail.
  context.secrets.add(redirectUrl)
  const parameters = readRedirectUrl(redirectUrl)
  const code = parameters.get('code')
  if (code !== null) context.secrets.add(code)
  const redirectUri = client.config.redirectUri ?? ''
  if (!isAtRedirectUri(redirectUrl, redirectUri)) {
    context.output.warning(`the pasted URL is not at the redirect URI ${redirectUri}`)
  }
  context.output.progress('exchanging the authorization code')
  const session = await client.completeAuthorization(parameters, {
    ...target.exchangeOptions,
    state: kept.state,
    codeVerifier: kept.codeVerifier,
    nonce: kept.nonce,
  })
  writeTokenResponse(session.tokens.raw, context)
  writeIdTokenClaims(session.tokens, context)
}
