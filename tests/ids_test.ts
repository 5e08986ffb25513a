import assert from "node:assert/strict";
import { newId } from "../lib/ids.ts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** The milliseconds an ordered id's first 8 characters after its prefix carry. */
function idTime(id: string): number {
  const digits = id.slice(id.indexOf("_") + 1, id.indexOf("_") + 9);
  return [...digits].reduce((ms, digit) => ms * 62 + BASE62.indexOf(digit), 0);
}

Deno.test("[ids] a payment's id is its creation time then 22 random characters, and later ids sort after", async () => {
  const before = Date.now();
  const first = newId("payment");
  await new Promise((resolve) => setTimeout(resolve, 5));
  const second = newId("payment");
  const after = Date.now();
  assert.match(first, /^pay_[0-9A-Za-z]{30}$/);
  assert.ok(idTime(first) >= before && idTime(second) <= after, `${first} ${second}`);
  assert.ok(idTime(second) >= idTime(first) + 5);
  // SQLite compares text byte by byte, as JavaScript's < does for ASCII.
  assert.ok(first < second);
});

Deno.test("[ids] ids made together differ in their random part", () => {
  const ids = Array.from({ length: 1000 }, () => newId("event"));
  assert.equal(new Set(ids).size, 1000);
  assert.equal(new Set(ids.map((id) => id.slice(12))).size, 1000);
  for (const id of ids) assert.match(id, /^evt_[0-9A-Za-z]{30}$/);
});

Deno.test("[ids] an id of a kind made rarely (an offer) stays 24 random characters", () => {
  const ids = Array.from({ length: 100 }, () => newId("offer"));
  for (const id of ids) assert.match(id, /^qr_[0-9A-Za-z]{24}$/);
  // No shared time prefix: the first characters vary.
  assert.ok(new Set(ids.map((id) => id.slice(3, 5))).size > 50);
});
