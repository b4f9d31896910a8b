import { loadPkcs12 } from '@fhir-auth/client'
import type { CertificateInput, PrivateKeyInput } from '@fhir-auth/core'
import { checkExclusive, checkOnlyWith, type ParsedFlags, usageError } from '../args.js'
import type { CommandContext } from '../commands/command.js'
import { readCertificateFile, readFileBytes, readPrivateKeyFile } from '../files.js'
import { readPkcs12Password } from './secret-inputs.js'

/** A UDAP client's signing identity: its private key and its certificate chain, leaf first. */
export interface UdapIdentity {
  readonly privateKey: PrivateKeyInput
  readonly certificateChain: readonly CertificateInput[]
}

/**
 * Reads the identity from `--key` + `--cert…` (PEM or DER files, chain leaf first across the
 * files in order) or from `--pkcs12` with its password. The key is registered with the run's
 * redactor.
 *
 * @throws ConfigurationError on the flags (a usage error when neither form, both forms or
 *   half of one is given; otherwise an unreadable file).
 * @throws CryptoError `pkcs12-password`, `pkcs12-unsupported-encryption` or `pkcs12-invalid`
 *   for a PKCS#12 file that cannot be opened.
 * @see https://hl7.org/fhir/us/udap-security/STU2/general.html
 */
export async function readUdapIdentity(
  flags: ParsedFlags,
  context: CommandContext,
): Promise<UdapIdentity> {
  checkExclusive(flags, 'key', 'pkcs12')
  checkExclusive(flags, 'cert', 'pkcs12')
  const pkcs12File = flags.string('pkcs12')
  if (pkcs12File !== undefined) {
    const bytes = await readFileBytes(pkcs12File, '--pkcs12')
    const password = await readPkcs12Password(flags, context)
    const contents = await loadPkcs12(bytes, password, { crypto: context.crypto })
    return { privateKey: contents.privateKey, certificateChain: contents.certificateChain }
  }
  checkOnlyWith(flags, ['password-env', 'password-file'], 'pkcs12')
  const keyFile = flags.string('key')
  const certificateFiles = flags.strings('cert')
  if (keyFile === undefined || certificateFiles.length === 0) {
    throw usageError(
      keyFile === undefined ? '--key' : '--cert',
      'a UDAP client needs --key <file> with --cert <file>… (leaf first), or --pkcs12 <file>',
    )
  }
  const privateKey = await readPrivateKeyFile(keyFile, '--key')
  context.secrets.addPrivateKeyPem(privateKey)
  const certificateChain: CertificateInput[] = []
  for (const file of certificateFiles) {
    certificateChain.push(...(await readCertificateFile(file, '--cert')))
  }
  return { privateKey, certificateChain }
}
