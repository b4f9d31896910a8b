/**
 * DESIGN §11 end to end, on both crypto backends: RFC 5280's path rules (key usage, path length,
 * name constraints, unknown critical extensions) refuse a server whose discovery chain breaks one
 * (`Client.serverMetadata` → `DiscoveryError` caused by a `CertificateChainError` with that
 * reason), and refuse the client's own chain before anything is sent (`registerClient` →
 * `CertificateChainError`, the sandbox sees no request at all; every other operation that signs
 * — client credentials, backend token reuse, cancellation, code exchange, refresh — sends no token
 * or registration request). Chains that satisfy the rules register.
 *
 * The sandbox advertises `https://fhir.example.test` (mapped onto its loopback port by the
 * client's `fetch`), so that its server certificate's SAN has a DNS host for URI constraints.
 */
import {
  CertificateChainError,
  type CertificateChainFailureReason,
  type Client,
  type CryptoBackend,
  DiscoveryError,
  type FetchLike,
} from '@fhir-auth/client'
import { createWebCryptoBackend } from '@fhir-auth/crypto-webcrypto'
import {
  type HostileDiscoveryVariant,
  startUdapSandbox,
  type UdapSandbox,
} from '@fhir-auth/sandbox'
import { pathRuleLeaves } from '@fhir-auth/test-pki'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { countsOf } from './support/sandbox-requests.js'
import {
  cancellationMetadata,
  clientCredentialsRegistration,
  createUdapClient,
  type SigningIdentity,
  trustInputsOf,
} from './support/udap-test-context.js'

/** The sandbox variants of DESIGN §11, with the reason and the certificate each must name. */
const serverVariants: ReadonlyArray<
  readonly [HostileDiscoveryVariant, CertificateChainFailureReason, RegExp, RegExp]
> = [
  ['ca-without-key-cert-sign', 'key-usage', /Intermediate without keyCertSign/, /keyCertSign/],
  ['leaf-without-digital-signature', 'key-usage', /OU=Leaf/, /digitalSignature/],
  ['crl-issuer-without-crl-sign', 'key-usage', /Intermediate without cRLSign/, /cRLSign/],
  ['path-length-exceeded', 'path-length', /pathLenConstraint 0/, /allows 0 CA certificates/],
  [
    'name-constraints-violated',
    'name-constraints',
    /OU=Leaf/,
    /"https:\/\/fhir\.example\.test\/fhir" is not within the permitted subtrees/,
  ],
  [
    'unknown-critical-extension',
    'unknown-critical-extension',
    /OU=Leaf/,
    /critical extension 2\.25\./,
  ],
]

const backends: ReadonlyArray<readonly [string, () => CryptoBackend | undefined]> = [
  ['crypto-node (the default)', () => undefined],
  ['crypto-webcrypto', () => createWebCryptoBackend()],
]

let sandbox: UdapSandbox
let loopbackFetch: FetchLike

beforeAll(async () => {
  const pathRuleRoots = pathRuleLeaves[0]?.trustAnchorsPem ?? []
  const pathRuleCrls = [...new Set(pathRuleLeaves.flatMap((entry) => entry.crlsPem))]
  sandbox = await startUdapSandbox({
    publicOrigin: 'https://fhir.example.test',
    // The server trusts the path-rule fixtures' roots, so satisfied client chains register.
    clientTrust: { anchors: pathRuleRoots, crls: pathRuleCrls },
  })
  loopbackFetch = (url, init) => fetch(url.replace(sandbox.publicOrigin, sandbox.origin), init)
})
afterEach(() => sandbox.setHostile(undefined))
afterAll(() => sandbox.close())

function clientWith(identity: Partial<SigningIdentity>, crypto: CryptoBackend | undefined) {
  return createUdapClient(sandbox, identity, {
    fetch: loopbackFetch,
    ...(crypto === undefined ? {} : { crypto }),
  })
}

describe.each(backends)('certificate path rules with %s', (_name, backend) => {
  describe('Client.serverMetadata refuses a server chain that breaks one rule', () => {
    it.each(serverVariants)('%s: %s', async (variant, reason, subject, detail) => {
      sandbox.setHostile(variant)
      const before = countsOf(sandbox)
      const client = clientWith({}, backend())
      const error = await failureOf(
        client.serverMetadata(trustInputsOf(sandbox.trust)),
        DiscoveryError,
      )
      expect(error.message).toContain(`not trusted (${reason})`)
      expect(error.cause).toBeInstanceOf(CertificateChainError)
      const cause = error.cause as CertificateChainError
      expect(cause.reason).toBe(reason)
      expect(cause.subject).toMatch(subject)
      expect(cause.message).toMatch(detail)
      const after = countsOf(sandbox)
      expect(after.discovery - before.discovery).toBe(1)
      expect(after.registration - before.registration).toBe(0)
    })
  })

  describe('registerClient refuses its own chain before sending anything', () => {
    for (const entry of pathRuleLeaves.filter((candidate) => candidate.expectedOwnChain !== 'ok')) {
      it(`${entry.name}: ${entry.expectedOwnChain}`, async () => {
        const before = countsOf(sandbox)
        const client = clientWith(
          { privateKey: entry.privateKeyPkcs8Pem, certificateChain: entry.chainDer },
          backend(),
        )
        const error = await failureOf(
          client.registerClient(clientCredentialsRegistration, {
            clientUri: entry.sanUris[0] ?? '',
            ...trustInputsOf(sandbox.trust),
          }),
          CertificateChainError,
        )
        expect(error.reason).toBe(entry.expectedOwnChain)
        expect(error.subject).toBe(entry.failingSubject)
        expect(countsOf(sandbox)).toEqual(before)
      })
    }

    for (const entry of pathRuleLeaves.filter((candidate) => candidate.expected === 'ok')) {
      it(`${entry.name}: registers (the rules are satisfied)`, async () => {
        const client = clientWith(
          { privateKey: entry.privateKeyPkcs8Pem, certificateChain: entry.chainDer },
          backend(),
        )
        const registration = await client.registerClient(clientCredentialsRegistration, {
          clientUri: entry.sanUris[0] ?? '',
          ...trustInputsOf(sandbox.trust),
        })
        expect(registration.client_id).toEqual(expect.any(String))
      })
    }
  })

  describe('every other signing operation refuses its own chain before any token or registration request', () => {
    const broken = pathRuleLeaves.find((candidate) => candidate.expectedOwnChain !== 'ok')
    if (broken === undefined) throw new Error('the path-rule fixtures have no failing own chain')
    const operations: ReadonlyArray<readonly [string, (client: Client) => Promise<unknown>]> = [
      ['requestBackendToken', (client) => client.requestBackendToken(trustInputsOf(sandbox.trust))],
      [
        'backendTokens().accessToken',
        (client) => client.backendTokens(trustInputsOf(sandbox.trust)).accessToken(),
      ],
      [
        'cancelRegistration',
        (client) =>
          client.cancelRegistration(cancellationMetadata, {
            clientUri: broken.sanUris[0] ?? '',
            ...trustInputsOf(sandbox.trust),
          }),
      ],
      [
        'requestAccessToken (code exchange)',
        (client) =>
          client.requestAccessToken({
            code: 'code-1',
            codeVerifier: 'v'.repeat(43),
            ...trustInputsOf(sandbox.trust),
          }),
      ],
      [
        'refreshToken',
        (client) => client.refreshToken({ refreshToken: 'rt-1', ...trustInputsOf(sandbox.trust) }),
      ],
    ]

    it.each(operations)('%s', async (_name, operation) => {
      const before = countsOf(sandbox)
      const client = createUdapClient(
        sandbox,
        { privateKey: broken.privateKeyPkcs8Pem, certificateChain: broken.chainDer },
        { fetch: loopbackFetch, ...(backend() === undefined ? {} : { crypto: backend() }) },
        { clientId: 'registered-elsewhere', redirectUri: 'https://app.example.org/cb' },
      )
      const error = await failureOf(operation(client), CertificateChainError)
      expect(error.reason).toBe(broken.expectedOwnChain)
      const after = countsOf(sandbox)
      expect({ token: after.token, registration: after.registration }).toEqual({
        token: before.token,
        registration: before.registration,
      })
    })
  })
})
