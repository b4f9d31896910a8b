/**
 * A transcript written to memory, for tests of the renderers: the plain text it produced and
 * the ledger it scrubs with.
 */
import { SecretLedger } from './secret-ledger.js'
import { createTerminalStyle } from './terminal-style.js'
import { Transcript } from './transcript.js'

/** A plain-text transcript and everything it wrote. */
export interface CapturedTranscript {
  readonly transcript: Transcript
  readonly ledger: SecretLedger
  /** All text written so far. */
  text(): string
}

/** Creates a transcript without colours that writes into a string. */
export function captureTranscript(ledger = new SecretLedger()): CapturedTranscript {
  let written = ''
  const transcript = new Transcript(
    (text) => {
      written += text
    },
    createTerminalStyle(false),
    ledger,
  )
  return { transcript, ledger, text: () => written }
}
