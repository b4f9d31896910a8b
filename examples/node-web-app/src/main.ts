/**
 * Starts the web app for one or two EHRs (EHR2_* is optional):
 *
 *   FHIR_BASE_URL=https://ehr.example.org/fhir CLIENT_ID=my-app CLIENT_SECRET=… \
 *   EHR2_BASE_URL=… EHR2_CLIENT_ID=… EHR2_CLIENT_SECRET=… \
 *   REDIRECT_URI=http://localhost:3000/callback PORT=3000 npx -y pnpm@10 start
 */
import { createServer } from 'node:http'
import { createWebApp, type Ehr } from './app.js'

const env = (name: string) => process.env[name] ?? ''
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
const app = createWebApp({
  ehrs,
  redirectUri: env('REDIRECT_URI'),
  allowInsecureLocalhost: env('ALLOW_INSECURE_LOCALHOST') === 'true',
})
const port = Number(process.env.PORT ?? 3000)
createServer(app).listen(port, () => console.log(`listening on http://localhost:${port}`))
