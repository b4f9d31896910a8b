/**
 * `@fhir-auth/demo`: the README demo. `pnpm demo` runs `src/main.ts`; tests and tools can run
 * the same demo in-process with {@link runDemo}.
 *
 * @packageDocumentation
 */
export { type DemoIo, exitStatus, runDemo } from './run-demo.js'
export { secretsFileVariable } from './secret-ledger.js'
