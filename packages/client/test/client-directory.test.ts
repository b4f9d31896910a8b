/**
 * `ClientDirectory` on its own: construction and caller input (fuzzed `iss`, callbacks, ids)
 * refused with typed errors before any request, `resolve` asked once per burst and never
 * remembered for an `undefined` or a failure, and launches routed by `state` to the client
 * that began them. The servers are fakes that count requests; the real servers are in
 * internal/integration-tests (test/smart/client-directory.test.ts).
 */
import {
  AuthorizationError,
  Client,
  ClientDirectory,
  type ClientResolver,
  ConfigurationError,
  type KeyValueStore,
  memoryStore,
  StoreError,
} from '@fhir-auth/client'
import { describe, expect, it } from 'vitest'
import {
  baseUrl,
  configurationError,
  configurationRejection,
  json,
  rejection,
  smartConfiguration,
} from './support.js'

const otherBaseUrl = 'https://other-ehr.example.org/fhir'

/** A fetch that answers SMART discovery for any base URL and counts every request. */
function countingFetch() {
  const calls: string[] = []
  const fetch = async (input: RequestInfo | URL) => {
    const url = String(input instanceof Request ? input.url : input)
    calls.push(url)
    if (url.endsWith('/.well-known/smart-configuration')) return json(smartConfiguration)
    return json({ error: 'invalid_grant' }, 400)
  }
  return { calls, fetch }
}

function clientFor(url: string, fetch: ReturnType<typeof countingFetch>['fetch'], issuer?: string) {
  return new Client(
    {
      baseUrl: url,
      clientId: 'app',
      redirectUri: 'https://app.example.org/callback',
      scopes: ['launch', 'patient/*.rs'],
      ...(issuer === undefined ? {} : { issuer }),
    },
    { fetch },
  )
}

describe('new ClientDirectory', () => {
  it('refuses clients it could not tell apart or use', () => {
    const { fetch } = countingFetch()
    const cases: [unknown, string][] = [
      [{ clients: 'not an array' }, 'clients'],
      [{ clients: [{}] }, 'clients'],
      [{ clients: [new Client({ clientId: 'app' })] }, 'clients'],
      [{ clients: [clientFor(baseUrl, fetch), clientFor(`${baseUrl}/`, fetch)] }, 'clients'],
      [{ resolve: 'https://registry.example.org' }, 'resolve'],
      [{ store: {} }, 'store'],
      [{ client: [] }, 'client'],
      ['options', 'options'],
    ]
    for (const [options, attribute] of cases) {
      const error = configurationError(
        () => new ClientDirectory(options as ConstructorParameters<typeof ClientDirectory>[0]),
      )
      expect(error.invalidAttribute).toBe(attribute)
    }
    expect(
      configurationError(
        () =>
          new ClientDirectory({ clients: [clientFor(baseUrl, fetch), clientFor(baseUrl, fetch)] }),
      ).message,
    ).toContain(baseUrl)
  })
})

describe('directory.client(iss)', () => {
  it('matches the base URL exactly, one trailing / aside', async () => {
    const { fetch, calls } = countingFetch()
    const client = clientFor(baseUrl, fetch)
    const ehrs = new ClientDirectory({ clients: [client, clientFor(otherBaseUrl, fetch)] })
    expect(await ehrs.client(baseUrl)).toBe(client)
    expect(await ehrs.client(`${baseUrl}/`)).toBe(client)
    for (const near of [
      `${baseUrl}//`,
      `${baseUrl}/Patient`,
      baseUrl.toUpperCase(),
      `${baseUrl}?x`,
    ]) {
      expect((await configurationRejection(ehrs.client(near))).invalidAttribute).toBe('iss')
    }
    expect(calls).toEqual([])
  })

  it('refuses any caller input that is not a plain URL with a typed error, quoting little and no user info, before resolve or any request', async () => {
    const { fetch, calls } = countingFetch()
    const asked: string[] = []
    const ehrs = new ClientDirectory({
      clients: [clientFor(baseUrl, fetch)],
      resolve: (iss) => {
        asked.push(iss)
        return undefined
      },
    })
    const inputs: unknown[] = [
      undefined,
      null,
      42,
      {},
      [baseUrl],
      Symbol('iss'),
      () => baseUrl,
      '',
      'ehr.example.org/fhir',
      'javascript:alert(1)',
      'ftp://ehr.example.org/fhir',
      'https://user:s3cret-password@ehr.example.org/fhir',
      'https://ehr.example.org/fhir#fragment',
      `${baseUrl}\n`.repeat(3),
      `https://ehr.example.org/${'a'.repeat(5000)}`,
      'x'.repeat(1_000_000),
    ]
    for (const iss of inputs) {
      const error = await configurationRejection(ehrs.client(iss as string))
      expect(error.invalidAttribute).toBe('iss')
      expect(error.message.length).toBeLessThan(400)
      expect(JSON.stringify(error)).not.toContain('s3cret-password')
    }
    expect(asked).toEqual([])
    expect(calls).toEqual([])
  })
})

describe('resolve', () => {
  it('is asked once for a burst of launches, and its client is kept', async () => {
    const { fetch } = countingFetch()
    const asked: string[] = []
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const resolved = clientFor(otherBaseUrl, fetch)
    const ehrs = new ClientDirectory({
      clients: [clientFor(baseUrl, fetch)],
      resolve: async (iss) => {
        asked.push(iss)
        await gate
        return resolved
      },
    })
    const burst = [
      ehrs.client(otherBaseUrl),
      ehrs.client(`${otherBaseUrl}/`),
      ehrs.client(otherBaseUrl),
    ]
    release()
    expect(await Promise.all(burst)).toEqual([resolved, resolved, resolved])
    expect(await ehrs.client(otherBaseUrl)).toBe(resolved)
    expect(asked).toEqual([otherBaseUrl])
    // A listed client answers first: resolve is never asked for it.
    await ehrs.client(baseUrl)
    expect(asked).toEqual([otherBaseUrl])
  })

  it('keeps neither an undefined nor a failure: the next call asks again, and the resolver’s error comes back as is', async () => {
    const { fetch } = countingFetch()
    const answers: (() => Client | undefined)[] = [
      () => undefined,
      () => {
        throw new RangeError('registry down')
      },
      () => clientFor(otherBaseUrl, fetch),
    ]
    let asked = 0
    const resolve: ClientResolver = () => (answers[asked++] as () => Client | undefined)()
    const ehrs = new ClientDirectory({ resolve })
    expect((await configurationRejection(ehrs.client(otherBaseUrl))).message).toContain(
      otherBaseUrl,
    )
    expect(await rejection(ehrs.client(otherBaseUrl))).toBeInstanceOf(RangeError)
    expect((await ehrs.client(otherBaseUrl)).config.baseUrl).toBe(otherBaseUrl)
    expect(asked).toBe(3)
  })

  it('must give a Client for the iss it was asked about', async () => {
    const { fetch } = countingFetch()
    for (const answer of [
      clientFor(baseUrl, fetch),
      { config: { baseUrl: otherBaseUrl } },
      'client',
    ]) {
      const ehrs = new ClientDirectory({ resolve: () => answer as Client })
      expect((await configurationRejection(ehrs.client(otherBaseUrl))).invalidAttribute).toBe(
        'resolve',
      )
    }
  })
})

describe('launches', () => {
  it('are kept in the directory’s store and completed by the client that began them', async () => {
    const { fetch, calls } = countingFetch()
    const store = memoryStore()
    const ehrs = new ClientDirectory({
      clients: [clientFor(baseUrl, fetch), clientFor(otherBaseUrl, fetch)],
      store,
    })
    const begun = await ehrs.beginAuthorization({ iss: otherBaseUrl, launch: 'xyz' })
    expect(begun).not.toHaveProperty('codeVerifier')
    expect(new URL(begun.authUrl).searchParams.get('aud')).toBe(otherBaseUrl)
    calls.length = 0
    // The fake token endpoint refuses the code: what matters is where it was sent.
    const error = await rejection(
      ehrs.completeAuthorization(`https://app.example.org/callback?code=c&state=${begun.state}`),
    )
    expect(error.name).toBe('TokenError')
    expect(calls).toEqual([smartConfiguration.token_endpoint])
  })

  it('refuses bad options and callbacks with typed errors, and sends nothing', async () => {
    const { fetch, calls } = countingFetch()
    const ehrs = new ClientDirectory({ clients: [clientFor(baseUrl, fetch)] })
    for (const options of [undefined, null, 'iss', { iss: baseUrl, store: memoryStore() }]) {
      await configurationRejection(ehrs.beginAuthorization(options as unknown as { iss: string }))
    }
    for (const callbackUrl of [undefined, 42, {}, null]) {
      await configurationRejection(ehrs.completeAuthorization(callbackUrl as unknown as string))
    }
    const denied = await rejection(
      ehrs.completeAuthorization('https://app.example.org/callback?error=access_denied&state=s'),
    )
    expect(denied).toBeInstanceOf(AuthorizationError)
    expect((denied as AuthorizationError).error).toBe('access_denied')
    for (const query of [
      '?code=c',
      '?code=c&state=nobody-kept-this',
      `?code=c&state=${'s'.repeat(100_000)}`,
    ]) {
      const error = await rejection(
        ehrs.completeAuthorization(`https://app.example.org/callback${query}`),
      )
      expect((error as AuthorizationError).error).toBe('state_mismatch')
    }
    expect(calls).toEqual([])
  })

  it('a client refuses a launch another client began on the same store, even with the same issuer: state_mismatch, no token request', async () => {
    const { fetch, calls } = countingFetch()
    const store = memoryStore()
    const issuer = 'https://auth.example.org'
    const first = clientFor(baseUrl, fetch, issuer)
    const second = clientFor(otherBaseUrl, fetch, issuer)
    const begun = await first.beginAuthorization({ store })
    calls.length = 0
    const error = await rejection(
      second.completeAuthorization(`https://app.example.org/callback?code=c&state=${begun.state}`, {
        store,
      }),
    )
    expect(error).toBeInstanceOf(AuthorizationError)
    expect((error as AuthorizationError).error).toBe('state_mismatch')
    expect(calls).toEqual([])
  })
})

describe('directory.sessions()', () => {
  it('refuses bad options, foreign sessions and ids that are not strings; an unknown id is no session', async () => {
    const { fetch } = countingFetch()
    const ehrs = new ClientDirectory({ clients: [clientFor(baseUrl, fetch)] })
    for (const options of [
      { ttlSeconds: 0 },
      { ttlSeconds: -1 },
      { ttlSeconds: '60' },
      { store: {} },
      { storage: memoryStore() },
    ]) {
      configurationError(() => ehrs.sessions(options as { ttlSeconds: number }))
    }
    const sessions = ehrs.sessions()
    const foreign = clientFor(otherBaseUrl, fetch).resumeSession({ access_token: 'at-foreign' })
    for (const session of [foreign, {}, null, 'session']) {
      const error = await configurationRejection(sessions.save(session as typeof foreign))
      expect(error.invalidAttribute).toBe('session')
      expect(JSON.stringify(error)).not.toContain('at-foreign')
    }
    for (const id of [42, null, {}]) {
      expect((await configurationRejection(sessions.open(id as string))).invalidAttribute).toBe(
        'id',
      )
    }
    expect(await sessions.open('x'.repeat(43))).toBeUndefined()
    expect(await sessions.signOut('not-an-id')).toBe(false)
  })

  it('gives a session back through the client whose tokens it holds', async () => {
    const { fetch } = countingFetch()
    const first = clientFor(baseUrl, fetch)
    const second = clientFor(otherBaseUrl, fetch)
    const ehrs = new ClientDirectory({ clients: [first, second] })
    const sessions = ehrs.sessions({ ttlSeconds: 60 })
    const id = await sessions.save(second.resumeSession({ access_token: 'at-second' }))
    const opened = await sessions.open(id)
    expect(opened?.tokens.accessToken).toBe('at-second')
    expect(opened?.tokens.binding?.baseUrl).toBe(otherBaseUrl)
    await sessions.delete(id)
    expect(await sessions.open(id)).toBeUndefined()
  })

  it('finds no session in a value the store cannot open, and still fails when the store fails', async () => {
    const { fetch } = countingFetch()
    const ehrs = new ClientDirectory({ clients: [clientFor(baseUrl, fetch)] })
    const kept = memoryStore()
    let answer: 'unreadable' | 'failed' | 'kept' = 'kept'
    const store: KeyValueStore = {
      ...kept,
      get: async (key) => {
        if (answer === 'kept') return kept.get(key)
        throw new StoreError('get', `the value could not be read (${answer})`, { reason: answer })
      },
    }
    const sessions = ehrs.sessions({ store })
    const id = await sessions.save(
      clientFor(baseUrl, fetch).resumeSession({ access_token: 'at-x' }),
    )
    answer = 'unreadable'
    expect(await sessions.open(id)).toBeUndefined()
    expect(await sessions.signOut(id)).toBe(false)
    answer = 'failed'
    await expect(sessions.open(id)).rejects.toBeInstanceOf(StoreError)
    answer = 'kept'
    expect((await sessions.open(id))?.tokens.accessToken).toBe('at-x')
  })

  it('keeps sessions in the store given, apart from the directory’s', async () => {
    const { fetch } = countingFetch()
    const ehrs = new ClientDirectory({ clients: [clientFor(baseUrl, fetch)] })
    const store = memoryStore()
    const sessions = ehrs.sessions({ store })
    expect(ehrs.sessions({ store })).toBe(sessions)
    const id = await sessions.save(
      clientFor(baseUrl, fetch).resumeSession({ access_token: 'at-kept' }),
    )
    expect(await ehrs.sessions().open(id)).toBeUndefined()
    expect((await ehrs.sessions({ store, ttlSeconds: 60 }).open(id))?.tokens.accessToken).toBe(
      'at-kept',
    )
  })
})

describe('directory.listed and directory.resolves', () => {
  it('give the clients listed, in order, and whether resolve may find others', () => {
    const { fetch } = countingFetch()
    const first = clientFor(baseUrl, fetch)
    const second = clientFor(otherBaseUrl, fetch)
    const ehrs = new ClientDirectory({ clients: [first, second] })
    expect(ehrs.listed).toEqual([first, second])
    expect(Object.isFrozen(ehrs.listed)).toBe(true)
    expect(ehrs.resolves).toBe(false)
    const resolving = new ClientDirectory({ resolve: () => undefined })
    expect(resolving.listed).toEqual([])
    expect(resolving.resolves).toBe(true)
  })
})

it('is exported with its error types', () => {
  expect(new ClientDirectory()).toBeInstanceOf(ClientDirectory)
  expect(ConfigurationError).toBeDefined()
})
