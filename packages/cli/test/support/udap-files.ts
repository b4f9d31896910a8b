import type { UdapSandbox, UdapTrust } from '@fhir-auth/sandbox'
import type { TemporaryDirectory } from './temporary-files.js'

/**
 * Writes a UDAP sandbox's trust inputs as files the way users have them — every anchor in one
 * PEM file, each CRL as its own DER file — and returns the matching flags.
 */
export async function writeTrustFiles(
  directory: TemporaryDirectory,
  trust: UdapTrust,
  prefix = 'trust',
): Promise<string[]> {
  const anchors = await directory.write(
    `${prefix}-anchors.pem`,
    trust.anchors.map((anchor) => anchor.pem).join('\n'),
  )
  const flags = ['--trust-anchor', anchors]
  for (const [index, crl] of trust.crls.entries()) {
    flags.push('--crl', await directory.write(`${prefix}-crl-${index}.der`, crl.der))
  }
  return flags
}

/** A client identity issued by the sandbox's CA, written as a PEM key, a PEM leaf and a DER intermediate. */
export async function writeClientIdentity(
  directory: TemporaryDirectory,
  sandbox: UdapSandbox,
  clientUri: string,
  name: string,
) {
  const issued = await sandbox.certificateAuthority.issue({
    commonName: name,
    sanUris: [clientUri],
    keyType: 'p256',
  })
  const [, intermediate] = issued.chainDer
  if (intermediate === undefined) throw new Error('the sandbox issued a chain without intermediate')
  const key = await directory.write(`${name}-key.pem`, issued.privateKeyPem)
  const leaf = await directory.write(`${name}-leaf.pem`, issued.certificatePem)
  const issuer = await directory.write(`${name}-intermediate.der`, intermediate)
  return {
    privateKeyPem: issued.privateKeyPem,
    flags: ['--key', key, '--cert', leaf, '--cert', issuer],
  }
}
