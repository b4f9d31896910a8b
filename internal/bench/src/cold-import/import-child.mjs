// Child process of the cold-import figure: a fresh `node` that imports one module and prints
// how long the import took, measured inside the process with performance.now(), so process
// start-up and the parent's spawn cost are not counted.
const specifier = process.argv[2]
if (specifier === undefined) throw new Error('usage: node import-child.mjs <module specifier>')
const startedAt = performance.now()
await import(specifier)
const importMs = performance.now() - startedAt
process.stdout.write(JSON.stringify({ importMs, readyMs: performance.now() }))
