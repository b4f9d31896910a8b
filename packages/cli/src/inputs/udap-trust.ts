import type { UdapTrustOptions } from '@fhir-auth/client'
import type { CertificateInput, CrlInput } from '@fhir-auth/core'
import { type ParsedFlags, usageError } from '../args.js'
import { readCertificateFile, readCrlFile } from '../files.js'

/**
 * The UDAP trust inputs: `--trust-anchor…` (required: UDAP trust is explicit, there is no
 * default trust store), `--crl…` (CRLs of every CA in the server's chain; revocation checking
 * fails closed without them) and `--community`.
 *
 * @throws ConfigurationError on `--trust-anchor` (a usage error when none is given) or on the
 *   flag whose file cannot be read.
 * @see https://hl7.org/fhir/us/udap-security/STU2/discovery.html
 */
export async function readUdapTrust(flags: ParsedFlags): Promise<UdapTrustOptions> {
  const anchorFiles = flags.strings('trust-anchor')
  if (anchorFiles.length === 0) {
    throw usageError(
      '--trust-anchor',
      '--trust-anchor <file> is required with --udap: the root certificate(s) of the trust community',
    )
  }
  const trustedAnchors: CertificateInput[] = []
  for (const file of anchorFiles) {
    trustedAnchors.push(...(await readCertificateFile(file, '--trust-anchor')))
  }
  const crls: CrlInput[] = []
  for (const file of flags.strings('crl')) crls.push(...(await readCrlFile(file, '--crl')))
  const community = flags.string('community')
  return community === undefined ? { trustedAnchors, crls } : { trustedAnchors, crls, community }
}
