/** Durations on the fakes' command lines: `1500`, `500ms`, `2s`, `1m`. */

/** Parses a duration into milliseconds; null if invalid. */
export function parseDuration(text: string): number | null {
  const match = /^(\d{1,9})(ms|s|m)?$/.exec(text.trim());
  if (!match) return null;
  const unit = match[2] === "s" ? 1_000 : match[2] === "m" ? 60_000 : 1;
  return Number(match[1]) * unit;
}
