/**
 * A check of the demo's own that did not hold (a state that differs, a refusal that did not
 * happen). Library failures stay the library's typed errors; this is for everything else.
 */
export class DemoFailure extends Error {
  override readonly name = 'DemoFailure'
}
