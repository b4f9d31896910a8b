import { defaultTimeoutMs, StoreError } from '@fhir-auth/core/essentials'
import { timeLimited } from '@fhir-auth/core/internal'
import { describeKind } from '@fhir-auth/core/internal/checks'

/**
 * A read of the directory's store (which client a launch or a session is for), bounded by the
 * default request time limit; a failure is a `StoreError` naming no key or value.
 *
 * @internal
 */
export function directoryStoreRead<T>(what: string, read: () => Promise<T>): Promise<T> {
  const failed = (why: string) =>
    new StoreError('get', `the directory's store failed to read ${what} (${why})`)
  return timeLimited(read, defaultTimeoutMs, () =>
    failed(`no answer within ${defaultTimeoutMs} ms`),
  ).catch((error: unknown) => {
    if (error instanceof StoreError) throw error
    throw failed(error instanceof Error ? error.name : describeKind(error))
  })
}
