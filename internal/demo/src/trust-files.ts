/**
 * Reads the `--trust-anchor` and `--crl` files into the library's trust inputs: PEM files may
 * hold several certificates or CRLs; anything else is passed on as DER bytes.
 */
import { readFile } from 'node:fs/promises'
import type { UdapTrustOptions } from '@fhir-auth/client'
import { UsageError } from './cli-args.js'

const pemBlockPattern = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g

/**
 * Loads every anchor and CRL file.
 *
 * @throws UsageError naming a file that cannot be read or a PEM file without the expected block.
 */
export async function readTrustFiles(
  anchorFiles: readonly string[],
  crlFiles: readonly string[],
): Promise<UdapTrustOptions> {
  const trustedAnchors = (
    await Promise.all(anchorFiles.map((file) => readObjects(file, 'CERTIFICATE')))
  ).flat()
  const crls = (await Promise.all(crlFiles.map((file) => readObjects(file, 'X509 CRL')))).flat()
  return { trustedAnchors, crls }
}

async function readObjects(file: string, label: string): Promise<(string | Uint8Array)[]> {
  let bytes: Uint8Array
  try {
    bytes = new Uint8Array(await readFile(file))
  } catch (error) {
    const code = (error as { code?: unknown }).code
    throw new UsageError(`cannot read ${file}${typeof code === 'string' ? ` (${code})` : ''}`)
  }
  const text = new TextDecoder().decode(bytes)
  if (!text.includes('-----BEGIN')) return [bytes]
  const blocks = [...text.matchAll(pemBlockPattern)]
    .filter((match) => match[1] === label)
    .map((match) => match[0])
  if (blocks.length === 0) throw new UsageError(`${file} holds no PEM "${label}" block`)
  return blocks
}
