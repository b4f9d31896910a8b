/** `import { Client }` and nothing else: what any app pays before it does anything. */
export { Client } from '@fhir-auth/client'
