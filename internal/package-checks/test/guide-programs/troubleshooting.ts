// client.diagnose(): the checks `fhir-auth doctor` prints, run from a program, with a real token
// request. Against the sandbox: the values `npx -y pnpm@10 sandbox` prints for its backend client.
import { readFileSync } from 'node:fs'
import { Client } from '@fhir-auth/client'

const env = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`set ${name}`)
  return value
}

const client = new Client(
  {
    baseUrl: env('FHIR_BASE_URL'),
    clientId: env('CLIENT_ID'),
    privateKey: readFileSync(env('PRIVATE_KEY_FILE'), 'utf8'),
    kid: env('KID'),
    jwksUri: process.env.JWKS_URI || undefined, // the JWKS URL registered for the key, if any
    scopes: ['system/Patient.rs'],
    allowInsecureLocalhost: process.env.ALLOW_INSECURE_LOCALHOST === 'true', // sandbox only
  },
  { clientType: 'confidential_asymmetric' },
)

const report = await client.diagnose({ tryToken: true })
for (const check of report.checks) {
  console.log(`${check.id.padEnd(18)} ${check.status.padEnd(4)} ${check.message}`)
  if (check.hint !== undefined) console.log(`${''.padEnd(23)} hint: ${check.hint}`)
}
console.log(report.ok ? 'ok' : 'NOT OK')
if (!report.ok) process.exitCode = 1 // a check failed: fix what its hint says
