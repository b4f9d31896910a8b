import type { KeyValueStore } from '@fhir-auth/core/essentials'
import { launchKey, parseLaunch } from '../launch/launch-record.js'
import { directoryStoreRead } from './store-call.js'

/**
 * The FHIR base URL of the client that began the launch kept for `state`, read without taking
 * the launch (the client that completes it takes it); `undefined` when there is none, or it was
 * kept by a version that did not record it.
 *
 * @throws StoreError when the store fails or does not answer in time.
 * @internal
 */
export async function launchBaseUrl(
  store: KeyValueStore,
  state: string,
): Promise<string | undefined> {
  const key = await launchKey(state)
  const text: unknown = await directoryStoreRead('a launch', () => store.get(key))
  const record = typeof text === 'string' ? parseLaunch(text) : undefined
  return record?.state === state ? record.baseUrl : undefined
}
