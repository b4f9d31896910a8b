/**
 * Runs `openssl verify` on chains, as the reference verdict of the differential test: strict
 * X.509 rules, CRLs required for every certificate of the path, the SSL client purpose (the only
 * way to make OpenSSL look at the leaf's keyUsage), partial chains allowed (fhir-auth trusts the
 * given anchors, self-signed or not) and a fixed time.
 */
import { execFile } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { encodePem } from '@fhir-auth/core/backend'

const run = promisify(execFile)

/** One chain as OpenSSL gets it: the leaf, an unordered bag of the others, anchors and CRLs. */
export interface OpenSslCase {
  readonly name: string
  readonly chainDer: readonly Uint8Array[]
  readonly trustAnchorsDer: readonly Uint8Array[]
  readonly crlsDer: readonly Uint8Array[]
}

/** OpenSSL's answer: `ok`, or the first error it reports (`X509_V_ERR_*` number and text). */
export type OpenSslVerdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: number; readonly depth: number; readonly text: string }

export { openSslVersion } from '../../src/revocation/openssl-crl-download.js'

/** The `openssl verify` options every case runs with (documented in docs/guides/udap.md). */
export const openSslVerifyOptions = [
  '-x509_strict',
  '-crl_check_all',
  '-purpose',
  'sslclient',
  '-partial_chain',
] as const

/**
 * Verifies every case with `openssl verify`, `concurrency` processes at a time, writing the
 * inputs as PEM under `directory`.
 */
export async function openSslVerdicts(
  cases: readonly OpenSslCase[],
  options: { readonly directory: string; readonly at: Date; readonly concurrency: number },
): Promise<Map<string, OpenSslVerdict>> {
  const verdicts = new Map<string, OpenSslVerdict>()
  let next = 0
  const worker = async () => {
    for (let index = next++; index < cases.length; index = next++) {
      const entry = cases[index] as OpenSslCase
      verdicts.set(entry.name, await verifyOne(entry, options.directory, options.at))
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker))
  return verdicts
}

const certificates = (ders: readonly Uint8Array[]) =>
  ders.map((der) => encodePem(der, 'CERTIFICATE')).join('')

async function verifyOne(entry: OpenSslCase, root: string, at: Date): Promise<OpenSslVerdict> {
  const directory = join(root, entry.name)
  await mkdir(directory, { recursive: true })
  const file = (name: string) => join(directory, name)
  const [leaf, ...rest] = entry.chainDer
  if (leaf === undefined) throw new Error(`${entry.name} has an empty chain`)
  await writeFile(file('leaf.pem'), certificates([leaf]))
  await writeFile(file('anchors.pem'), certificates(entry.trustAnchorsDer))
  const args = [
    'verify',
    ...openSslVerifyOptions,
    '-attime',
    String(Math.floor(at.getTime() / 1000)),
    '-CAfile',
    file('anchors.pem'),
  ]
  if (rest.length > 0) {
    await writeFile(file('untrusted.pem'), certificates(rest))
    args.push('-untrusted', file('untrusted.pem'))
  }
  if (entry.crlsDer.length > 0) {
    await writeFile(
      file('crls.pem'),
      entry.crlsDer.map((der) => encodePem(der, 'X509 CRL')).join(''),
    )
    args.push('-CRLfile', file('crls.pem'))
  }
  args.push(file('leaf.pem'))
  try {
    await run('openssl', args)
    return { ok: true }
  } catch (error) {
    const output = `${(error as { stdout?: string }).stdout ?? ''}\n${(error as { stderr?: string }).stderr ?? ''}`
    const match = /error (\d+) at (\d+) depth lookup: ?(.*)/.exec(output)
    if (match === null) throw new Error(`openssl verify failed without a verdict: ${output}`)
    return { ok: false, code: Number(match[1]), depth: Number(match[2]), text: match[3] ?? '' }
  }
}
