/**
 * Concurrency against the real sandboxes: concurrent `serverMetadata()` calls share one
 * discovery request (SMART) or one per trust-input set (UDAP); a failed discovery fails every
 * waiting caller and is retried by the next call; 500 concurrent backend-services requests
 * from one client carry 500 distinct `jti` values (the server refuses replays); and two
 * clients interleaved share no state (client type, discovery cache and its failures, `fetch`,
 * logger).
 */
import { Client, type ClientOptions, type DiscoveryError } from '@fhir-auth/client'
import { base64UrlDecode } from '@fhir-auth/core'
import {
  generateClientKeys,
  type RecordedRequest,
  type SmartSandbox,
  sandboxDefaultRedirectUri,
  startSmartSandbox,
  startUdapSandbox,
  type UdapSandbox,
} from '@fhir-auth/sandbox'
import { createCapturingLogger } from '@fhir-auth/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  countHandWrittenCases,
  printCaseLedger,
  recordingFetch,
  scriptedFetch,
} from '../src/index.js'

let smart: SmartSandbox
let udap: UdapSandbox
let esKeys: Awaited<ReturnType<typeof generateClientKeys>>
const symmetricSecret = `concurrency-secret-${crypto.randomUUID()}`
/** How long a batch of concurrent calls may take before a caller counts as left hanging. */
const settleWithinMs = 60_000

beforeAll(async () => {
  esKeys = await generateClientKeys('ES384')
  ;[smart, udap] = await Promise.all([
    startSmartSandbox({
      clients: [
        { client_id: 'c-public', token_endpoint_auth_method: 'none' },
        {
          client_id: 'c-symmetric',
          token_endpoint_auth_method: 'client_secret_basic',
          client_secret: symmetricSecret,
        },
        {
          client_id: 'c-backend',
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: [esKeys.publicJwk] },
        },
      ],
      requestLogLimit: 20_000,
    }),
    startUdapSandbox({ requestLogLimit: 20_000 }),
  ])
}, 60_000)

afterAll(async () => {
  await Promise.all([smart?.close(), udap?.close()])
  printCaseLedger('concurrency')
})

const smartDiscoveryPath = '/fhir/.well-known/smart-configuration'

function requestsTo(log: readonly RecordedRequest[], path: string, since = 0): RecordedRequest[] {
  return log.slice(since).filter((request) => request.path === path)
}

function smartClient(clientId: string, options: ClientOptions = {}): Client {
  return new Client(
    {
      baseUrl: smart.fhirBaseUrl,
      allowInsecureLocalhost: true,
      clientId,
      redirectUri: sandboxDefaultRedirectUri,
      scopes: ['launch/patient', 'patient/*.rs'],
      clientSecret: symmetricSecret,
      privateKey: esKeys.privateKeyPem,
      kid: esKeys.kid,
    },
    { logger: createCapturingLogger(), ...options },
  )
}

/** A recording `fetch` that waits `delayMs` before passing a call on, and honours the abort signal. */
function slowFetch(delayMs: number) {
  return recordingFetch(
    (url, init) =>
      new Promise<Response>((resolve, reject) => {
        const timer = setTimeout(() => resolve(globalThis.fetch(url, init)), delayMs)
        init.signal?.addEventListener('abort', () => {
          clearTimeout(timer)
          reject(init.signal?.reason)
        })
      }),
  )
}

/** Settles every promise, failing the test if one is still pending after {@link settleWithinMs}. */
async function settleAll<T>(promises: readonly Promise<T>[]): Promise<PromiseSettledResult<T>[]> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const hanging = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`callers still pending after ${settleWithinMs} ms`)),
      settleWithinMs,
    )
  })
  try {
    return await Promise.race([Promise.allSettled(promises), hanging])
  } finally {
    clearTimeout(timer)
  }
}

describe('SMART discovery under concurrency', () => {
  it('1 000 concurrent serverMetadata() calls make one discovery request and share one object', async () => {
    countHandWrittenCases('concurrency scenarios', 1)
    const since = smart.requests.length
    const client = smartClient('c-public')
    const started = performance.now()
    const results = await settleAll(Array.from({ length: 1_000 }, () => client.serverMetadata()))
    const elapsedMs = performance.now() - started
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true)
    const objects = new Set(
      results.map((result) => (result.status === 'fulfilled' ? result.value : undefined)),
    )
    expect(objects.size).toBe(1)
    expect(requestsTo(smart.requests, smartDiscoveryPath, since)).toHaveLength(1)
    expect(await client.serverMetadata()).toBe([...objects][0])
    console.info(
      `[hardening] 1 000 concurrent SMART discoveries: ${elapsedMs.toFixed(0)} ms, 1 request`,
    )
  })

  it('a failed discovery fails every waiting caller with DiscoveryError; the next call retries and succeeds', async () => {
    countHandWrittenCases('concurrency scenarios', 1)
    const since = smart.requests.length
    const client = smartClient('c-public')
    smart.setDiscoveryOverride({ response: { status: 500, body: 'temporarily broken' } })
    let results: PromiseSettledResult<unknown>[]
    try {
      results = await settleAll(Array.from({ length: 100 }, () => client.serverMetadata()))
    } finally {
      smart.setDiscoveryOverride(undefined)
    }
    expect(results.map((result) => result.status)).toEqual(Array(100).fill('rejected'))
    for (const result of results) {
      const reason = result.status === 'rejected' ? (result.reason as DiscoveryError) : undefined
      expect(reason?.name).toBe('DiscoveryError')
      expect(reason?.status).toBe(500)
    }
    expect(requestsTo(smart.requests, smartDiscoveryPath, since)).toHaveLength(1)
    const recovered = await client.serverMetadata()
    expect(recovered.tokenEndpoint).toBe(smart.endpoints.token)
    expect(requestsTo(smart.requests, smartDiscoveryPath, since)).toHaveLength(2)
  })

  it("one caller's abort does not fail the other callers sharing the discovery request", async () => {
    countHandWrittenCases('concurrency scenarios', 1)
    const client = smartClient('c-public', { fetch: slowFetch(300).fetch })
    const controller = new AbortController()
    // authorizationUrl discovers with the caller's signal; serverMetadata shares that request.
    const aborting = client.authorizationUrl({ signal: controller.signal })
    const patient = client.serverMetadata()
    setTimeout(() => controller.abort(), 50)
    const [aborted, waited] = await settleAll<unknown>([aborting, patient])
    expect(aborted?.status).toBe('rejected')
    expect(waited?.status === 'rejected' ? String(waited.reason) : 'fulfilled').toBe('fulfilled')
  })
})

describe('SMART backend services under concurrency', () => {
  it('500 concurrent requestBackendToken calls from one client all succeed with distinct jti values', async () => {
    countHandWrittenCases('concurrency scenarios', 1)
    const since = smart.requests.length
    // 500 requests queue on one single-threaded server: on a starved CI machine the last ones
    // wait longer than the default 10 s per request. Each gets the batch's own time budget; what
    // is checked is that all succeed, with distinct jti values, not how fast.
    const client = smartClient('c-backend', {
      clientType: 'confidential_asymmetric',
      timeoutMs: settleWithinMs,
    })
    const started = performance.now()
    const results = await settleAll(
      Array.from({ length: 500 }, () => client.requestBackendToken({ scopes: ['system/*.rs'] })),
    )
    const elapsedMs = performance.now() - started
    const failures = results.flatMap((result) =>
      result.status === 'rejected' ? [String(result.reason)] : [],
    )
    expect(failures).toEqual([])
    const tokenRequests = requestsTo(smart.requests, '/token', since)
    expect(tokenRequests).toHaveLength(500)
    const jtis = tokenRequests.map((request) => {
      const payload = request.form?.client_assertion?.split('.')[1] ?? ''
      const claims = JSON.parse(new TextDecoder().decode(base64UrlDecode(payload))) as {
        jti?: unknown
      }
      return claims.jti
    })
    expect(jtis.every((jti) => typeof jti === 'string' && jti.length >= 22)).toBe(true)
    expect(new Set(jtis).size).toBe(500)
    const accessTokens = results.map((result) =>
      result.status === 'fulfilled' ? result.value.access_token : '',
    )
    expect(new Set(accessTokens).size).toBe(500)
    console.info(
      `[hardening] 500 concurrent backend tokens: ${elapsedMs.toFixed(0)} ms, 500 distinct jti`,
    )
  }, 120_000)
})

describe('UDAP discovery under concurrency', () => {
  it('200 concurrent serverMetadata(trust) calls over three trust-input sets make three discovery requests', async () => {
    countHandWrittenCases('concurrency scenarios', 1)
    udap.clearRequests()
    const client = new Client(
      { baseUrl: udap.fhirBaseUrl, allowInsecureLocalhost: true },
      { protocol: 'udap', logger: createCapturingLogger() },
    )
    const trustSets = [
      {
        trustedAnchors: udap.trust.anchors.map((anchor) => anchor.pem),
        crls: udap.trust.crls.map((crl) => crl.pem),
      },
      {
        trustedAnchors: udap.trust.anchors.map((anchor) => anchor.der),
        crls: udap.trust.crls.map((crl) => crl.der),
      },
      {
        trustedAnchors: udap.trust.anchors.map((anchor) => anchor.pem),
        crls: udap.trust.crls.map((crl) => crl.pem),
        community: udap.community,
      },
    ]
    const calls = Array.from({ length: 200 }, (_, index) => ({
      set: index % trustSets.length,
      // A fresh but equal object each time: the cache keys on the inputs, not on object identity.
      promise: client.serverMetadata({
        ...(trustSets[index % trustSets.length] as (typeof trustSets)[number]),
      }),
    }))
    const results = await settleAll(calls.map((call) => call.promise))
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true)
    expect(udap.requestCounts.discovery).toBe(trustSets.length)
    const objectsPerSet = trustSets.map(
      (_, set) =>
        new Set(
          calls.flatMap((call, index) => {
            const result = results[index]
            return call.set === set && result?.status === 'fulfilled' ? [result.value] : []
          }),
        ),
    )
    expect(objectsPerSet.map((objects) => objects.size)).toEqual([1, 1, 1])
    expect(new Set(objectsPerSet.flatMap((objects) => [...objects])).size).toBe(trustSets.length)
  })

  it("one caller's abort does not fail the other callers with the same trust inputs", async () => {
    countHandWrittenCases('concurrency scenarios', 1)
    const client = new Client(
      { baseUrl: udap.fhirBaseUrl, allowInsecureLocalhost: true },
      { protocol: 'udap', fetch: slowFetch(300).fetch, logger: createCapturingLogger() },
    )
    const trust = {
      trustedAnchors: udap.trust.anchors.map((anchor) => anchor.pem),
      crls: udap.trust.crls.map((crl) => crl.pem),
    }
    const controller = new AbortController()
    const aborting = client.serverMetadata({ ...trust, signal: controller.signal })
    const patient = client.serverMetadata(trust)
    setTimeout(() => controller.abort(), 50)
    const [aborted, waited] = await settleAll([aborting, patient])
    expect(aborted?.status).toBe('rejected')
    expect(waited?.status === 'rejected' ? String(waited.reason) : 'fulfilled').toBe('fulfilled')
  })
})

describe('two clients share no state', () => {
  it('separate discovery caches, fetches and loggers; a client-type change stays with its client', async () => {
    countHandWrittenCases('concurrency scenarios', 1)
    const fetchA = recordingFetch()
    const fetchB = recordingFetch()
    const loggerA = createCapturingLogger()
    const loggerB = createCapturingLogger()
    const clientA = smartClient('c-symmetric', { fetch: fetchA.fetch, logger: loggerA })
    const clientB = smartClient('c-public', { fetch: fetchB.fetch, logger: loggerB })
    const [metadataA, metadataB] = await Promise.all([
      clientA.serverMetadata(),
      clientB.serverMetadata(),
      clientA.serverMetadata(),
      clientB.serverMetadata(),
    ])
    expect(metadataA).not.toBe(metadataB)
    clientA.clientType = 'confidential_symmetric'
    expect(clientB.clientType).toBe('public')

    const authorizeAndExchange = async (client: Client) => {
      const request = await client.authorizationUrl()
      const result = await smart.authorize({ url: request.authUrl })
      return client.requestAccessToken({
        code: String(result.code),
        codeVerifier: request.codeVerifier,
      })
    }
    const [tokensA, tokensB] = await Promise.all([
      authorizeAndExchange(clientA),
      authorizeAndExchange(clientB),
    ])
    expect(tokensA.access_token).not.toBe(tokensB.access_token)

    const discoveriesOf = (calls: typeof fetchA.calls) =>
      calls.filter((call) => call.url.endsWith(smartDiscoveryPath))
    const tokenCallsOf = (calls: typeof fetchA.calls) =>
      calls.filter((call) => call.url === smart.endpoints.token)
    // One discovery each, although both asked twice and A changed its client type in between.
    expect(discoveriesOf(fetchA.calls)).toHaveLength(1)
    expect(discoveriesOf(fetchB.calls)).toHaveLength(1)
    const [tokenCallA] = tokenCallsOf(fetchA.calls)
    const [tokenCallB] = tokenCallsOf(fetchB.calls)
    expect(tokenCallsOf(fetchA.calls)).toHaveLength(1)
    expect(tokenCallsOf(fetchB.calls)).toHaveLength(1)
    expect(tokenCallA?.headers.authorization).toMatch(/^Basic /)
    expect(tokenCallA?.form?.client_id).toBeUndefined()
    expect(tokenCallB?.headers.authorization).toBeUndefined()
    expect(tokenCallB?.form?.client_id).toBe('c-public')

    const eventsOf = (logger: typeof loggerA) => logger.entries.map((entry) => entry.fields?.event)
    expect(eventsOf(loggerA).filter((event) => event === 'smart.discovery')).toHaveLength(1)
    expect(eventsOf(loggerB).filter((event) => event === 'smart.discovery')).toHaveLength(1)
    expect(
      loggerA.messages('info').some((message) => message.includes('confidential_symmetric')),
    ).toBe(true)
    expect(
      loggerB.messages('info').some((message) => message.includes('confidential_symmetric')),
    ).toBe(false)
  })

  it("one client's failed discovery neither fails nor fills the other's cache", async () => {
    countHandWrittenCases('concurrency scenarios', 1)
    const failing = scriptedFetch(() => ({ status: 503, body: 'maintenance' }))
    const working = recordingFetch()
    const failingLogger = createCapturingLogger()
    const workingLogger = createCapturingLogger()
    const failingClient = smartClient('c-public', { fetch: failing.fetch, logger: failingLogger })
    const workingClient = smartClient('c-public', { fetch: working.fetch, logger: workingLogger })
    const results = await settleAll([
      failingClient.serverMetadata(),
      workingClient.serverMetadata(),
      failingClient.serverMetadata(),
      workingClient.serverMetadata(),
    ])
    expect(results.map((result) => result.status)).toEqual([
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
    ])
    expect(failing.calls).toHaveLength(1)
    expect(working.calls).toHaveLength(1)
    expect(failingLogger.messages('error')).toHaveLength(1)
    expect(workingLogger.messages('error')).toHaveLength(0)
    // The failure was not cached on the failing client either: its next call asks again.
    await expect(failingClient.serverMetadata()).rejects.toMatchObject({
      name: 'DiscoveryError',
      status: 503,
    })
    expect(failing.calls).toHaveLength(2)
    expect(working.calls).toHaveLength(1)
  })

  it('UDAP: a client whose trust inputs fail does not disturb one whose inputs are right', async () => {
    countHandWrittenCases('concurrency scenarios', 1)
    const fetchGood = recordingFetch()
    const fetchBad = recordingFetch()
    const udapClient = (fetch: typeof fetchGood) =>
      new Client(
        { baseUrl: udap.fhirBaseUrl, allowInsecureLocalhost: true },
        { protocol: 'udap', fetch: fetch.fetch, logger: createCapturingLogger() },
      )
    const anchors = udap.trust.anchors.map((anchor) => anchor.pem)
    const [good, bad] = await settleAll([
      udapClient(fetchGood).serverMetadata({
        trustedAnchors: anchors,
        crls: udap.trust.crls.map((crl) => crl.pem),
      }),
      udapClient(fetchBad).serverMetadata({
        trustedAnchors: anchors,
        crls: udap.trust.crlVariants.missing.map((crl) => crl.pem),
      }),
    ])
    expect(good?.status).toBe('fulfilled')
    expect(bad?.status === 'rejected' && (bad.reason as Error).name).toBe('DiscoveryError')
    expect(fetchGood.calls).toHaveLength(1)
    expect(fetchBad.calls).toHaveLength(1)
  })
})
