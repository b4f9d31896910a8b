/**
 * DESIGN §13 (URI names) on the client's own chain, through `Client` against the UDAP sandbox:
 * a URI SAN whose host the WHATWG URL parser reads otherwise than RFC 3986 breaks a URI name
 * constraint of the CA above it (`CertificateChainError` `name-constraints`), and a `clientUri`
 * with such a host is a `ConfigurationError`, however the chain looks. Either way the client
 * refuses locally and sends nothing.
 */
import { ConfigurationError } from '@fhir-auth/client'
import {
  createCertificateAuthority,
  type IssueCertificateOptions,
  type NameConstraintsOptions,
} from '@fhir-auth/test-pki/issuer'
import { describe, expect, it } from 'vitest'
import { type Identity, identityOf, valid } from './support/bad-chains.js'
import { registration } from './support/operations.js'
import { expectChainRefusal, failureOf } from './support/refusal.js'
import { clientFor, useFrozenSandbox } from './support/sandbox.js'

const suite = useFrozenSandbox()

const goodClientUri = 'https://app.good.org/r4'

const permittedGood: NameConstraintsOptions = { permitted: { uris: ['.good.org'] } }
const excludedEvil: NameConstraintsOptions = { excluded: { uris: ['evil.org', '.evil.org'] } }

/** root → CA with `nameConstraints` → leaf with `sanUris`. */
async function constrainedIdentity(
  nameConstraints: NameConstraintsOptions,
  sanUris: readonly string[],
): Promise<Identity> {
  const root = await createCertificateAuthority({ name: 'uri-host root', ...valid })
  const ca = await createCertificateAuthority({
    name: 'uri-host constrained CA',
    issuer: root,
    nameConstraints,
    ...valid,
  })
  return identityOf(await ca.issue({ commonName: 'uri-host client', sanUris, ...valid }))
}

async function plainIdentity(options: Partial<IssueCertificateOptions>): Promise<Identity> {
  const root = await createCertificateAuthority({ name: 'uri-host plain root', ...valid })
  return identityOf(await root.issue({ commonName: 'uri-host client', ...valid, ...options }))
}

function requestsMade(): string[] {
  return suite.sandbox.requests.map((request) => `${request.method} ${request.path}`)
}

describe('own chain: URI SANs judged by the host the WHATWG parser reads', () => {
  it.each([
    {
      san: 'https://evil.example\\.good.org/r4',
      constraint: 'a permitted .good.org',
      nameConstraints: permittedGood,
    },
    {
      san: 'https://api.evil%2Eorg/r4',
      constraint: 'an excluded evil.org',
      nameConstraints: excludedEvil,
    },
    {
      san: 'https://api.evil.org./r4',
      constraint: 'an excluded evil.org',
      nameConstraints: excludedEvil,
    },
  ])(
    'a second SAN $san under $constraint: name-constraints, nothing sent',
    async ({ san, nameConstraints }) => {
      const identity = await constrainedIdentity(nameConstraints, [goodClientUri, san])
      const error = await failureOf(() =>
        clientFor(suite.sandbox, identity).registerClient(registration, {
          clientUri: goodClientUri,
          ...suite.trust,
        }),
      )
      expectChainRefusal(error, 'name-constraints', identity.privateKey)
      expect(requestsMade()).toEqual([])
    },
  )

  it.each([
    { nameConstraints: permittedGood, san: 'https://api.good.org/r4' },
    { nameConstraints: excludedEvil, san: 'https://api.other.org/r4' },
  ])(
    'the control $san: gets past the local checks to the server',
    async ({ nameConstraints, san }) => {
      const identity = await constrainedIdentity(nameConstraints, [goodClientUri, san])
      const error = await failureOf(() =>
        clientFor(suite.sandbox, identity).registerClient(registration, {
          clientUri: goodClientUri,
          ...suite.trust,
        }),
      )
      // The sandbox does not trust this root: the refusal is the server's, after a request.
      expect(error).not.toBeInstanceOf(ConfigurationError)
      expect((error as { reason?: unknown }).reason).not.toBe('name-constraints')
      expect(requestsMade().length).toBeGreaterThan(0)
    },
  )

  it.each([
    'https://api.evil.org./r4',
    'https://evil.example\\.good.org/r4',
    'https://api.evil%2Eorg/r4',
  ])(
    'clientUri %s, the chain’s only SAN, unconstrained: ConfigurationError, nothing sent',
    async (uri) => {
      const identity = await plainIdentity({ sanUris: [uri] })
      const error = await failureOf(() =>
        clientFor(suite.sandbox, identity).registerClient(registration, {
          clientUri: uri,
          ...suite.trust,
        }),
      )
      expect(error).toBeInstanceOf(ConfigurationError)
      expect((error as ConfigurationError).invalidAttribute).toBe('clientUri')
      expect((error as ConfigurationError).message).toMatch(
        /^clientUri must name its host as the WHATWG URL parser reads it: /,
      )
      expect(requestsMade()).toEqual([])
    },
  )
})
