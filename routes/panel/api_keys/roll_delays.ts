const HOUR = 3_600_000;

/** How long a rolled key may keep working, as the roll form offers it (its words: panel.keys.delay.*). */
export const ROLL_DELAYS = [
  ["now", 0],
  ["1h", HOUR],
  ["24h", 24 * HOUR],
  ["3d", 72 * HOUR],
  ["7d", 168 * HOUR],
] as const;
