/**
 * `openssl ocsp` as a real OCSP responder for tests: an OpenSSL CA index written from
 * certificates the test PKI issued, the responder started on a free port and stopped by its
 * PID. OpenSSL's `-port` listens on every interface; requests go to 127.0.0.1. Node only.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { IssuedCertificate } from '../issuer/index.js'

/** One row of the responder's index: a certificate and, when revoked, since when. */
export interface OcspIndexEntry {
  readonly certificate: Pick<IssuedCertificate, 'serialNumber'>
  readonly subject: string
  readonly notAfter: Date
  readonly revokedAt?: Date | undefined
}

export interface OpenSslOcspResponderOptions {
  /** PEM of the CA whose certificates the responder answers for (`-CA`). */
  readonly caPem: string
  /** The certificate and PKCS#8 key that sign the answers (`-rsigner`, `-rkey`). */
  readonly signerPem: string
  readonly signerKeyPem: string
  readonly entries: readonly OcspIndexEntry[]
  /** `nextUpdate` = `thisUpdate` + this many minutes (`-nmin`); default 5. */
  readonly validityMinutes?: number
  /** More `openssl ocsp` options (`-resp_no_certs`, `-resp_key_id`, `-rmd sha384`, …). */
  readonly extraArguments?: readonly string[]
}

export interface OpenSslOcspResponder {
  /** `http://127.0.0.1:<port>/`. */
  readonly url: string
  readonly pid: number
  stop(): Promise<void>
}

/** `YYMMDDHHMMSSZ`, the time form of an OpenSSL CA index. */
function indexTime(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(2, 14).concat('Z')
}

/** The serial as OpenSSL's index writes it: uppercase hex, whole octets. */
function indexSerial(serial: string): string {
  const hex = serial.toUpperCase()
  return hex.length % 2 === 0 ? hex : `0${hex}`
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no TCP address')
  return address.port
}

/** Starts `openssl ocsp -index … -port P -rsigner … -rkey … -CA … -nmin N`. */
export async function startOpenSslOcspResponder(
  options: OpenSslOcspResponderOptions,
): Promise<OpenSslOcspResponder> {
  const directory = await mkdtemp(join(tmpdir(), 'fhir-auth-ocsp-'))
  const file = (name: string) => join(directory, name)
  const rows = options.entries.map((entry) =>
    [
      entry.revokedAt === undefined ? 'V' : 'R',
      indexTime(entry.notAfter),
      entry.revokedAt === undefined ? '' : indexTime(entry.revokedAt),
      indexSerial(entry.certificate.serialNumber),
      'unknown',
      entry.subject,
    ].join('\t'),
  )
  await writeFile(file('index.txt'), rows.map((row) => `${row}\n`).join(''))
  await writeFile(file('index.txt.attr'), 'unique_subject = no\n')
  await writeFile(file('ca.pem'), options.caPem)
  await writeFile(file('signer.pem'), options.signerPem)
  await writeFile(file('signer.key'), options.signerKeyPem)
  const port = await freePort()
  const child: ChildProcess = spawn(
    'openssl',
    [
      'ocsp',
      '-index',
      file('index.txt'),
      '-port',
      String(port),
      '-rsigner',
      file('signer.pem'),
      '-rkey',
      file('signer.key'),
      '-CA',
      file('ca.pem'),
      '-nmin',
      String(options.validityMinutes ?? 5),
      '-ignore_err',
      ...(options.extraArguments ?? []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const pid = child.pid
  if (pid === undefined) throw new Error('openssl ocsp did not start')
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  // Ready once it says so. Not probed with a connection: the responder serves one connection
  // at a time and waits on one that sends nothing.
  await new Promise<void>((resolve, reject) => {
    let output = ''
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8')
      if (output.includes('waiting for OCSP client connections')) resolve()
    }
    child.stdout?.on('data', read)
    child.stderr?.on('data', read)
    child.once('exit', () => reject(new Error(`openssl ocsp exited: ${output}`)))
  })
  return {
    url: `http://127.0.0.1:${port}/`,
    pid,
    stop: async () => {
      if (child.exitCode === null) process.kill(pid)
      await exited
      await rm(directory, { recursive: true, force: true })
    },
  }
}
