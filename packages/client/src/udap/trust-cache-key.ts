import {
  base64Encode,
  type CertificateInput,
  type CrlInput,
  type KeyValueStore,
} from '@fhir-auth/core/essentials'
import type { UdapRevocationOptions } from '@fhir-auth/udap'

const objectIds = new WeakMap<object, number>()
let nextObjectId = 0

function part(input: CertificateInput | CrlInput | KeyValueStore): string {
  if (typeof input === 'string') return `s:${input}`
  if (input instanceof Uint8Array) return `b:${base64Encode(input)}`
  // Native certificate objects (X509Certificate, pkijs Certificate): identity is enough.
  let id = objectIds.get(input)
  if (id === undefined) {
    id = nextObjectId++
    objectIds.set(input, id)
  }
  return `o:${id}`
}

/**
 * The key under which validated UDAP metadata is cached: the community and the exact trust
 * inputs, revocation options included. Metadata validated against one set of anchors and CRLs
 * must never be served to a caller who trusts another set, nor metadata validated with CRLs
 * fetched to one who asked for none to be.
 */
export function trustCacheKey(
  community: string | undefined,
  trustedAnchors: readonly CertificateInput[],
  crls: readonly CrlInput[],
  revocation?: UdapRevocationOptions | undefined,
): string {
  const online = [
    revocation?.fetch !== false,
    revocation?.cache === undefined ? null : part(revocation.cache),
  ]
  return JSON.stringify([community ?? null, trustedAnchors.map(part), crls.map(part), online])
}
