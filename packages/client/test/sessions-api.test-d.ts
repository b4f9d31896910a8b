/**
 * Type tests of DESIGN §8's public API: stores, `beginAuthorization` / `completeAuthorization`,
 * `Session`, `TokenSet`, `resumeSession`, `validateIdToken`, the new errors, and the typed
 * token response a strict-mode user reads without a cast. Vitest type-checks this file (it is
 * never run); each `@ts-expect-error` fails if the call it marks ever becomes accepted.
 */
import { describe, expectTypeOf, it } from 'vitest'
import {
  type AccessTokenOptions,
  AuthorizationError,
  type BeginAuthorizationOptions,
  type BeginAuthorizationResult,
  type Client,
  type CompleteAuthorizationOptions,
  type FhirAuthErrorCode,
  type FhirContextItem,
  type IdTokenClaims,
  IdTokenError,
  type IdTokenFailureReason,
  type KeyValueStore,
  type MemoryStoreOptions,
  memoryStore,
  type ResumeSessionOptions,
  Session,
  type SessionRefreshOptions,
  StoreError,
  type StoreOperation,
  type TokenResponse,
  TokenSet,
  type TokensListener,
  type ValidateIdTokenOptions,
  type WebStorageLike,
  webStorageStore,
} from '../src/index.js'

declare const client: Client
declare const store: KeyValueStore
declare const session: Session
declare const tokens: TokenSet
declare const response: TokenResponse

describe('DESIGN §8 public API types', () => {
  it('a strict-mode user reads the SMART context without a cast', () => {
    const patient: string | undefined = tokens.patient
    const encounter: string | undefined = tokens.encounter
    const fhirUser: string | undefined = tokens.fhirUser
    const banner: boolean | undefined = tokens.needPatientBanner
    const context: readonly FhirContextItem[] = tokens.fhirContext
    expectTypeOf([patient, encounter, fhirUser]).toEqualTypeOf<(string | undefined)[]>()
    expectTypeOf(banner).toEqualTypeOf<boolean | undefined>()
    expectTypeOf(context).toEqualTypeOf<readonly FhirContextItem[]>()
    const fromResponse: string | undefined = response.patient
    const lifetime: number | undefined = response.expires_in
    expectTypeOf([fromResponse]).toEqualTypeOf<(string | undefined)[]>()
    expectTypeOf(lifetime).toEqualTypeOf<number | undefined>()
    // @ts-expect-error: patient is a string, never a number
    const wrong: number | undefined = tokens.patient
    void wrong
  })

  it('KeyValueStore: string values, all async, take optional', () => {
    expectTypeOf<KeyValueStore['get']>().toEqualTypeOf<
      (key: string) => Promise<string | null | undefined>
    >()
    expectTypeOf<KeyValueStore['set']>().toEqualTypeOf<
      (key: string, value: string, ttlSeconds: number) => Promise<void>
    >()
    expectTypeOf<KeyValueStore['delete']>().toEqualTypeOf<(key: string) => Promise<void>>()
    expectTypeOf<KeyValueStore['setIfAbsent']>().toEqualTypeOf<
      (key: string, value: string, ttlSeconds: number) => Promise<boolean>
    >()
    expectTypeOf<KeyValueStore['take']>().toEqualTypeOf<
      ((key: string) => Promise<string | null | undefined>) | undefined
    >()
    expectTypeOf(memoryStore).parameters.toEqualTypeOf<[options?: MemoryStoreOptions]>()
    expectTypeOf(memoryStore()).toExtend<KeyValueStore>()
    expectTypeOf(webStorageStore).parameter(0).toEqualTypeOf<WebStorageLike | undefined>()
    expectTypeOf(webStorageStore()).toExtend<KeyValueStore>()
    // @ts-expect-error: values are strings (the library serializes its records)
    store.set('k', { a: 1 }, 60)
  })

  it('beginAuthorization: authorizationUrl options plus a store; verifier only without one', () => {
    expectTypeOf(client.beginAuthorization)
      .parameter(0)
      .toEqualTypeOf<BeginAuthorizationOptions | undefined>()
    expectTypeOf<BeginAuthorizationOptions['store']>().toEqualTypeOf<KeyValueStore | undefined>()
    expectTypeOf<BeginAuthorizationOptions['launch']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<BeginAuthorizationOptions['method']>().toEqualTypeOf<'get' | 'post' | undefined>()
    expectTypeOf(
      client.beginAuthorization({ store }),
    ).resolves.toEqualTypeOf<BeginAuthorizationResult>()
    expectTypeOf<BeginAuthorizationResult['authUrl']>().toEqualTypeOf<string>()
    expectTypeOf<BeginAuthorizationResult['state']>().toEqualTypeOf<string>()
    expectTypeOf<BeginAuthorizationResult['codeVerifier']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<BeginAuthorizationResult['nonce']>().toEqualTypeOf<string | undefined>()
    // @ts-expect-error: a store is a KeyValueStore, not a Map
    client.beginAuthorization({ store: new Map<string, string>() })
  })

  it('completeAuthorization: a callback URL and a store or the kept values → Session', () => {
    expectTypeOf(
      client.completeAuthorization('https://app/cb?code=c&state=s', { store }),
    ).resolves.toEqualTypeOf<Session>()
    expectTypeOf(
      client.completeAuthorization(new URL('https://app/cb'), {
        state: 's',
        codeVerifier: 'v',
        nonce: 'n',
      }),
    ).resolves.toEqualTypeOf<Session>()
    expectTypeOf(client.completeAuthorization)
      .parameter(0)
      .toEqualTypeOf<string | URL | URLSearchParams>()
    expectTypeOf<CompleteAuthorizationOptions['onTokens']>().toEqualTypeOf<
      TokensListener | undefined
    >()
    expectTypeOf<CompleteAuthorizationOptions['signal']>().toEqualTypeOf<AbortSignal | undefined>()
    // No options: on Node the launch is in the process's default store.
    expectTypeOf(client.completeAuthorization)
      .parameter(1)
      .toEqualTypeOf<CompleteAuthorizationOptions | undefined>()
  })

  it('Session: tokens, accessToken, refresh, fetch', () => {
    expectTypeOf(session.tokens).toEqualTypeOf<TokenSet>()
    expectTypeOf(session.accessToken).parameters.toEqualTypeOf<[options?: AccessTokenOptions]>()
    expectTypeOf<AccessTokenOptions['minValiditySeconds']>().toEqualTypeOf<number | undefined>()
    expectTypeOf(session.accessToken()).resolves.toEqualTypeOf<string>()
    expectTypeOf(session.refresh).parameters.toEqualTypeOf<[options?: SessionRefreshOptions]>()
    expectTypeOf<SessionRefreshOptions['scopes']>().toEqualTypeOf<readonly string[] | undefined>()
    expectTypeOf(session.refresh()).resolves.toEqualTypeOf<TokenSet>()
    expectTypeOf(session.fetch('Patient/1')).resolves.toEqualTypeOf<Response>()
    expectTypeOf(
      session.fetch(new URL('https://ehr/fhir/Patient/1'), { method: 'GET' }),
    ).resolves.toEqualTypeOf<Response>()
    expectTypeOf(
      session.fetch(new Request('https://ehr/fhir/Patient/1')),
    ).resolves.toEqualTypeOf<Response>()
    expectTypeOf(session.toJSON()).toEqualTypeOf<Record<string, unknown>>()
    expectTypeOf<TokensListener>().toEqualTypeOf<(tokens: TokenSet) => void | Promise<void>>()
    // @ts-expect-error: sessions come from a Client, not from a constructor call by apps
    new Session()
  })

  it('TokenSet: the §8 members, isExpired, serialize', () => {
    expectTypeOf(tokens.accessToken).toEqualTypeOf<string>()
    expectTypeOf(tokens.tokenType).toEqualTypeOf<string>()
    expectTypeOf(tokens.expiresAt).toEqualTypeOf<Date | undefined>()
    expectTypeOf(tokens.scopes).toEqualTypeOf<string[]>()
    expectTypeOf(tokens.refreshToken).toEqualTypeOf<string | undefined>()
    expectTypeOf(tokens.idToken).toEqualTypeOf<string | undefined>()
    expectTypeOf(tokens.idTokenClaims).toEqualTypeOf<
      Readonly<Record<string, unknown>> | undefined
    >()
    expectTypeOf(tokens.smartStyleUrl).toEqualTypeOf<string | undefined>()
    expectTypeOf(tokens.intent).toEqualTypeOf<string | undefined>()
    expectTypeOf(tokens.tenant).toEqualTypeOf<string | undefined>()
    expectTypeOf(tokens.raw.access_token).toEqualTypeOf<string>()
    expectTypeOf(tokens.isExpired).parameters.toEqualTypeOf<
      [options?: { readonly minValiditySeconds?: number; readonly now?: Date }]
    >()
    expectTypeOf(tokens.isExpired()).toEqualTypeOf<boolean>()
    expectTypeOf(tokens.serialize()).toEqualTypeOf<string>()
    expectTypeOf(TokenSet.deserialize('…')).toEqualTypeOf<TokenSet | undefined>()
    // @ts-expect-error: a TokenSet is read-only
    tokens.accessToken = 'x'
  })

  it('resumeSession takes a TokenSet, a token response or a serialized string', () => {
    expectTypeOf(client.resumeSession(tokens)).toEqualTypeOf<Session>()
    expectTypeOf(client.resumeSession(tokens.serialize())).toEqualTypeOf<Session>()
    expectTypeOf(
      client.resumeSession({ access_token: 'a', expires_in: 60 }),
    ).toEqualTypeOf<Session>()
    expectTypeOf<ResumeSessionOptions['onTokens']>().toEqualTypeOf<TokensListener | undefined>()
    // @ts-expect-error: a token response has a string access_token
    client.resumeSession({ access_token: 42 })
  })

  it('validateIdToken resolves to the verified claims', () => {
    expectTypeOf(
      client.validateIdToken('jws', { nonce: 'n', maxAgeSeconds: 300 }),
    ).resolves.toEqualTypeOf<IdTokenClaims>()
    expectTypeOf<ValidateIdTokenOptions['nonce']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<IdTokenClaims['sub']>().toEqualTypeOf<string>()
    expectTypeOf<IdTokenClaims['aud']>().toEqualTypeOf<string | readonly string[]>()
    expectTypeOf<IdTokenClaims['fhirUser']>().toEqualTypeOf<unknown>()
  })

  it('the new errors: AuthorizationError, IdTokenError, StoreError with literal codes', () => {
    expectTypeOf<AuthorizationError['error']>().toEqualTypeOf<string>()
    expectTypeOf<AuthorizationError['errorDescription']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<AuthorizationError['errorUri']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<AuthorizationError['state']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<AuthorizationError['code']>().toEqualTypeOf<'ERR_AUTHORIZATION'>()
    expectTypeOf<IdTokenError['reason']>().toEqualTypeOf<IdTokenFailureReason>()
    expectTypeOf<IdTokenError['code']>().toEqualTypeOf<'ERR_ID_TOKEN'>()
    expectTypeOf<IdTokenFailureReason>().toExtend<string>()
    expectTypeOf<
      'malformed' | 'alg' | 'signature' | 'iss' | 'aud' | 'azp' | 'exp' | 'iat' | 'nonce' | 'jwks'
    >().toExtend<IdTokenFailureReason>()
    expectTypeOf<StoreError['operation']>().toEqualTypeOf<StoreOperation>()
    expectTypeOf<StoreError['code']>().toEqualTypeOf<'ERR_STORE'>()
    expectTypeOf<'ERR_AUTHORIZATION' | 'ERR_ID_TOKEN' | 'ERR_STORE'>().toExtend<FhirAuthErrorCode>()
    const thrown: unknown = undefined
    if (AuthorizationError.isInstance(thrown))
      expectTypeOf(thrown).toEqualTypeOf<AuthorizationError>()
    if (IdTokenError.isInstance(thrown))
      expectTypeOf(thrown.reason).toEqualTypeOf<IdTokenFailureReason>()
    if (StoreError.isInstance(thrown)) expectTypeOf(thrown).toEqualTypeOf<StoreError>()
  })
})
