import type { OptionSpec } from '../args.js'

/** `--udap`: the protocol switch every command shares. */
export const udapOption: OptionSpec = {
  name: 'udap',
  kind: 'boolean',
  description: 'use UDAP Security STU2 instead of SMART App Launch',
}

/** `--base-url`: the FHIR base URL discovery starts from. */
export const baseUrlOption: OptionSpec = {
  name: 'base-url',
  kind: 'string',
  valueName: 'url',
  description: 'FHIR base URL (discovery starts here)',
}

/** `--scope…`: repeatable; one value may also hold several space-separated scopes. */
export const scopeOption: OptionSpec = {
  name: 'scope',
  kind: 'string',
  repeatable: true,
  valueName: 'scope',
  description: 'a scope to request (repeatable, or several separated by spaces)',
}

/** `--client-id`. */
export const clientIdOption: OptionSpec = {
  name: 'client-id',
  kind: 'string',
  valueName: 'id',
  description: 'the registered client_id',
}

/** `--kid`: SMART's key id for signed client assertions. */
export const kidOption: OptionSpec = {
  name: 'kid',
  kind: 'string',
  valueName: 'kid',
  description: 'key id of the registered public key',
  protocol: 'smart',
}

/** The UDAP trust inputs: anchors, CRLs and community. */
export const udapTrustOptions: readonly OptionSpec[] = [
  {
    name: 'trust-anchor',
    kind: 'string',
    repeatable: true,
    valueName: 'file',
    description: 'trusted root certificate, PEM (several blocks allowed) or DER (repeatable)',
    protocol: 'udap',
  },
  {
    name: 'crl',
    kind: 'string',
    repeatable: true,
    valueName: 'file',
    description: 'CRL of a CA in the server chain, PEM or DER (repeatable; revocation is required)',
    protocol: 'udap',
  },
  {
    name: 'community',
    kind: 'string',
    valueName: 'uri',
    description: 'trust community URI, sent as ?community=',
    protocol: 'udap',
  },
]

/** The UDAP signing identity: key and chain files, or a PKCS#12 file and where its password is. */
export const udapIdentityOptions: readonly OptionSpec[] = [
  {
    name: 'cert',
    kind: 'string',
    repeatable: true,
    valueName: 'file',
    description: 'client certificate chain, PEM or DER, leaf first (repeatable)',
    protocol: 'udap',
  },
  {
    name: 'pkcs12',
    kind: 'string',
    valueName: 'file',
    description: 'PKCS#12 (.p12/.pfx) with the client key and chain, instead of --key/--cert',
    protocol: 'udap',
  },
  {
    name: 'password-env',
    kind: 'string',
    valueName: 'VAR',
    description: 'environment variable holding the PKCS#12 password',
    protocol: 'udap',
  },
  {
    name: 'password-file',
    kind: 'string',
    valueName: 'file',
    description: 'file holding the PKCS#12 password (one trailing newline is ignored)',
    protocol: 'udap',
  },
]

/** The UDAP signing identity in a usage line: key and chain, or PKCS#12 with its password. */
export const udapIdentityUsage =
  '(--key <file> --cert <file>… | --pkcs12 <file> (--password-env <VAR> | --password-file <file>))'

/** The note every command with secrets shows in `--help`. */
export const secretsNote =
  'Secrets: passwords and client secrets are read from environment variables or files, never from the command line. stderr (progress, warnings, errors, --verbose detail) never shows a secret or token.'

/** `--key`: the private key file (SMART assertions, UDAP signing). */
export const keyOption: OptionSpec = {
  name: 'key',
  kind: 'string',
  valueName: 'file',
  description: 'private key, PEM (PKCS#8, PKCS#1, SEC1) or DER PKCS#8, unencrypted',
}
