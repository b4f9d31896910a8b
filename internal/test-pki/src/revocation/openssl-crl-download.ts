/**
 * `openssl verify -crl_download -crl_check_all -x509_strict -partial_chain` as the reference
 * verdict of the fetched-revocation differential tests: OpenSSL downloads each certificate's CRL
 * from its distribution point (the loopback server of the test) at the current time. Node only.
 */
import { execFile } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { encodePem } from '@fhir-auth/core/backend'

const run = promisify(execFile)

/** OpenSSL's answer: `ok`, or the first error it reports (`X509_V_ERR_*` number, depth, text). */
export type CrlDownloadVerdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: number; readonly depth: number; readonly text: string }

/** The OpenSSL version line, or `undefined` when the binary cannot run. */
export async function openSslVersion(): Promise<string | undefined> {
  try {
    return (await run('openssl', ['version'])).stdout.trim()
  } catch {
    return undefined
  }
}

/** The `openssl verify` options of the fetched-revocation comparisons (docs/guides/udap.md). */
export const crlDownloadVerifyOptions = [
  '-crl_download',
  '-crl_check_all',
  '-x509_strict',
  '-partial_chain',
] as const

/** One chain as OpenSSL gets it: the leaf, the rest as untrusted certificates, anchors, CRLs. */
export interface CrlDownloadInput {
  /** Leaf first. */
  readonly chainDer: readonly Uint8Array[]
  readonly trustAnchorsDer: readonly Uint8Array[]
  /** PEM CRLs given as a file (`-CRLfile`), used before any download. */
  readonly crlsPem?: readonly string[]
}

const certificates = (ders: readonly Uint8Array[]) =>
  ders.map((der) => encodePem(der, 'CERTIFICATE')).join('')

/**
 * Runs `openssl verify` on one chain, writing its inputs as PEM under `directory` (created).
 * OpenSSL's download has no time limit: never give it a distribution point that hangs.
 *
 * @throws Error when OpenSSL ends without a verdict.
 */
export async function openSslCrlDownloadVerdict(
  input: CrlDownloadInput,
  directory: string,
): Promise<CrlDownloadVerdict> {
  await mkdir(directory, { recursive: true })
  const file = (name: string) => join(directory, name)
  const [leaf, ...rest] = input.chainDer
  if (leaf === undefined) throw new Error('an empty chain')
  await writeFile(file('leaf.pem'), certificates([leaf]))
  await writeFile(file('anchors.pem'), certificates(input.trustAnchorsDer))
  const args = ['verify', ...crlDownloadVerifyOptions, '-CAfile', file('anchors.pem')]
  if (input.crlsPem !== undefined && input.crlsPem.length > 0) {
    await writeFile(file('crls.pem'), input.crlsPem.join(''))
    args.push('-CRLfile', file('crls.pem'))
  }
  if (rest.length > 0) {
    await writeFile(file('untrusted.pem'), certificates(rest))
    args.push('-untrusted', file('untrusted.pem'))
  }
  args.push(file('leaf.pem'))
  try {
    await run('openssl', args, { timeout: 60_000 })
    return { ok: true }
  } catch (error) {
    const output = `${(error as { stdout?: string }).stdout ?? ''}\n${(error as { stderr?: string }).stderr ?? ''}`
    const match = /error (\d+) at (\d+) depth lookup: ?(.*)/.exec(output)
    if (match === null) throw new Error(`openssl verify gave no verdict: ${output}`)
    return { ok: false, code: Number(match[1]), depth: Number(match[2]), text: match[3] ?? '' }
  }
}
