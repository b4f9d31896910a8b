/**
 * Starts the web app:
 *
 *   FHIR_BASE_URL=https://ehr.example.org/fhir CLIENT_ID=my-app CLIENT_SECRET=… \
 *   REDIRECT_URI=http://localhost:3000/callback PORT=3000 npx -y pnpm@10 start
 *
 * Register `REDIRECT_URI` as the redirect URI and `http://localhost:3000/launch` as the launch
 * URL with the EHR; open http://localhost:3000/login for a standalone launch.
 */
import { createServer } from 'node:http'
import { readSettings, type WebAppSettings } from './settings.js'
import { createWebApp } from './web-app.js'

let settings: WebAppSettings
try {
  settings = readSettings(process.env)
} catch (error) {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error)
  process.exit(1)
}
const port = Number(process.env.PORT ?? 3000)
createServer(createWebApp(settings)).listen(port, () => {
  console.log(`listening on http://localhost:${port}`)
})
