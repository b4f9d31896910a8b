/**
 * Every options object of every operation (see `support/options-targets.ts`: `new Client`'s
 * configuration and options, each `Client` operation for SMART and UDAP, the functional APIs of
 * smart and udap, both backends' option objects) against hostile member names and hostile
 * member values (DESIGN §12, issue 10 defect 6):
 *
 * - unknown own members — `constructor`, `__proto__` (an own member, as `JSON.parse` makes it),
 *   `toString`, `then`, typos, very long and empty names — are refused with "unknown attribute"
 *   where the library names its attributes (configuration, `Client` options), with "unknown
 *   option" on every `Client` operation (ADR 0008), make `isTokenResponseValid` false, and are
 *   ignored by the functional APIs and the backends; nothing is polluted and nothing crashes;
 * - every member with every hostile value, a throwing getter in place of any member, and a
 *   hostile options object itself (a Proxy whose traps throw, a revoked Proxy included) end in
 *   success or a typed error, never a raw error, a hang or a leaked secret; a `signal` that is
 *   not an `AbortSignal` and a `timeoutMs` outside 1…2 147 483 647 are `ConfigurationError`s
 *   naming them.
 *
 * Proxies are hostile options objects and throwing getters are hostile members here, but not
 * member values: a revoked Proxy makes even `Array.isArray` and `instanceof` throw, so as a value
 * it would be a test of every type check in JavaScript rather than of the library's reading of
 * what callers pass (which reads each member once, in one place).
 */
import { ConfigurationError } from '@fhir-auth/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type CaseOutcome,
  countHandWrittenCases,
  expectTypedOutcome,
  OutcomeTally,
  printCaseLedger,
} from '../src/index.js'
import {
  createOptionsResources,
  createOptionsTargets,
  type OptionsResources,
  type OptionsTarget,
  optionsTimeoutMs,
} from './support/options-targets.js'
import { createSessionOptionsTargets } from './support/session-options-targets.js'

const maxElapsedMs = optionsTimeoutMs + 5_000

/** Own member names no options object knows. */
const hostileNames = [
  'constructor',
  '__proto__',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'then',
  'prototype',
  'clientSecert',
  '',
  'x'.repeat(10_000),
  'name\u0000with\u202econtrols',
]

const revoked = Proxy.revocable({}, {})
revoked.revoke()
const throwingProxy = new Proxy(
  {},
  {
    get: () => {
      throw new Error('proxy-get-trap-Vb2Nm5')
    },
    has: () => {
      throw new Error('proxy-has-trap')
    },
    ownKeys: () => {
      throw new Error('proxy-keys-trap')
    },
    getPrototypeOf: () => {
      throw new Error('proxy-prototype-trap')
    },
  },
)

/** Values of the wrong type, range or shape, for any member. */
const hostileValues: readonly (readonly [string, unknown])[] = [
  ['undefined', undefined],
  ['null', null],
  ['an empty string', ''],
  ['a blank string', '   '],
  ['zero', 0],
  ['-1', -1],
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['3e9', 3e9],
  ['true', true],
  ['an empty array', []],
  ['an array of numbers', [1, 2]],
  ['an empty object', {}],
  ['a symbol', Symbol('hostile')],
  ['a function', () => 1],
  ['a bigint', 10n],
  ['a 100 000-character string', 'y'.repeat(100_000)],
  [
    'an object whose toString throws',
    {
      toString() {
        throw new Error('to-string-Qw3Er6')
      },
    },
  ],
  ['an invalid Date', new Date(Number.NaN)],
]

/** Valid option values that are secrets: none may appear in an error. */
const secretMembers = ['code', 'codeVerifier', 'clientSecret', 'refreshToken', 'authorization']

let resources: OptionsResources | undefined
const readResources = () => {
  if (resources === undefined) throw new Error('the options resources were not created')
  return resources
}
const targets = [
  ...createOptionsTargets(readResources),
  ...createSessionOptionsTargets(readResources),
]

beforeAll(async () => {
  resources = await createOptionsResources()
}, 60_000)
afterAll(() => printCaseLedger('hostile-options'))

function secretsOf(options: Record<string, unknown>): Record<string, string> {
  const secrets: Record<string, string> = {}
  for (const member of secretMembers) {
    const value = options[member]
    if (typeof value === 'string') secrets[member] = value
  }
  return secrets
}

/** The valid options with one own member set to `value` (or defined by `descriptor`). */
function withMember(
  valid: Record<string, unknown>,
  name: string,
  descriptor: PropertyDescriptor,
): Record<string, unknown> {
  const options = { ...valid }
  // defineProperty makes an own member even of `__proto__`, as JSON.parse does.
  Object.defineProperty(options, name, { enumerable: true, configurable: true, ...descriptor })
  return options
}

async function runCase(
  target: OptionsTarget,
  options: unknown,
  secrets: Record<string, string>,
): Promise<CaseOutcome> {
  return expectTypedOutcome(() => target.run(options), { maxElapsedMs, secrets })
}

function expectConfigurationErrorOn(outcome: CaseOutcome, attribute: string, label: string) {
  expect(outcome.kind, label).toBe('typed-error')
  if (outcome.kind !== 'typed-error') return
  expect(outcome.error, label).toBeInstanceOf(ConfigurationError)
  expect((outcome.error as ConfigurationError).invalidAttribute, label).toBe(attribute)
}

describe('hostile options objects', () => {
  it('covers every options object of every operation', () => {
    expect(targets.map((target) => target.name)).toMatchInlineSnapshot(`
      [
        "new Client: configuration",
        "new Client: options",
        "Client (SMART) serverMetadata",
        "Client (SMART) authorizationUrl",
        "Client (SMART) requestAccessToken (symmetric)",
        "Client (SMART) refreshToken (asymmetric)",
        "Client (SMART) requestBackendToken",
        "Client (SMART) registerClient",
        "Client isTokenResponseValid",
        "Client (UDAP) serverMetadata",
        "Client (UDAP) requestBackendToken",
        "Client (UDAP) registerClient",
        "Client (UDAP) cancelRegistration",
        "Client (UDAP) authorizationUrl",
        "Client (UDAP) requestAccessToken",
        "Client (UDAP) refreshToken",
        "smart discoverSmartConfiguration",
        "smart buildAuthorizationRequest",
        "smart exchangeAuthorizationCode",
        "smart refreshAccessToken",
        "smart requestBackendServicesToken",
        "smart createClientAssertion",
        "smart registerSmartClient",
        "smart isTokenResponseValid",
        "udap discoverUdapMetadata",
        "udap verifySignedMetadata",
        "udap prepareUdapSigner",
        "udap createAuthenticationToken",
        "udap requestUdapClientCredentialsToken",
        "udap buildUdapAuthorizationRequest",
        "udap exchangeUdapAuthorizationCode",
        "udap refreshUdapAccessToken",
        "udap registerUdapClient",
        "udap cancelUdapRegistration",
        "node backend importSigner options",
        "node backend verifyCertificateChain parameters",
        "webcrypto backend importSigner options",
        "webcrypto backend verifyCertificateChain parameters",
        "Client (SMART) beginAuthorization",
        "Client (SMART) completeAuthorization (store)",
        "Client (SMART) completeAuthorization (kept values)",
        "Client (SMART) resumeSession",
        "Client (SMART) validateIdToken",
        "Session accessToken",
        "Session refresh",
        "Session fetch init",
      ]
    `)
  })

  // One test per target, so a failure names the operation; each lists every broken case.
  for (const target of targets) {
    it(`${target.name}: valid options succeed; hostile names and values end typed`, async () => {
      const valid = target.valid()
      const secrets = secretsOf(valid)
      const tally = new OutcomeTally()
      const broken: string[] = []
      const check = async (
        label: string,
        options: unknown,
        expectation?: (o: CaseOutcome) => void,
      ) => {
        try {
          const outcome = tally.record(await runCase(target, options, secrets))
          expectation?.(outcome)
        } catch (error) {
          broken.push(
            `${target.name}, ${label}: ${error instanceof Error ? error.message : String(error)}`,
          )
        }
      }

      await check('the valid options', valid, (outcome) =>
        expect(outcome.kind, 'the valid options must succeed').toBe('success'),
      )

      for (const name of hostileNames) {
        const label = `unknown own member ${JSON.stringify(name.slice(0, 30))}`
        await check(label, withMember(valid, name, { value: 'hostile' }), (outcome) => {
          const rule = target.unknownMembers
          if (rule === 'ignored' || rule === 'not valid') {
            expect(outcome.kind, `${label}: ${rule}`).toBe('success')
            if (outcome.kind === 'success' && rule === 'not valid') {
              expect(outcome.value, `${label} is not valid`).toBe(false)
            }
            return
          }
          expectConfigurationErrorOn(outcome, name, label)
          if (outcome.kind === 'typed-error') {
            expect(outcome.error.message, label).toContain(rule)
          }
        })
      }

      for (const member of Object.keys(valid)) {
        for (const [kind, value] of hostileValues) {
          const label = `${member} = ${kind}`
          await check(label, withMember(valid, member, { value }), (outcome) => {
            if (member === 'signal' && value !== undefined && value !== null) {
              expectConfigurationErrorOn(outcome, 'signal', label)
            }
            if (member === 'timeoutMs' && value !== undefined) {
              expectConfigurationErrorOn(outcome, 'timeoutMs', label)
            }
          })
        }
        await check(
          `${member} as a throwing getter`,
          withMember(valid, member, {
            get: () => {
              throw new Error('getter-Hk7Jl0')
            },
          }),
        )
      }

      for (const [kind, value] of [
        ...hostileValues,
        ['a Proxy whose traps throw', throwingProxy],
        ['a revoked Proxy', revoked.proxy],
      ] as const) {
        await check(`the options object is ${kind}`, value)
      }
      countHandWrittenCases('hostile-options', tally.successes + tally.typedErrors)

      expect(broken, broken.join('\n')).toEqual([])
      expect(tally.successes, tally.summary()).toBeGreaterThan(0)
      if (target.neverThrows) {
        // A diagnostic: every case returns (a boolean), none throws.
        expect(tally.typedErrors, tally.summary()).toBe(0)
      } else {
        // Not cases stuck on one outcome: the valid case succeeds, hostile ones fail typed.
        expect(tally.typedErrors, tally.summary()).toBeGreaterThan(0)
      }
    })
  }
})
