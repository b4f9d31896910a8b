/** The text of `pnpm demo --help`. */
export const helpText = `fhir-auth demo: the SMART App Launch 2.2.0 and UDAP Security STU2 flows of @fhir-auth/client,
run against two local servers on 127.0.0.1 and shown as a transcript (requests, responses,
decoded JWTs). Tokens, codes, verifiers, assertions, secrets and keys are never printed.

Usage
  pnpm demo [options]
  pnpm demo --base-url <fhir-base-url> [--trust-anchor <file>]... [--crl <file>]...

Options
  --base-url <url>       Talk to a real FHIR server instead of the local sandboxes. Only what
                         needs no user and no credentials runs: SMART discovery, and UDAP
                         discovery when trust inputs are given.
  --trust-anchor <file>  A PEM file with the UDAP trust anchor(s) you trust (repeatable).
  --crl <file>           A CRL (PEM or DER) for each CA in the server's chain (repeatable);
                         UDAP discovery fails closed without current CRLs.
  --timeout <seconds>    Give up after this long (default 60).
  --no-color             No colours (also NO_COLOR=1; colours are off when not a terminal).
  -h, --help             Show this text.

Exit status: 0 when every flow passed, 1 when one failed (one line on stderr says which and
why), 2 for a command line the demo cannot run with.
`
