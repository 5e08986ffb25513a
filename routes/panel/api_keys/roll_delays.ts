const HOUR = 3_600_000;

/** How long a rolled key may keep working, as the roll form offers it. */
export const ROLL_DELAYS: [string, number, string][] = [
  ["now", 0, "Immediately"],
  ["1h", HOUR, "In 1 hour"],
  ["24h", 24 * HOUR, "In 24 hours"],
  ["3d", 72 * HOUR, "In 3 days"],
  ["7d", 168 * HOUR, "In 7 days"],
];
