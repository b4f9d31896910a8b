import { runCommand } from './run-command.js'
import { repositoryRoot } from './workspace-paths.js'

/**
 * Builds `@fhir-auth/client` and every workspace package it depends on with turbo, which
 * replays unchanged packages from its cache (about a second when nothing changed). The import
 * and footprint sections measure the built `dist`, as users get it.
 *
 * @throws Error whose first line says the build failed and how to measure the existing `dist`
 *   anyway, followed by the end of turbo's output.
 */
export async function buildPublishedPackages(): Promise<void> {
  try {
    await runCommand(
      'pnpm',
      [
        'exec',
        'turbo',
        'run',
        'build',
        '--filter=@fhir-auth/client...',
        '--output-logs=errors-only',
      ],
      { cwd: repositoryRoot },
    )
  } catch (error) {
    const output = error instanceof Error ? error.message : String(error)
    throw new Error(
      `the build of @fhir-auth/client and its dependencies failed (--no-build measures the existing dist)\n${output}`,
    )
  }
}
