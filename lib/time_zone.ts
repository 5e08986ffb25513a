/**
 * The time zone an organisation's records are read in: where its days start and end (export
 * ranges, a provider statement's days) and the wall-clock times a spreadsheet shows. Organisations
 * have no setting for it yet; Paystead's merchants are Polish, and so are their providers' statements.
 */
export const ORGANISATION_TIME_ZONE = "Europe/Warsaw";

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formats.set(timeZone, format);
  }
  return format;
}

const QUARTER_HOUR = 15 * 60 * 1000;
/** The offset of each zone in the quarter hour last asked about: an export asks row after row. */
const lastOffsets = new Map<string, { quarter: number; offset: number }>();

function offsetAt(at: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatOf(timeZone).formatToParts(at)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  const wall = Date.UTC(
    parts.year,
    parts.month - 1,
    parts.day,
    parts.hour,
    parts.minute,
    parts.second,
  );
  return wall - (at - ((at % 1000) + 1000) % 1000);
}

/**
 * The wall-clock time of instant `at` in `timeZone`, as milliseconds whose UTC reading is that
 * wall clock: what a spreadsheet, which knows no time zones, must be given to show local time.
 */
export function wallClockMs(at: number, timeZone: string): number {
  // Zones change their offset on a quarter hour at the finest, so one holds for the quarter.
  const quarter = Math.floor(at / QUARTER_HOUR);
  const last = lastOffsets.get(timeZone);
  if (last?.quarter === quarter) return at + last.offset;
  const offset = offsetAt(at, timeZone);
  lastOffsets.set(timeZone, { quarter, offset });
  return at + offset;
}

/** The instant day `YYYY-MM-DD` starts at in `timeZone` (its local midnight). */
export function startOfDay(day: string, timeZone: string): number {
  const [year, month, date] = day.split("-").map(Number);
  const midnight = Date.UTC(year, month - 1, date);
  // The offset at the guess, then at the corrected guess: right across a DST change too.
  let at = midnight - (wallClockMs(midnight, timeZone) - midnight);
  at = midnight - (wallClockMs(at, timeZone) - at);
  return at;
}

/** The day `YYYY-MM-DD` after `day`. */
export function nextDay(day: string): string {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/** The day `YYYY-MM-DD` that instant `at` falls on in `timeZone`. */
export function dayOf(at: number, timeZone: string): string {
  return new Date(wallClockMs(at, timeZone)).toISOString().slice(0, 10);
}
