import { HttpError } from '../errors/http-error.js'
import { networkCause } from '../http/transport-failure.js'
import { lazy } from './lazy.js'

/**
 * {@link lazy} for a part of the library loaded on demand (`() => import('./part.js')`), whose
 * failure to load is typed: an `HttpError` with reason `network`, and the platform's error as
 * `cause` (browsers name the chunk's URL in its message). In a browser this is what a page built
 * before a deployment meets when the chunk it asks for is gone: the app can tell it from a
 * server's refusal and reload. As with `lazy`, the next call tries the load again.
 *
 * The platform's error is kept whole: it carries a script URL or a file path, never request
 * data. `url` stays empty; finding the URL in a platform's message would cost every browser app
 * bytes for what `cause` already shows.
 *
 * @example
 * ```ts
 * const loadRegistration = lazyImport(() => import('./registration.js'))
 * const { registerClient } = await loadRegistration()
 * ```
 * @see https://html.spec.whatwg.org/multipage/webappapis.html#hostloadimportedmodule HTML: a module that fails to fetch rejects the `import()`
 */
export function lazyImport<Module>(load: () => Promise<Module>): () => Promise<Module> {
  return lazy(() =>
    load().catch((error: unknown) => {
      throw new HttpError(
        {
          reason: 'network',
          url: '',
          message: `fhir-auth could not load its code (${networkCause(error)})`,
        },
        { cause: error },
      )
    }),
  )
}
