/**
 * Number formatting shared by every section, so units read the same everywhere: sizes in
 * decimal kilobytes (1 KB = 1000 bytes, as the fhirclient anchor's 26.8 KB), times in
 * milliseconds with precision that fits their size, ratios with two decimals.
 */

/** `12345` → `12.3 KB`. */
export function formatKilobytes(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} KB`
}

/** `301_000_000` → `301.0 MB`. */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`
}

/** Milliseconds with three significant-ish decimals for small values: `0.042 ms`, `3.21 ms`, `120 ms`. */
export function formatMilliseconds(milliseconds: number): string {
  if (milliseconds < 1) return `${milliseconds.toFixed(3)} ms`
  if (milliseconds < 100) return `${milliseconds.toFixed(2)} ms`
  return `${milliseconds.toFixed(0)} ms`
}

/** `1.0349` → `1.03×`. */
export function formatRatio(ratio: number): string {
  return `${ratio.toFixed(2)}×`
}

/** A number rounded to `digits` decimals, for JSON output (no float noise like 0.30000000000000004). */
export function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits
  return Math.round(value * factor) / factor
}
