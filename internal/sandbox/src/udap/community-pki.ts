import {
  type CertificateAuthority,
  createCertificateAuthority,
  type IssuedCertificate,
  type TestKeyPair,
} from '@fhir-auth/test-pki/issuer'
import { CrlPublisher } from './crl-publisher.js'
import { type PkiObject, toPkiObject, type UdapTrust } from './pki-object.js'

const dayMs = 86_400_000

/** The validity every sandbox certificate gets unless a variant needs otherwise. */
export interface ValidityWindow {
  readonly notBefore: Date
  readonly notAfter: Date
}

/** A validity window from a day before `now` to a year after it. */
export function currentValidity(now: Date): ValidityWindow {
  return {
    notBefore: new Date(now.getTime() - dayMs),
    notAfter: new Date(now.getTime() + 365 * dayMs),
  }
}

/** What signs `signed_metadata`: the leaf's key and the `x5c` chain (leaf first). */
export interface SigningMaterial {
  readonly certificate: IssuedCertificate
  /** The `x5c` header value: leaf, then its intermediates (never the root). */
  readonly chainDer: readonly Uint8Array[]
}

/**
 * The PKI of one trust community: a P-384 root, a P-384 intermediate that issues the server
 * and client certificates, and the server's RSA certificate whose SAN URI is the FHIR base URL
 * (`signed_metadata` is RS256, IG STU2 §2.3).
 */
export class CommunityPki {
  readonly community: string
  readonly root: CertificateAuthority
  readonly intermediate: CertificateAuthority
  readonly server: SigningMaterial
  readonly #publishers: CrlPublisher[]

  private constructor(
    community: string,
    root: CertificateAuthority,
    intermediate: CertificateAuthority,
    server: IssuedCertificate,
    now: () => Date,
  ) {
    this.community = community
    this.root = root
    this.intermediate = intermediate
    this.server = { certificate: server, chainDer: server.chainDer }
    this.#publishers = [new CrlPublisher(root, now), new CrlPublisher(intermediate, now)]
  }

  /** Creates the community's CAs and server certificate (EC CAs: a few milliseconds). */
  static async create(parameters: {
    readonly community: string
    readonly fhirBaseUrl: string
    readonly serverKeyPair: TestKeyPair
    readonly now: () => Date
    /** Where this community's CRLs are served (`…/root.crl`, `…/intermediate.crl`); none without. */
    readonly crlBaseUrl?: string | undefined
  }): Promise<CommunityPki> {
    const validity = currentValidity(parameters.now())
    const { crlBaseUrl } = parameters
    const points = (name: string) =>
      crlBaseUrl === undefined ? {} : { crlDistributionPoints: [`${crlBaseUrl}/${name}.crl`] }
    const root = await createCertificateAuthority({
      name: `UDAP Sandbox Root ${parameters.community}`,
      ...validity,
    })
    const intermediate = await createCertificateAuthority({
      name: `UDAP Sandbox Intermediate ${parameters.community}`,
      issuer: root,
      ...validity,
      ...points('root'),
    })
    const server = await intermediate.issue({
      commonName: parameters.fhirBaseUrl,
      sanUris: [parameters.fhirBaseUrl],
      keyPair: parameters.serverKeyPair,
      ...validity,
      ...points('intermediate'),
    })
    return new CommunityPki(parameters.community, root, intermediate, server, parameters.now)
  }

  /** The CRL publisher of the root (lists revoked intermediates). */
  get rootCrls(): CrlPublisher {
    return this.#publishers[0] as CrlPublisher
  }

  /** The CRL publisher of the intermediate (lists revoked server and client leaves). */
  get intermediateCrls(): CrlPublisher {
    return this.#publishers[1] as CrlPublisher
  }

  /** Adds a further CA (e.g. a revoked intermediate) whose current CRL joins {@link trust}. */
  addAuthority(publisher: CrlPublisher): void {
    this.#publishers.push(publisher)
  }

  /** The root certificate. */
  get anchor(): PkiObject {
    return toPkiObject(this.root.certificateDer, 'CERTIFICATE')
  }

  /** Current CRLs of every CA of the community, root first. */
  currentCrls(): Uint8Array[] {
    return this.#publishers.map((publisher) => publisher.current().crlDer)
  }

  /** A snapshot of what a client needs to trust this community, with the broken CRL sets. */
  trust(): UdapTrust {
    const withIntermediateCrl = (intermediateCrl: Uint8Array | undefined): PkiObject[] =>
      this.#publishers.flatMap((publisher) => {
        if (publisher !== this.intermediateCrls)
          return [toPkiObject(publisher.current().crlDer, 'X509 CRL')]
        return intermediateCrl === undefined ? [] : [toPkiObject(intermediateCrl, 'X509 CRL')]
      })
    return {
      community: this.community,
      anchors: [this.anchor],
      crls: withIntermediateCrl(this.intermediateCrls.current().crlDer),
      crlVariants: {
        stale: withIntermediateCrl(this.intermediateCrls.stale().crlDer),
        badSignature: withIntermediateCrl(this.intermediateCrls.badSignature().crlDer),
        missing: withIntermediateCrl(undefined),
      },
    }
  }
}
