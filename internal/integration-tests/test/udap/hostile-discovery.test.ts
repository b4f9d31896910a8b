/**
 * Fail-closed trust: the sandbox's discovery is made wrong in exactly one way at a time, and a
 * fresh `Client` trying to register must refuse it with a `DiscoveryError` that names that one
 * problem — before any registration request reaches the server.
 *
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html#signed-metadata-elements
 */
import {
  CertificateChainError,
  type CertificateChainFailureReason,
  DiscoveryError,
} from '@fhir-auth/client'
import {
  type HostileDiscoveryVariant,
  hostileDiscoveryVariants,
  startUdapSandbox,
  type UdapCrlVariants,
  type UdapSandbox,
} from '@fhir-auth/sandbox'
import type { IssuedCertificate } from '@fhir-auth/test-pki/issuer'
import { failureOf } from '@fhir-auth/test-utils/failure'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { countsOf } from './support/sandbox-requests.js'
import {
  clientCredentialsRegistration,
  createUdapClient,
  defaultClientUri,
  identityOf,
  trustInputsOf,
} from './support/udap-test-context.js'

/** What the refusal of one case must say: a message pattern, and the chain verdict when there is one. */
interface ExpectedRefusal {
  /** Builds the pattern the message must match (some name the sandbox's random port). */
  readonly message: (sandbox: UdapSandbox) => RegExp
  readonly chainReason?: readonly CertificateChainFailureReason[]
  /** Which certificate the chain verdict is about. */
  readonly chainSubject?: RegExp
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const sanMismatch = (san: (sandbox: UdapSandbox) => string) => (sandbox: UdapSandbox) =>
  new RegExp(
    `iss "${escapeRegExp(sandbox.fhirBaseUrl)}" is not a URI subject alternative name of the signing certificate \\("${escapeRegExp(san(sandbox))}"\\)`,
  )

const hostileCases: Readonly<Record<HostileDiscoveryVariant, ExpectedRefusal>> = {
  'alg-none': { message: () => /header alg must be "RS256", not "none"/ },
  'alg-hs256': { message: () => /header alg must be "RS256", not "HS256"/ },
  'alg-rs384': { message: () => /header alg must be "RS256", not "RS384"/ },
  'wrong-signing-key': { message: () => /the signature does not verify with the key of x5c\[0\]/ },
  // The leaf signed, but x5c lists the intermediate first: the refusal must say the order is wrong.
  'x5c-out-of-order': { message: () => /order/i, chainReason: ['order'] },
  'san-other-url': { message: sanMismatch((sandbox) => `${sandbox.publicOrigin}/other-fhir`) },
  'san-case-differs': { message: sanMismatch((sandbox) => `${sandbox.publicOrigin}/FHIR`) },
  'san-trailing-slash': { message: sanMismatch((sandbox) => `${sandbox.fhirBaseUrl}/`) },
  // The chain ends below a root the client was not given: no path to any of its anchors.
  'untrusted-root': {
    message: () => /not trusted \((untrusted|no-path)\).*Untrusted Root/,
    chainReason: ['untrusted', 'no-path'],
  },
  'revoked-leaf': {
    message: () => /not trusted \(revoked\)/,
    chainReason: ['revoked'],
    chainSubject: /OU=Leaf/,
  },
  'revoked-intermediate': {
    message: () => /not trusted \(revoked\)/,
    chainReason: ['revoked'],
    chainSubject: /Revoked Intermediate/,
  },
  'expired-leaf': {
    message: () => /not trusted \(expired\)/,
    chainReason: ['expired'],
    chainSubject: /OU=Leaf/,
  },
  'not-yet-valid-leaf': {
    message: () => /not trusted \(not-yet-valid\)/,
    chainReason: ['not-yet-valid'],
    chainSubject: /OU=Leaf/,
  },
  'ca-without-key-cert-sign': {
    message: () => /not trusted \(key-usage\).*lacks keyCertSign/,
    chainReason: ['key-usage'],
    chainSubject: /Intermediate without keyCertSign/,
  },
  'leaf-without-digital-signature': {
    message: () => /not trusted \(key-usage\).*lacks digitalSignature/,
    chainReason: ['key-usage'],
    chainSubject: /OU=Leaf/,
  },
  'crl-issuer-without-crl-sign': {
    message: () => /not trusted \(key-usage\).*lacks cRLSign/,
    chainReason: ['key-usage'],
    chainSubject: /Intermediate without cRLSign/,
  },
  'path-length-exceeded': {
    message: () => /not trusted \(path-length\)/,
    chainReason: ['path-length'],
    chainSubject: /pathLenConstraint 0/,
  },
  'name-constraints-violated': {
    // The sandbox's base URL has an IP host, which no URI constraint can place.
    message: () => /not trusted \(name-constraints\).*it has no DNS host name/,
    chainReason: ['name-constraints'],
    chainSubject: /OU=Leaf/,
  },
  'unknown-critical-extension': {
    message: () => /not trusted \(unknown-critical-extension\)/,
    chainReason: ['unknown-critical-extension'],
    chainSubject: /OU=Leaf/,
  },
  'exp-beyond-one-year': { message: () => /exp is more than 366 days after iat/ },
  'exp-in-past': { message: () => /exp is in the past/ },
  'missing-jti': { message: () => /jti is missing/ },
  'sub-differs': { message: () => /sub does not equal iss/ },
  'iss-differs-from-base-url': {
    message: (sandbox) =>
      new RegExp(
        `iss "${escapeRegExp(sandbox.publicOrigin)}/other-fhir" does not equal the base URL "${escapeRegExp(sandbox.fhirBaseUrl)}"`,
      ),
  },
  'http-endpoints': {
    message: () => /token_endpoint is not an HTTPS URL.*registration_endpoint is not an HTTPS URL/,
  },
}

const crlCases: Readonly<Record<keyof UdapCrlVariants, ExpectedRefusal>> = {
  missing: { message: () => /not trusted \(crl-missing\)/, chainReason: ['crl-missing'] },
  stale: { message: () => /not trusted \(crl-stale\)/, chainReason: ['crl-stale'] },
  badSignature: {
    message: () => /not trusted \(crl-bad-signature\)/,
    chainReason: ['crl-bad-signature'],
  },
}

let sandbox: UdapSandbox
let certificate: IssuedCertificate

beforeAll(async () => {
  sandbox = await startUdapSandbox()
  certificate = await sandbox.certificateAuthority.issue({
    commonName: 'Hostile matrix client',
    sanUris: [defaultClientUri],
    keyType: 'p256',
  })
})
afterEach(() => sandbox.setHostile(undefined))
afterAll(() => sandbox.close())

/** A fresh client tries to register with the given CRL set; returns the refusal and the counts. */
async function refusalOf(crls: UdapSandbox['trust']['crls']) {
  const client = createUdapClient(sandbox, identityOf(certificate))
  const before = countsOf(sandbox)
  const error = await failureOf(
    client.registerClient(clientCredentialsRegistration, {
      clientUri: defaultClientUri,
      ...trustInputsOf(sandbox.trust, crls),
      // The caller's CRL sets judged as given: nothing fetched in their place (issue 30).
      revocation: { fetch: false },
    }),
    DiscoveryError,
  )
  return { error, before, after: countsOf(sandbox) }
}

function expectRefusedFor(
  { error, before, after }: Awaited<ReturnType<typeof refusalOf>>,
  expected: ExpectedRefusal,
): void {
  expect(after.discovery - before.discovery).toBe(1)
  expect(after.registration).toBe(0)
  expect(error.endpoint).toBe(sandbox.endpoints.discovery)
  expect(error.message).toMatch(expected.message(sandbox))
  if (expected.chainReason === undefined) {
    expect(error.cause).not.toBeInstanceOf(CertificateChainError)
  } else {
    expect(error.cause).toBeInstanceOf(CertificateChainError)
    const cause = error.cause as CertificateChainError
    expect(expected.chainReason).toContain(cause.reason)
    if (expected.chainSubject !== undefined) expect(cause.subject).toMatch(expected.chainSubject)
  }
}

describe('hostile discovery variants', () => {
  it('covers every variant the sandbox offers', () => {
    expect(Object.keys(hostileCases).sort()).toEqual([...hostileDiscoveryVariants].sort())
  })

  it('registers against the conformant metadata (the control case)', async () => {
    const client = createUdapClient(sandbox, identityOf(certificate))
    const metadata = await client.serverMetadata(trustInputsOf(sandbox.trust))
    expect(metadata.tokenEndpoint).toBe(sandbox.endpoints.token)
  })

  it.each(hostileDiscoveryVariants)(
    'refuses %s for its own reason and registers nothing',
    async (variant) => {
      sandbox.setHostile(variant)
      expectRefusedFor(await refusalOf(sandbox.trust.crls), hostileCases[variant])
    },
  )
})

describe('CRL problems in the trust inputs', () => {
  it.each(Object.keys(crlCases) as (keyof UdapCrlVariants)[])(
    'refuses a chain checked with the %s CRL set and registers nothing',
    async (variant) => {
      expectRefusedFor(await refusalOf(sandbox.trust.crlVariants[variant]), crlCases[variant])
    },
  )
})
