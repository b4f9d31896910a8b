/** Types of packaging-rules.mjs (the rules of scripts/check-packages.mjs). */

/** The fields of a packed package.json the rules read. */
export interface PackedManifest {
  readonly exports?: Readonly<Record<string, Readonly<Record<string, string>> | string>>
  readonly engines?: { readonly node?: string }
  readonly dependencies?: Readonly<Record<string, string>>
}

/** One publint message (its `type` decides whether `--strict` fails). */
export interface PublintMessage {
  readonly type: 'suggestion' | 'warning' | 'error'
  readonly code?: string
}

/** One Are-The-Types-Wrong problem from `attw --format json`. */
export interface AttwProblem {
  readonly kind: string
  readonly entrypoint?: string
  readonly resolutionKind?: string
}

/** The part of an esbuild metafile the bundle rules read. */
export interface BundleMetafile {
  readonly outputs: Readonly<
    Record<
      string,
      {
        readonly bytes?: number
        readonly entryPoint?: string
        readonly inputs: Readonly<Record<string, unknown>>
        readonly imports?: readonly {
          readonly path: string
          readonly kind: string
          readonly external?: boolean
        }[]
      }
    >
  >
}

export declare const expectedNodeRange: string
export declare const acceptedAttwProblemKinds: readonly string[]
export declare const lazyOnlyLibraries: readonly string[]

export declare function tarballProblems(
  listing: readonly string[],
  manifest: PackedManifest,
): string[]
export declare function blockingPublintMessages<Message extends PublintMessage>(
  messages: readonly Message[],
): Message[]
export declare function blockingAttwProblems<Problem extends AttwProblem>(
  problems: readonly Problem[],
): Problem[]
export declare function staticallyLoadedOutputs(
  metafile: BundleMetafile,
  entryOutput: string,
): string[]
export declare function browserBundleProblems(
  metafile: BundleMetafile,
  readOutput: (path: string) => string,
): { problems: string[]; outputs: string[]; initial: string[] }
export declare function installedPackages(nodeModules: string): string[]
