import assert from "node:assert/strict";
import type { TestApp } from "./helpers.ts";

/** The origin the checkout tests embed from. */
export const SHOP_ORIGIN = "https://shop.example";

/** Puts `origins` on the test organisation's embedding allowlist. */
export async function allowOrigins(t: TestApp, origins: string[] = [SHOP_ORIGIN]): Promise<void> {
  const response = await t.request("PUT", "/api/v1/checkout-settings", { allowedOrigins: origins });
  assert.equal(response.status, 200, await response.clone().text());
}

/** Creates a checkout session through the API and returns its body. */
export async function createTestSession(
  t: TestApp,
  qrId: string,
  fields: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { sessionId: string; embedUrl: string; status: string }> {
  const response = await t.request("POST", `/api/v1/checkout-sessions/${qrId}`, {
    embedLink: `${SHOP_ORIGIN}/checkout`,
    ...fields,
  });
  if (response.status !== 201) {
    throw new Error(`session: ${response.status} ${await response.text()}`);
  }
  return await response.json();
}

/** The organisation's events of the given types, oldest first. */
export async function eventsOf(
  t: TestApp,
  ...types: string[]
): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const response = await t.request("GET", "/api/v1/events?limit=100");
  const body = await response.json();
  return body.data.filter((event: { type: string }) => types.includes(event.type)).reverse();
}

/** The path of a URL. */
export function pathOf(url: string): string {
  return new URL(url).pathname;
}
