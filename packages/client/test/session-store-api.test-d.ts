/**
 * Type tests of `client.sessions()`: the `SessionStore` an app keeps sessions in, its options,
 * and what `open` resolves with. Vitest type-checks this file (it is never run); each
 * `@ts-expect-error` fails if the call it marks ever becomes accepted.
 */
import { describe, expectTypeOf, it } from 'vitest'
import type {
  Client,
  KeyValueStore,
  OpenSessionOptions,
  Session,
  SessionStore,
  SessionStoreOptions,
  TokenSet,
} from '../src/index.js'

declare const client: Client
declare const store: KeyValueStore
declare const session: Session

describe('client.sessions()', () => {
  it('takes an optional store and time to live and gives a SessionStore', () => {
    expectTypeOf(client.sessions()).toEqualTypeOf<SessionStore>()
    expectTypeOf(client.sessions({ store, ttlSeconds: 3600 })).toEqualTypeOf<SessionStore>()
    expectTypeOf<SessionStoreOptions['store']>().toEqualTypeOf<KeyValueStore | undefined>()
    // @ts-expect-error an unknown option
    client.sessions({ stor: store })
    // @ts-expect-error seconds are a number
    client.sessions({ ttlSeconds: '12h' })
  })

  it('saves a Session under a string id and opens it again, or not', async () => {
    const sessions = client.sessions({ store })
    expectTypeOf(await sessions.save(session)).toEqualTypeOf<string>()
    expectTypeOf(await sessions.open('id')).toEqualTypeOf<Session | undefined>()
    expectTypeOf(
      await sessions.open('id', { onTokens: (tokens: TokenSet) => void tokens }),
    ).toEqualTypeOf<Session | undefined>()
    expectTypeOf<OpenSessionOptions['onTokens']>().parameters.toEqualTypeOf<[TokenSet]>()
    expectTypeOf(await sessions.delete('id')).toEqualTypeOf<void>()
    expectTypeOf(await sessions.signOut('id')).toEqualTypeOf<boolean>()
    // @ts-expect-error save takes a Session, not its tokens
    await sessions.save(session.tokens)
    // @ts-expect-error an unknown option of open
    await sessions.open('id', { onToken: () => {} })
  })
})
