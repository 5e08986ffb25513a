import assert from "node:assert/strict";
import { toIso } from "../lib/clock.ts";

Deno.test("[clock] toIso formats exactly as Date.toISOString, across leap days and years", () => {
  const samples = [
    0,
    1,
    86_399_999,
    86_400_000,
    951_782_400_000, // 2000-02-29
    951_868_799_999,
    1_709_164_800_000, // 2024-02-29
    1_795_255_220_000,
    4_107_542_399_999, // 2100-02-28, not a leap year
    4_107_542_400_000,
    253_402_300_799_999, // the last millisecond of 9999
    253_402_300_800_000, // year 10000: six digits, through Date
    -1, // before 1970, through Date
    1.5,
  ];
  for (let day = 0; day < 366 * 8; day++) samples.push(1_704_067_200_000 + day * 86_400_000 + day);
  for (const ms of samples) assert.equal(toIso(ms), new Date(ms).toISOString(), `at ${ms}`);
  assert.equal(toIso(1_795_255_220_000), "2026-11-21T10:00:20.000Z");
  assert.equal(toIso(951_782_400_007), "2000-02-29T00:00:00.007Z");
});
