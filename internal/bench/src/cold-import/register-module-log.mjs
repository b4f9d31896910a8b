// `node --import ./register-module-log.mjs …`: installs module-log-hooks.mjs, writing to the
// file named by FHIR_AUTH_BENCH_MODULE_LOG.
import { register } from 'node:module'

register('./module-log-hooks.mjs', import.meta.url, {
  data: { logFile: process.env.FHIR_AUTH_BENCH_MODULE_LOG },
})
