/**
 * Type tests of the public API for apps many EHRs launch: `ClientDirectory`, its options, the
 * `SessionStore` it gives, and `session.revoke()`. Vitest type-checks this file (it is never
 * run); each `@ts-expect-error` fails if the call it marks ever becomes accepted.
 */
import { describe, expectTypeOf, it } from 'vitest'
import {
  type BeginAuthorizationResult,
  type Client,
  ClientDirectory,
  type ClientDirectoryOptions,
  type ClientResolver,
  type DirectoryBeginAuthorizationOptions,
  type DirectorySessionsOptions,
  type KeyValueStore,
  type Session,
  type SessionStore,
} from '../src/index.js'

declare const client: Client
declare const store: KeyValueStore
declare const session: Session

describe('ClientDirectory', () => {
  it('takes listed clients, a resolver and a store, all optional', () => {
    new ClientDirectory()
    new ClientDirectory({ clients: [client], store })
    new ClientDirectory({ resolve: async (iss: string) => (iss ? client : undefined) })
    expectTypeOf<ClientResolver>().returns.toEqualTypeOf<
      Client | undefined | Promise<Client | undefined>
    >()
    expectTypeOf<ClientDirectoryOptions['clients']>().toEqualTypeOf<readonly Client[] | undefined>()
    // @ts-expect-error a directory holds Clients, not configurations
    new ClientDirectory({ clients: [{ baseUrl: 'https://ehr.example.org/fhir' }] })
  })

  it('finds clients, begins and completes launches, and gives one SessionStore', async () => {
    const ehrs = new ClientDirectory({ clients: [client] })
    expectTypeOf(await ehrs.client('https://ehr.example.org/fhir')).toEqualTypeOf<Client>()
    const begun = await ehrs.beginAuthorization({
      iss: 'https://ehr.example.org/fhir',
      launch: 'x',
    })
    expectTypeOf(begun).toEqualTypeOf<BeginAuthorizationResult>()
    expectTypeOf<DirectoryBeginAuthorizationOptions>().toHaveProperty('customScopes')
    expectTypeOf<DirectoryBeginAuthorizationOptions>().toHaveProperty('method')
    // @ts-expect-error iss is required
    await ehrs.beginAuthorization({ launch: 'x' })
    expectTypeOf(await ehrs.completeAuthorization('https://app/callback')).toEqualTypeOf<Session>()
    expectTypeOf(ehrs.sessions({ ttlSeconds: 60 })).toEqualTypeOf<SessionStore>()
    expectTypeOf<DirectorySessionsOptions>().toEqualTypeOf<{
      readonly ttlSeconds?: number | undefined
      readonly store?: KeyValueStore | undefined
    }>()
    expectTypeOf(ehrs.listed).toEqualTypeOf<readonly Client[]>()
    expectTypeOf(ehrs.resolves).toEqualTypeOf<boolean>()
  })
})

describe('session.revoke()', () => {
  it('resolves whether the server revoked', async () => {
    expectTypeOf(await session.revoke()).toEqualTypeOf<boolean>()
    expectTypeOf(session.revoke).parameters.toEqualTypeOf<[]>()
  })
})
