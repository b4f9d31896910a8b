/**
 * Configured URLs (DESIGN §12): every URL attribute of the configuration (`baseUrl`, `issuer`,
 * `jwksUri`, `authorizationEndpoint`, `tokenEndpoint`) and SMART `registerClient`'s
 * `registrationEndpoint`, crossed with hostile forms — plain HTTP elsewhere, loopback HTTP with
 * and without `allowInsecureLocalhost`, user info in every spelling, script and file schemes,
 * relative and malformed text, odd case and backslashes, hosts the URL parser reads otherwise than
 * the text shows (DESIGN §13) — hand-written and generated.
 *
 * An oracle built on the WHATWG URL parser says what the policy must decide; the library must
 * agree, refuse with a `ConfigurationError` on the attribute (never a raw error), never repeat
 * the user info it refused, and — when it accepts — never send anything to, or build an
 * authorize URL or `jku` with, a URL outside the policy.
 */
import { inspect } from 'node:util'
import { Client, ConfigurationError } from '@fhir-auth/client'
import { base64UrlDecode, DiscoveryError, isLoopbackHostname } from '@fhir-auth/core'
import { createNodeCryptoBackend } from '@fhir-auth/crypto-node'
import { generateClientKeys } from '@fhir-auth/sandbox'
import { discoverSmartConfiguration } from '@fhir-auth/smart'
import { createCapturingLogger } from '@fhir-auth/test-utils'
import { discoverUdapMetadata } from '@fhir-auth/udap'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  countHandWrittenCases,
  createUdapServerIdentity,
  printCaseLedger,
  propertySettings,
  scriptedFetch,
  validSmartConfiguration,
} from '../src/index.js'

const urlAttributes = [
  'baseUrl',
  'issuer',
  'jwksUri',
  'authorizationEndpoint',
  'tokenEndpoint',
] as const
type UrlAttribute = (typeof urlAttributes)[number]

/** The user info the hostile forms carry: none of it may appear in an error. */
const userName = 'mallory-user'
const password = 'pw-0f-mallory'

const handWritten: readonly string[] = [
  'https://ehr.hardening.test/fhir',
  'https://ehr.hardening.test/fhir/',
  'HTTPS://EHR.hardening.test/fhir',
  'http://evil.hardening.test/fhir',
  'HTTP://evil.hardening.test/',
  'http://127.0.0.1:8080/fhir',
  'http://localhost/fhir',
  'http://[::1]:9/fhir',
  'http://127.0.0.1.nip.io/fhir',
  'http://localhost.evil.test/',
  'http://0x7f000001/',
  `https://${userName}:${password}@ehr.hardening.test/fhir`,
  `https://${userName}@ehr.hardening.test/fhir`,
  `https://:${password}@ehr.hardening.test/fhir`,
  `http://${userName}:${password}@127.0.0.1/fhir`,
  `https://${userName}%40x:${password}@ehr.hardening.test/`,
  `https:\\\\${userName}:${password}@ehr.hardening.test/`,
  'https:\\\\ehr.hardening.test\\fhir',
  'https:ehr.hardening.test/fhir',
  'javascript:alert(1)',
  'data:text/html,<script>1</script>',
  'file:///etc/passwd',
  'ftp://ehr.hardening.test/',
  'ws://127.0.0.1/',
  'blob:https://ehr.hardening.test/x',
  '/fhir',
  'ehr.hardening.test/fhir',
  '',
  ' ',
  'https://',
  'https://ehr.hardening.test:99999/',
  ' https://ehr.hardening.test/fhir ',
  'https://ehr.hardening.test/fh ir',
  'https://xn--80ak6aa92e.com/',
  'https://ехр.example/',
  // DESIGN §13: hosts the URL parser reads differently from the text.
  'https://evil.hardening.test\\.ehr.hardening.test/fhir',
  'https://ehr%2Ehardening.test/fhir',
  'https://ehr.hardening.test./fhir',
  'https://@ehr.hardening.test/fhir',
  'https://ehr.hardening.test\t/fhir',
  'http://2130706433:8080/fhir',
]

/**
 * The host as the text writes it (RFC 3986 §3.2: after `scheme://`, up to a port or the first
 * `/`, `?` or `#`), or `undefined` when the text has no such authority.
 */
function writtenHost(value: string): string | undefined {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(\[[^\]]*\]|[^/?#:]*)(?::\d*)?(?:[/?#]|$)/.exec(value)?.[1]
}

/**
 * What the policy must decide for `value`, from the WHATWG parser and the written host: the
 * host requests go to must be the one the text shows (ASCII case aside), and no DNS name may
 * end in a dot (DESIGN §13).
 */
function oracle(value: string, allowInsecureLocalhost: boolean): 'accept' | 'refuse' {
  if (!URL.canParse(value)) return 'refuse'
  const url = new URL(value)
  if (url.username !== '' || url.password !== '') return 'refuse'
  if (writtenHost(value)?.toLowerCase() !== url.hostname || url.hostname.endsWith('.')) {
    return 'refuse'
  }
  if (url.protocol === 'https:' && url.hostname !== '') return 'accept'
  if (url.protocol === 'http:' && allowInsecureLocalhost && isLoopbackHostname(url.hostname)) {
    return 'accept'
  }
  return 'refuse'
}

/** Everything an error shows a user or a log. */
function shown(error: unknown): string {
  return [
    String(error),
    (error as Error).stack ?? '',
    JSON.stringify(error),
    inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
  ].join('\n')
}

let keys: Awaited<ReturnType<typeof generateClientKeys>>

beforeAll(async () => {
  keys = await generateClientKeys('ES384')
})
afterAll(() => printCaseLedger('hostile-configured-urls'))

/** A request the library made, or an authorize URL / `jku` it built: all must pass the policy. */
function outsidePolicy(urls: readonly string[], allowInsecureLocalhost: boolean): string[] {
  return urls.filter((url) => oracle(url, allowInsecureLocalhost) === 'refuse')
}

/**
 * Builds a client with `value` as `attribute` and, when it is accepted, drives the operations
 * that use it (authorization URL, code exchange with an assertion, discovery), collecting every
 * URL fetched or built. Returns what the case showed.
 */
async function runCase(attribute: UrlAttribute, value: string, allowInsecureLocalhost: boolean) {
  const base = allowInsecureLocalhost
    ? 'http://127.0.0.1:9/fhir'
    : 'https://ehr.hardening.test/fhir'
  const server = scriptedFetch(() => ({ body: JSON.stringify(validSmartConfiguration(base)) }))
  let client: Client
  try {
    client = new Client(
      {
        baseUrl: base,
        clientId: 'app',
        redirectUri: 'https://app.hardening.test/cb',
        scopes: ['openid'],
        privateKey: keys.privateKeyPem,
        kid: keys.kid,
        allowInsecureLocalhost,
        [attribute]: value,
      },
      {
        clientType: 'confidential_asymmetric',
        fetch: server.fetch,
        logger: createCapturingLogger(),
        timeoutMs: 1_000,
      },
    )
  } catch (error) {
    return { accepted: false as const, error }
  }
  const built: string[] = []
  try {
    built.push((await client.authorizationUrl()).authUrl)
  } catch {
    // A refused discovered endpoint is fine here: only what was sent or built matters.
  }
  try {
    await client.requestAccessToken({ code: 'code-value-1234', codeVerifier: 'v'.repeat(43) })
  } catch {
    // The scripted server answers every request with the discovery document.
  }
  for (const call of server.calls) {
    built.push(call.url)
    const assertion = call.form?.client_assertion
    if (assertion !== undefined) {
      const header = JSON.parse(
        new TextDecoder().decode(base64UrlDecode(assertion.split('.')[0] ?? '')),
      ) as { jku?: unknown }
      if (typeof header.jku === 'string') built.push(header.jku)
    }
  }
  return { accepted: true as const, built }
}

async function checkCase(attribute: UrlAttribute, value: string, allowInsecureLocalhost: boolean) {
  const outcome = await runCase(attribute, value, allowInsecureLocalhost)
  const expected = oracle(value, allowInsecureLocalhost)
  const label = `${attribute} = ${JSON.stringify(value)} (allowInsecureLocalhost ${allowInsecureLocalhost})`
  if (!outcome.accepted) {
    expect(outcome.error, label).toBeInstanceOf(ConfigurationError)
    expect((outcome.error as ConfigurationError).invalidAttribute, label).toBe(attribute)
    const text = shown(outcome.error)
    expect(text, label).not.toContain(password)
    expect(text, label).not.toContain(userName)
  }
  expect(outcome.accepted ? 'accept' : 'refuse', label).toBe(expected)
  if (outcome.accepted) {
    expect(outsidePolicy(outcome.built, allowInsecureLocalhost), label).toEqual([])
  }
}

describe('every configured URL attribute × hostile forms', () => {
  it.each(urlAttributes)(
    '%s: the hand-written forms, with and without allowInsecureLocalhost',
    async (attribute) => {
      for (const allowInsecureLocalhost of [false, true]) {
        for (const value of handWritten) await checkCase(attribute, value, allowInsecureLocalhost)
      }
      countHandWrittenCases('configured URL forms', handWritten.length * 2)
    },
  )

  it('generated URLs: schemes, user info, loopback and other hosts, ports, paths', async () => {
    const scheme = fc.constantFrom('https', 'http', 'HTTPS', 'Http', 'ftp', 'javascript', 'file')
    const userInfo = fc.constantFrom(
      '',
      `${userName}:${password}@`,
      `${userName}@`,
      `:${password}@`,
      `${encodeURIComponent(`${userName}:x`)}:${password}@`,
    )
    const host = fc.constantFrom(
      'ehr.hardening.test',
      'ehr.hardening.test.',
      'ehr%2Ehardening.test',
      'evil.test\\.hardening.test',
      'EHR.Hardening.TEST',
      '0x7f.1',
      '127.0.0.1',
      '127.8.9.10',
      'localhost',
      '[::1]',
      'evil.hardening.test',
      '10.0.0.1',
      '',
    )
    const port = fc.constantFrom('', ':443', ':8080', ':0')
    const path = fc.constantFrom('', '/', '/fhir', '/fhir/', '/r4//', '/a b', '/%2e%2e/')
    const separator = fc.constantFrom('://', ':', ':\\\\', ':///')
    const url = fc
      .tuple(scheme, separator, userInfo, host, port, path)
      .map((parts) => parts.join(''))
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...urlAttributes),
        url,
        fc.boolean(),
        async (attribute, value, allowInsecureLocalhost) => {
          await checkCase(attribute, value, allowInsecureLocalhost)
        },
      ),
      propertySettings('configured URL policy', 400),
    )
  })
})

describe('SMART registerClient registrationEndpoint × hostile forms', () => {
  it('refuses what the policy refuses before any request, without repeating user info', async () => {
    for (const allowInsecureLocalhost of [false, true]) {
      for (const value of handWritten) {
        const server = scriptedFetch(() => ({ status: 201, body: '{"client_id":"x"}' }))
        const client = new Client(
          { baseUrl: 'https://ehr.hardening.test/fhir', allowInsecureLocalhost },
          { fetch: server.fetch, logger: createCapturingLogger() },
        )
        const label = `registrationEndpoint = ${JSON.stringify(value)} (allowInsecureLocalhost ${allowInsecureLocalhost})`
        let error: unknown
        try {
          await client.registerClient(
            { client_name: 'x', redirect_uris: ['https://app.hardening.test/cb'] },
            { registrationEndpoint: value },
          )
        } catch (caught) {
          error = caught
        }
        // A blank endpoint means "discover it": the scripted server then answers discovery.
        if (value.trim() === '') continue
        const expected = oracle(value, allowInsecureLocalhost)
        if (expected === 'refuse') {
          expect(error, label).toBeInstanceOf(ConfigurationError)
          expect((error as ConfigurationError).invalidAttribute, label).toBe('registrationEndpoint')
          expect(server.calls, label).toHaveLength(0)
          expect(shown(error), label).not.toContain(password)
        } else {
          expect(error, label).toBeUndefined()
          expect(
            server.calls.map((call) => call.url),
            label,
          ).toEqual([value])
        }
      }
    }
    countHandWrittenCases('registration endpoint forms', handWritten.length * 2)
  })
})

describe('credentials in a base URL given to the functional discovery APIs', () => {
  const identityBase = 'https://fhir.hardening.test/r4'
  const withCredentials = identityBase.replace('://', `://${userName}:${password}@`)

  it('never reach DiscoveryError.endpoint, its message or a log line (SMART and UDAP)', async () => {
    const identity = await createUdapServerIdentity(identityBase)
    const answers = [
      { status: 503, body: 'down' },
      { body: '[1, 2]' },
      { body: JSON.stringify(identity.validDocument(new Date())) },
    ]
    for (const answer of answers) {
      const logger = createCapturingLogger()
      const failures: unknown[] = []
      for (const discover of [
        (fetch: ReturnType<typeof scriptedFetch>['fetch']) =>
          discoverSmartConfiguration({ baseUrl: withCredentials, fetch }),
        (fetch: ReturnType<typeof scriptedFetch>['fetch']) =>
          discoverUdapMetadata({
            baseUrl: withCredentials,
            fetch,
            crypto: createNodeCryptoBackend(),
            ...identity.trust,
            logger,
          }),
      ]) {
        try {
          await discover(scriptedFetch(() => answer).fetch)
        } catch (error) {
          failures.push(error)
        }
      }
      expect(failures.length, answer.body).toBeGreaterThan(0)
      for (const failure of failures) {
        expect(failure).toBeInstanceOf(DiscoveryError)
        expect((failure as DiscoveryError).endpoint).not.toContain(password)
        expect(shown(failure)).not.toContain(password)
        expect(shown(failure)).not.toContain(userName)
      }
      expect(logger.renderedLines().join('\n')).not.toContain(password)
    }
    countHandWrittenCases('functional discovery with credentials in the base URL', 6)
  })
})
