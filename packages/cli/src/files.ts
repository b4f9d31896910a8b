import { readFile } from 'node:fs/promises'
import { type CertificateInput, ConfigurationError, type CrlInput } from '@fhir-auth/core'
import { encodePem } from '@fhir-auth/core/backend'

/** The PEM labels the CLI reads. */
type PemLabel = 'CERTIFICATE' | 'X509 CRL'

const privateKeyBlockPattern = /-----BEGIN ([A-Z0-9 ]*PRIVATE KEY)-----[\s\S]*?-----END \1-----/

/**
 * Reads a file named by a flag.
 *
 * @throws ConfigurationError on the flag, naming the file and why it cannot be read (never
 *   its contents).
 */
export async function readFileBytes(path: string, flag: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path))
  } catch (error) {
    throw new ConfigurationError({
      invalidAttribute: flag,
      message: `cannot read ${flag} file ${JSON.stringify(path)}: ${fileProblem(error)}`,
    })
  }
}

/**
 * Reads certificates from a PEM file (every `CERTIFICATE` block, in file order, so one file can
 * hold a whole chain leaf first) or a DER file (one certificate).
 *
 * @throws ConfigurationError on the flag for an unreadable or empty file, or PEM text without
 *   a certificate. Whether the bytes really are a certificate is checked by the library.
 */
export async function readCertificateFile(path: string, flag: string): Promise<CertificateInput[]> {
  return readPemOrDer(path, flag, 'CERTIFICATE')
}

/**
 * Reads CRLs from a PEM file (every `X509 CRL` block) or a DER file (one CRL).
 *
 * @throws ConfigurationError as {@link readCertificateFile}.
 */
export async function readCrlFile(path: string, flag: string): Promise<CrlInput[]> {
  return readPemOrDer(path, flag, 'X509 CRL')
}

/**
 * Reads an unencrypted private key: the first PEM private key block of the file (PKCS#8,
 * PKCS#1 RSA or SEC1 EC; a file that also holds certificates is fine), or DER PKCS#8, which
 * is returned as PEM.
 *
 * @throws ConfigurationError on the flag for an unreadable file, an encrypted key (use a
 *   PKCS#12 file instead) or PEM text without a private key. The key never appears in a message.
 */
export async function readPrivateKeyFile(path: string, flag: string): Promise<string> {
  const bytes = await readFileBytes(path, flag)
  const text = new TextDecoder().decode(bytes)
  if (!text.includes('-----BEGIN ')) {
    if (bytes.length === 0) throw emptyFile(path, flag)
    return encodePem(bytes, 'PRIVATE KEY')
  }
  const block = privateKeyBlockPattern.exec(text)
  if (block === null) {
    throw new ConfigurationError({
      invalidAttribute: flag,
      message: `${flag} file ${JSON.stringify(path)} has no PEM private key block`,
    })
  }
  if (block[1] === 'ENCRYPTED PRIVATE KEY') {
    throw new ConfigurationError({
      invalidAttribute: flag,
      message: `${flag} file ${JSON.stringify(path)} holds an encrypted private key: decrypt it, or use --pkcs12 with a password`,
    })
  }
  return block[0]
}

/**
 * Reads a JSON object given inline (the value starts with `{`) or as a file path.
 *
 * @throws ConfigurationError on the flag for an unreadable file, invalid JSON, or JSON that
 *   is not an object.
 */
export async function readJsonObject(
  valueOrPath: string,
  flag: string,
): Promise<Record<string, unknown>> {
  const isInline = valueOrPath.trimStart().startsWith('{')
  const text = isInline
    ? valueOrPath
    : new TextDecoder().decode(await readFileBytes(valueOrPath, flag))
  const source = isInline ? flag : `${flag} file ${JSON.stringify(valueOrPath)}`
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new ConfigurationError({
      invalidAttribute: flag,
      message: `${source} is not valid JSON (${error instanceof Error ? error.message : 'parse error'})`,
    })
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigurationError({
      invalidAttribute: flag,
      message: `${source} must be a JSON object`,
    })
  }
  return parsed as Record<string, unknown>
}

/**
 * Reads a one-value text file (a password): the contents without one trailing line break,
 * which editors and `echo` add.
 *
 * @throws ConfigurationError on the flag for an unreadable file.
 */
export async function readSecretFile(path: string, flag: string): Promise<string> {
  const text = new TextDecoder().decode(await readFileBytes(path, flag))
  return text.replace(/\r?\n$/, '')
}

async function readPemOrDer(
  path: string,
  flag: string,
  label: PemLabel,
): Promise<(string | Uint8Array)[]> {
  const bytes = await readFileBytes(path, flag)
  if (bytes.length === 0) throw emptyFile(path, flag)
  const text = new TextDecoder().decode(bytes)
  if (!text.includes('-----BEGIN ')) return [bytes]
  const blocks = text.match(
    new RegExp(`-----BEGIN ${label}-----[\\s\\S]*?-----END ${label}-----`, 'g'),
  )
  if (blocks === null) {
    throw new ConfigurationError({
      invalidAttribute: flag,
      message: `${flag} file ${JSON.stringify(path)} has no PEM ${label} block`,
    })
  }
  return blocks
}

function emptyFile(path: string, flag: string): ConfigurationError {
  return new ConfigurationError({
    invalidAttribute: flag,
    message: `${flag} file ${JSON.stringify(path)} is empty`,
  })
}

function fileProblem(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  switch (code) {
    case 'ENOENT':
      return 'no such file'
    case 'EACCES':
    case 'EPERM':
      return 'permission denied'
    case 'EISDIR':
      return 'it is a directory'
    default:
      return typeof code === 'string' ? code : 'read failed'
  }
}
