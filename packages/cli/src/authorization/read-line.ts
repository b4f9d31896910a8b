/**
 * Reads the first non-blank line of an input (the redirect URL a user pastes), trimmed. Stops
 * reading as soon as it has one, which for `process.stdin` also releases the terminal.
 *
 * @returns `undefined` when the input ends without a non-blank line.
 */
export async function readFirstLine(
  input: AsyncIterable<string | Uint8Array>,
): Promise<string | undefined> {
  const decoder = new TextDecoder()
  let buffered = ''
  for await (const chunk of input) {
    buffered += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })
    let newline = buffered.indexOf('\n')
    while (newline !== -1) {
      const line = buffered.slice(0, newline).trim()
      if (line !== '') return line
      buffered = buffered.slice(newline + 1)
      newline = buffered.indexOf('\n')
    }
  }
  const rest = (buffered + decoder.decode()).trim()
  return rest === '' ? undefined : rest
}
