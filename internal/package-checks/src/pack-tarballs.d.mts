/** Types of pack-tarballs.mjs (packing for scripts/pack-all.mjs and scripts/check-packages.mjs). */
import type { PackedManifest } from './packaging-rules.mjs'

/** The published packages (directories under packages/), dependencies before dependents. */
export declare const publishedPackageDirectories: readonly string[]

/** The file name `pnpm pack` gives a package's tarball: `fhir-auth-client-0.4.0.tgz`. */
export declare function tarballName(manifest: {
  readonly name: string
  readonly version: string
}): string

/** One packed package: its tarball and what is wrong with it (empty when it installs). */
export interface PackedTarball {
  readonly name: string
  readonly tarball: string
  readonly listing?: readonly string[]
  readonly manifest?: PackedManifest
  readonly problems: readonly string[]
}

/** Packs `packages/<name>` of the checkout at `root` into `destination` with `pnpm pack`. */
export declare function packTarball(root: string, name: string, destination: string): PackedTarball
