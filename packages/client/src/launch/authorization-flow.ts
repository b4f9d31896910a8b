import {
  AuthorizationError,
  ConfigurationError,
  defaultTimeoutMs,
  TokenError,
  TokenSet,
} from '@fhir-auth/core/essentials'
import { abortedByCaller, requireNonBlankString, warnIfNarrowed } from '@fhir-auth/core/internal'
import { defaultLaunchStore } from '#default-launch-store'
import type {
  BeginAuthorizationOptions,
  BeginAuthorizationResult,
  CompleteAuthorizationOptions,
} from '../operation-options.js'
import type { ProtocolContext } from '../protocol-context.js'
import type { SessionSource } from '../session/session-source.js'
import {
  checkCallbackAfterState,
  checkCallbackBeforeState,
  readCallback,
} from './authorization-callback.js'
import { type LaunchRecord, type StoreCallLimits, saveLaunch, takeLaunch } from './launch-record.js'

/**
 * `session.fetch`'s rules travel with the launch: the flow that completes an authorization goes
 * on to its first request, and one chunk costs less than two (a chunk starts gzip's dictionary
 * from nothing). A session resumed without a launch loads this module on its first request too.
 */
export { bearerFetch } from '../tokens/bearer-fetch.js'

/**
 * `client.beginAuthorization`: `authorizationUrl` plus a fresh `nonce` when `openid` is asked,
 * and the launch kept under its `state` for 600 s, so that any process or tab holding the same
 * store can finish it. Without a store it is kept in the default store (on Node, the process's
 * memory; elsewhere none), and the result also carries `codeVerifier` (and `nonce`) for a
 * caller who keeps them itself.
 *
 * @throws ConfigurationError as `authorizationUrl` does, and on `store`; StoreError when the
 *   store refuses the launch (then do not redirect).
 * @see https://github.com/fhir-auth/fhir-auth/blob/main/docs/guides/tokens-over-time.md
 * @internal
 */
export async function beginAuthorization(
  source: SessionSource,
  input: BeginAuthorizationOptions | undefined,
): Promise<BeginAuthorizationResult> {
  const { context } = source
  const options = context.readOptions(input, 'beginAuthorization')
  const givenStore = context.checks.optionalStore(options.store)
  const store = givenStore ?? defaultLaunchStore()
  const started = await (await source.implementation()).startAuthorization(options)
  const result: BeginAuthorizationResult = {
    authUrl: started.authUrl,
    state: started.state,
    ...(started.params === undefined ? {} : { params: started.params }),
  }
  if (store !== undefined) {
    await saveLaunch(
      store,
      {
        state: started.state,
        codeVerifier: started.codeVerifier,
        nonce: started.nonce,
        redirectUri: started.redirectUri,
        scopes: started.scopes,
        issuer: context.config.issuer ?? '',
        baseUrl: context.config.baseUrl,
        createdAt: context.options.now().getTime(),
      },
      storeLimits(context, options.signal),
    )
  }
  if (givenStore !== undefined) return result
  return {
    ...result,
    codeVerifier: started.codeVerifier,
    ...(started.nonce === undefined ? {} : { nonce: started.nonce }),
  }
}

/**
 * `client.completeAuthorization`: the callback checked in the order of docs/guides/tokens-over-time.md — an `error`
 * parameter, the `state` (a stored launch, taken out so a replay fails, or the caller's), RFC
 * 9207 `iss`, the `code` — then the code exchange, then the ID token when `openid` was asked.
 * No token request is sent when a check fails.
 *
 * @throws AuthorizationError for the callback; ConfigurationError for the options; TokenError
 *   for the exchange; IdTokenError for the ID token; StoreError when the store fails.
 * @internal
 */
export async function completeAuthorization<TSession>(
  source: SessionSource<TSession>,
  callbackUrl: unknown,
  input: CompleteAuthorizationOptions | undefined,
): Promise<TSession> {
  const { context } = source
  const options = context.readOptions(input, 'completeAuthorization')
  const givenStore = context.checks.optionalStore(options.store)
  const onTokens = context.checks.optionalListener(options.onTokens)
  // The store given, else the caller's values, else the default store (Node only).
  const store = givenStore ?? (options.state === undefined ? defaultLaunchStore() : undefined)
  if (store === undefined && options.state === undefined) {
    throw new ConfigurationError({
      invalidAttribute: 'store',
      message:
        'completeAuthorization needs the store the launch was kept in (webStorageStore in a browser), or the state and codeVerifier you kept',
    })
  }
  // docs/guides/errors-and-logging.md#cancellation: nothing happens for a signal already aborted — the launch stays in the store.
  if (options.signal?.aborted) {
    throw new TokenError(
      { message: 'completeAuthorization was aborted by the caller before it started' },
      { cause: abortedByCaller('callbackUrl') },
    )
  }
  const callback = readCallback(callbackUrl)
  const state = checkCallbackBeforeState(callback)
  const launch =
    store === undefined
      ? await callerKeptLaunch(source, state, options)
      : await takeLaunch(store, state, context.options.now(), storeLimits(context, options.signal))
  if (launch === undefined) {
    throw new AuthorizationError({
      error: 'state_mismatch',
      state,
      message:
        store === undefined
          ? 'the callback state is not the state of this launch (a response to another request, or a forged one)'
          : 'no launch is kept for this state: it is unknown, expired, already used, or kept in another store',
    })
  }
  // A launch another client began (clients sharing a store and a redirect URI, as in a
  // directory): its code and verifier are for another server, so nothing is sent.
  if (launch.baseUrl !== undefined && launch.baseUrl !== context.config.baseUrl) {
    throw new AuthorizationError({
      error: 'state_mismatch',
      state,
      message: 'this launch was begun by another client',
    })
  }
  if (launch.issuer !== '' && launch.issuer !== (context.config.issuer ?? '')) {
    throw new AuthorizationError({
      error: 'iss_mismatch',
      state,
      message: `this launch was begun for ${launch.issuer}, not for this client's ${context.config.issuer}`,
    })
  }
  const implementation = await source.implementation()
  const trust = context.checks.trustInputsOf(options)
  const expected = await implementation.authorizationIssuer(options.signal, {
    carriesIss: callback.iss !== undefined,
    trust,
  })
  const code = checkCallbackAfterState(callback, expected)
  const obtainedAt = context.options.now()
  const response = await implementation.requestAccessToken({
    code,
    codeVerifier: launch.codeVerifier,
    signal: options.signal,
    ...trust,
  })
  const idToken = response.id_token
  // A nonce is sent exactly when openid is asked for; it also covers a caller-kept launch begun
  // with customScopes that the configured scopes do not show.
  const asksIdentity = launch.scopes.includes('openid') || launch.nonce !== undefined
  const idTokenClaims =
    asksIdentity && typeof idToken === 'string'
      ? await source.identity.validate(idToken, { nonce: launch.nonce, signal: options.signal })
      : undefined
  // The server and client the tokens are for, kept in their serialization (a resume elsewhere
  // is refused): the endpoint that just answered, so discovery is not asked again.
  const tokenEndpoint = await implementation.tokenEndpoint({ ...trust, signal: options.signal })
  const tokens = TokenSet.fromResponse(response, {
    obtainedAt,
    requestedScopes: launch.scopes,
    idTokenClaims,
    logger: context.options.logger,
    clock: context.options.now,
    binding: { ...context.binding(), tokenEndpoint },
  })
  warnIfNarrowed(launch.scopes, tokens.scopes, context.options.logger)
  return source.open(tokens, onTokens, trust)
}

/** Store calls get the client's time limit per request, and the caller's signal. */
function storeLimits(context: ProtocolContext, signal: AbortSignal | undefined): StoreCallLimits {
  return { timeoutMs: context.options.timeoutMs ?? defaultTimeoutMs, signal }
}

/**
 * A launch from the values the caller kept; `undefined` when the callback's state is not theirs.
 * Its scopes are those the launch asked for (`customScopes` included) when the default store
 * still keeps it — `beginAuthorization` keeps every launch begun without a store there, on Node
 * — and it is then taken out, so a replay finds nothing there; else the configured scopes.
 */
async function callerKeptLaunch(
  source: SessionSource,
  callbackState: string,
  options: Partial<CompleteAuthorizationOptions>,
): Promise<LaunchRecord | undefined> {
  const { config, options: clientOptions } = source.context
  const state = requireNonBlankString(options.state, 'state')
  const codeVerifier = requireNonBlankString(options.codeVerifier, 'codeVerifier')
  if (state !== callbackState) return undefined
  const store = defaultLaunchStore()
  const kept =
    store === undefined
      ? undefined
      : await takeLaunch(
          store,
          state,
          clientOptions.now(),
          storeLimits(source.context, options.signal),
        )
  const scopes = kept?.codeVerifier === codeVerifier ? kept.scopes : (config.scopes ?? [])
  if (scopes.includes('openid') && (options.nonce ?? '') === '') {
    // Without it the ID token's nonce is not compared: a token injected into this callback
    // (OIDC Core §3.1.3.7 item 11) would pass.
    throw new ConfigurationError({
      invalidAttribute: 'nonce',
      message:
        'nonce is required when the scopes include openid: pass the nonce beginAuthorization returned with the state and codeVerifier',
    })
  }
  const nonce =
    options.nonce === undefined ? undefined : requireNonBlankString(options.nonce, 'nonce')
  return {
    state,
    codeVerifier,
    nonce,
    redirectUri: config.redirectUri ?? '',
    scopes,
    issuer: '',
    createdAt: 0,
  }
}
