import { generateKeyPair } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { ConfigurationError, type PublicJwks, publicJwks } from '@fhir-auth/core'
import { type ParsedFlags, usageError } from '../args.js'
import { readPrivateKeyFile } from '../files.js'
import { formatRows } from '../output/human-format.js'
import type { Command, CommandContext } from './command.js'

/** The algorithms SMART Backend Services clients SHALL support, and the keys `generate` makes. */
const keyAlgorithms = ['RS384', 'ES384'] as const
type KeyAlgorithm = (typeof keyAlgorithms)[number]

/** RSA 3072: above the 2048-bit floor servers enforce, for keys meant to live a year or more. */
const rsaModulusBits = 3072

/**
 * `fhir-auth keys generate --alg RS384|ES384 [--out FILE]` makes a private key (PKCS#8 PEM);
 * `fhir-auth keys jwks FILE…` prints the JWKS of the keys' public halves (`publicJwks`: kid =
 * RFC 7638 thumbprint, `alg`, `use: "sig"`), the document to serve at the client's `jwksUri`.
 *
 * @see https://hl7.org/fhir/smart-app-launch/STU2.2/client-confidential-asymmetric.html
 * @see https://www.rfc-editor.org/rfc/rfc7517#section-5
 */
export const keysCommand: Command = {
  name: 'keys',
  summary: 'generate a client key, or print the JWKS to publish for keys',
  synopsis: ['generate --alg RS384|ES384 [--out <file>]', 'jwks <file>…'],
  positionals: [
    { name: 'action', description: '`generate` or `jwks`', isRequired: true },
    {
      name: 'file',
      description: 'jwks: PEM (or DER PKCS#8) private key files, one key each',
      isRequired: false,
      isVariadic: true,
    },
  ],
  options: [
    {
      name: 'alg',
      kind: 'string',
      valueName: 'RS384|ES384',
      description: 'generate: the key type (RSA 3072 for RS384, P-384 for ES384)',
    },
    {
      name: 'out',
      kind: 'string',
      valueName: 'file',
      description:
        'generate: write the private key to this new file (mode 600) instead of stdout, and print its JWKS',
    },
  ],
  notes: [
    'Rotation: publish the next key beside the current one (`fhir-auth keys jwks current.pem next.pem`), wait until every server has fetched the new set, then sign with the next key; drop the old key from the set last.',
    'The kid of each key is its RFC 7638 thumbprint, so `keys generate --out` and `keys jwks` print the same kid for one key; pass it to `token --kid`.',
  ],
  async execute(flags: ParsedFlags, context: CommandContext): Promise<void> {
    const [action, ...files] = flags.positionals
    if (action === 'generate') {
      if (files.length > 0) throw usageError('--', '`keys generate` takes no file argument')
      await generate(flags, context)
      return
    }
    if (action === 'jwks') {
      for (const name of ['alg', 'out']) {
        if (flags.string(name) !== undefined)
          throw usageError(`--${name}`, `--${name} is for \`keys generate\``)
      }
      if (files.length === 0) throw usageError('--', '`keys jwks` needs at least one key file')
      const keys = await Promise.all(files.map((file) => readPrivateKeyFile(file, '<file>')))
      const jwks = publicJwks(keys)
      context.output.result(jwks, () => `${JSON.stringify(jwks, undefined, 2)}\n`)
      return
    }
    throw usageError(
      '--',
      action === undefined
        ? 'an action is required: `keys generate` or `keys jwks`'
        : 'unknown action: use `keys generate` or `keys jwks`',
    )
  },
}

async function generate(flags: ParsedFlags, context: CommandContext): Promise<void> {
  const algorithm = readAlgorithm(flags.string('alg'))
  const privateKeyPem = await generatePrivateKeyPem(algorithm)
  const jwks = publicJwks([privateKeyPem])
  const [published] = jwks.keys
  const out = flags.string('out')
  if (out === undefined) {
    context.output.result(
      { alg: algorithm, kid: published?.kid, privateKeyPem, jwks },
      () => privateKeyPem,
    )
    return
  }
  await writeNewFile(out, privateKeyPem)
  context.output.result({ alg: algorithm, kid: published?.kid, file: out, jwks }, () =>
    describeGenerated(out, algorithm, jwks),
  )
}

function readAlgorithm(value: string | undefined): KeyAlgorithm {
  if (value === undefined) throw usageError('--alg', '--alg is required: RS384 or ES384')
  const algorithm = keyAlgorithms.find((candidate) => candidate === value.toUpperCase())
  if (algorithm === undefined) throw usageError('--alg', '--alg must be RS384 or ES384')
  return algorithm
}

/** PKCS#8 PEM straight from the generator (never via a JWK: see Node 20's EC export). */
async function generatePrivateKeyPem(algorithm: KeyAlgorithm): Promise<string> {
  const encoding = {
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  } as const
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, _publicKey: string, privateKey: string) =>
      error === null ? resolve(privateKey) : reject(error)
    if (algorithm === 'RS384') {
      generateKeyPair('rsa', { modulusLength: rsaModulusBits, ...encoding }, done)
    } else {
      generateKeyPair('ec', { namedCurve: 'P-384', ...encoding }, done)
    }
  })
}

/** Creates the file readable by its owner only; an existing file is never overwritten. */
async function writeNewFile(path: string, content: string): Promise<void> {
  try {
    await writeFile(path, content, { flag: 'wx', mode: 0o600 })
  } catch (error) {
    const code = (error as { code?: unknown }).code
    throw new ConfigurationError({
      invalidAttribute: '--out',
      message:
        code === 'EEXIST'
          ? `--out file ${JSON.stringify(path)} exists; keys are never overwritten (choose a new name)`
          : `cannot write --out file ${JSON.stringify(path)} (${typeof code === 'string' ? code : 'write failed'})`,
    })
  }
}

function describeGenerated(path: string, algorithm: KeyAlgorithm, jwks: PublicJwks): string {
  return [
    `${algorithm} private key written to ${path} (readable by its owner only)\n`,
    formatRows([
      ['kid', jwks.keys[0]?.kid],
      ['alg', algorithm],
    ]),
    '\nPublish this JWKS at your jwksUri before signing with the key:\n',
    `${JSON.stringify(jwks, undefined, 2)}\n`,
  ].join('')
}
