import type { UdapSandbox } from '../udap/options.js'
import type { PkiObject, UdapTrust } from '../udap/pki-object.js'
import { toPkiObject } from '../udap/pki-object.js'
import { parseCertificateDer, parseCrlDer } from '../udap/pkijs-parsing.js'

/** The files a UDAP client of one sandbox needs: trust inputs and its own identity. */
export interface UdapCommunityFiles {
  readonly trustAnchorFile: string
  /**
   * The CRLs of the CAs on the server's certificate path, root first: all a client needs to
   * validate the signed metadata (and all the server needs for the client certificate below).
   */
  readonly crlFiles: readonly string[]
  /**
   * The CRLs of the sandbox's other CAs, which exist only to issue the broken certificates of its
   * hostile variants (tests): nothing a person trying the sandbox needs.
   */
  readonly hostileTestCaCrlFiles: readonly string[]
  readonly client: {
    readonly clientUri: string
    readonly keyFile: string
    readonly certificateChainFile: string
  }
}

/** Writes one file and returns its absolute path. */
export type WriteFile = (name: string, text: string) => Promise<string>

/**
 * Writes the trust anchor and the CRLs of `sandbox` (the two on the server's path apart from the
 * hostile test CAs' ones), and a P-256 client certificate issued by its CA for `clientUri`, with
 * its key and chain (leaf first, one PEM file).
 */
export async function writeUdapCommunityFiles(
  sandbox: UdapSandbox,
  write: WriteFile,
  prefix: string,
  clientUri: string,
): Promise<UdapCommunityFiles> {
  const issued = await sandbox.certificateAuthority.issue({
    commonName: `fhir-auth sandbox client ${clientUri}`,
    sanUris: [clientUri],
    keyType: 'p256',
  })
  const chainPem = issued.chainDer.map((der) => toPkiObject(der, 'CERTIFICATE').pem).join('')
  const trust = sandbox.trust
  const { onServerPath, others } = crlsByPath(sandbox, trust)
  return {
    trustAnchorFile: await write(
      `${prefix}-trust-anchor.pem`,
      trust.anchors.map((anchor) => anchor.pem).join(''),
    ),
    crlFiles: await Promise.all(
      onServerPath.map(({ name, crl }) => write(`${prefix}-crl-${name}.pem`, crl.pem)),
    ),
    hostileTestCaCrlFiles: await Promise.all(
      others.map((crl, index) => write(`${prefix}-crl-hostile-test-ca-${index + 1}.pem`, crl.pem)),
    ),
    client: {
      clientUri,
      keyFile: await write(`${prefix}-client-key.pem`, issued.privateKeyPem),
      certificateChainFile: await write(`${prefix}-client-chain.pem`, chainPem),
    },
  }
}

/**
 * Splits the sandbox's current CRLs into those issued by a CA on the server certificate's path
 * (named `root` for the anchor, `intermediate` for the CA that issued the server certificate) and
 * the rest.
 */
function crlsByPath(
  sandbox: UdapSandbox,
  trust: UdapTrust,
): {
  onServerPath: { name: string; crl: PkiObject }[]
  others: PkiObject[]
} {
  const anchor = parseCertificateDer(trust.anchors[0]?.der ?? new Uint8Array())
  const server = parseCertificateDer(sandbox.serverCertificate.der)
  const pathIssuers = [
    { name: 'root', issuer: anchor.subject },
    { name: 'intermediate', issuer: server.issuer },
  ]
  const onServerPath: { name: string; crl: PkiObject }[] = []
  const others: PkiObject[] = []
  for (const crl of trust.crls) {
    const issuer = parseCrlDer(crl.der).issuer
    const onPath = pathIssuers.find((candidate) => candidate.issuer.isEqual(issuer))
    if (onPath === undefined) others.push(crl)
    else onServerPath.push({ name: onPath.name, crl })
  }
  return { onServerPath, others }
}
