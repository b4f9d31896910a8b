import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A fresh directory under the OS temp directory, for files a test hands to the CLI. */
export async function temporaryDirectory() {
  const path = await mkdtemp(join(tmpdir(), 'fhir-auth-cli-'))
  return {
    path,
    /** Writes a file and returns its absolute path. */
    async write(name: string, content: string | Uint8Array): Promise<string> {
      const file = join(path, name)
      await writeFile(file, content)
      return file
    },
    remove: () => rm(path, { recursive: true, force: true }),
  }
}

/** The type of {@link temporaryDirectory}'s result. */
export type TemporaryDirectory = Awaited<ReturnType<typeof temporaryDirectory>>
