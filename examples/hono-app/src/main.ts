/**
 * The app as a module that Deno (`deno serve src/main.ts`), Bun (`bun run src/main.ts`) and
 * Cloudflare Workers serve as it is: its default export has `fetch`. Settings come from the
 * environment: FHIR_BASE_URL, CLIENT_ID, CLIENT_SECRET (EHR 1), the optional EHR2_BASE_URL,
 * EHR2_CLIENT_ID, EHR2_CLIENT_SECRET (EHR 2), and REDIRECT_URI.
 */
import { createApp, type Ehr } from './app.js'

const env = (name: string): string => globalThis.process?.env[name] ?? ''
const ehrs: Ehr[] = [
  { baseUrl: env('FHIR_BASE_URL'), clientId: env('CLIENT_ID'), clientSecret: env('CLIENT_SECRET') },
]
if (env('EHR2_BASE_URL')) {
  ehrs.push({
    baseUrl: env('EHR2_BASE_URL'),
    clientId: env('EHR2_CLIENT_ID'),
    clientSecret: env('EHR2_CLIENT_SECRET'),
  })
}

export default createApp({ ehrs, redirectUri: env('REDIRECT_URI') })
