/**
 * What every UDAP integration test needs to talk to the sandbox through `Client`: the trust
 * inputs in the shape `Client` takes, a conformant registration, a B2B context, and a factory
 * for a UDAP client whose certificate the sandbox's CA issued.
 */
import {
  type B2bAuthorizationExtension,
  type CertificateInput,
  Client,
  type ClientConfigInput,
  type ClientOptions,
  type PrivateKeyInput,
  silentLogger,
} from '@fhir-auth/client'
import type { UdapSandbox, UdapTrust } from '@fhir-auth/sandbox'

/** The client URI of the default test client: a URI SAN of its certificate, `iss` of its statements. */
export const defaultClientUri = 'https://client.example.test/app'

/** HL7 ActReason "treatment": the purpose of use every B2B request here asserts. */
export const treatmentPurpose = 'urn:oid:2.16.840.1.113883.5.8#TREAT'

/** The `hl7-b2b` context the tests assert: an organisation requesting for treatment. */
export const b2bContext: B2bAuthorizationExtension = Object.freeze({
  organizationId: 'https://org.example.test/organizations/42',
  organizationName: 'Example Clinic',
  purposeOfUse: [treatmentPurpose],
})

/** The `hl7-b2b` object the server must receive for {@link b2bContext}. */
export const expectedB2bExtension = Object.freeze({
  version: '1',
  organization_name: 'Example Clinic',
  organization_id: 'https://org.example.test/organizations/42',
  purpose_of_use: [treatmentPurpose],
})

/** A client_credentials registration that satisfies every STU2 rule and the sandbox's scopes. */
export const clientCredentialsRegistration: Readonly<Record<string, unknown>> = Object.freeze({
  client_name: 'fhir-auth integration test client',
  contacts: ['mailto:ops@example.test'],
  grant_types: ['client_credentials'],
  scope: 'system/*.rs',
})

/** The same metadata without `grant_types`: what a cancellation takes. */
export const cancellationMetadata: Readonly<Record<string, unknown>> = Object.freeze({
  client_name: 'fhir-auth integration test client',
  contacts: ['mailto:ops@example.test'],
  scope: 'system/*.rs',
})

/** Trust inputs as `Client` takes them: the community's anchors and CRLs as PEM text. */
export interface TrustInputs {
  readonly trustedAnchors: readonly string[]
  readonly crls: readonly string[]
}

/** The PEM trust inputs of a sandbox community (or of one of its CRL variants). */
export function trustInputsOf(trust: UdapTrust, crls: UdapTrust['crls'] = trust.crls): TrustInputs {
  return {
    trustedAnchors: trust.anchors.map((anchor) => anchor.pem),
    crls: crls.map((crl) => crl.pem),
  }
}

/** The signing identity a UDAP client is configured with. */
export interface SigningIdentity {
  readonly privateKey: PrivateKeyInput
  readonly certificateChain: readonly CertificateInput[]
}

/** An identity from a certificate the test PKI issued (PKCS#8 PEM key, DER chain leaf first). */
export function identityOf(issued: {
  readonly privateKeyPem: string
  readonly chainDer: readonly Uint8Array[]
}): SigningIdentity {
  return { privateKey: issued.privateKeyPem, certificateChain: issued.chainDer }
}

/**
 * A `Client` with `protocol: 'udap'` for the sandbox (or another server with its `fhirBaseUrl`):
 * its base URL, loopback HTTP allowed, the given identity, `system/*.rs` scopes, and a silent logger unless the test brings its own
 * (discovery failures are logged at error level, which would only be noise here).
 */
export function createUdapClient(
  sandbox: Pick<UdapSandbox, 'fhirBaseUrl'>,
  identity: Partial<SigningIdentity>,
  options: Omit<ClientOptions, 'protocol'> = {},
  config: Partial<ClientConfigInput> = {},
): Client {
  return new Client(
    {
      baseUrl: sandbox.fhirBaseUrl,
      allowInsecureLocalhost: true,
      scopes: ['system/*.rs'],
      ...identity,
      ...config,
    },
    { protocol: 'udap', logger: silentLogger, ...options },
  )
}
