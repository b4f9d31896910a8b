import { generateTestKeyPair, type TestKeyPair } from '@fhir-auth/test-pki/issuer'

let shared: Promise<TestKeyPair> | undefined

/**
 * One RSA 2048 server key for the sandboxes a test file starts: each start would otherwise
 * generate its own (tens to hundreds of milliseconds of CPU), which slows every other test
 * file running beside it. Certificates and PKIs stay separate per sandbox.
 */
export function sharedServerKeyPair(): Promise<TestKeyPair> {
  shared ??= generateTestKeyPair('rsa2048')
  return shared
}
