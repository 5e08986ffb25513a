import type { Store } from "../../db/client.ts";
import { type PlannedWrite, writePlanned } from "../../db/planned_write.ts";
import type { EnvironmentSchema } from "../../db/schema.ts";
import type { TestApp } from "./helpers.ts";

/** One request a test receiver got. */
export interface ReceivedWebhook {
  path: string;
  headers: Headers;
  body: string;
}

/** A real HTTP receiver on 127.0.0.1 (ephemeral port) that records every request. */
export interface TestReceiver {
  /** `http://127.0.0.1:<port>/hook`. */
  url: string;
  received: ReceivedWebhook[];
  /** How the receiver answers; replace it to change behaviour mid-test. */
  answer: (request: ReceivedWebhook) => Response | Promise<Response>;
  close(): Promise<void>;
}

/** Starts a receiver that answers 200 "ok" until told otherwise. */
export function startReceiver(
  answer: TestReceiver["answer"] = () => new Response("ok"),
): TestReceiver {
  const receiver: TestReceiver = {
    url: "",
    received: [],
    answer,
    close: () => server.shutdown(),
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const request = {
      path: new URL(req.url).pathname,
      headers: req.headers,
      body: await req.text(),
    };
    receiver.received.push(request);
    return await receiver.answer(request);
  });
  receiver.url = `http://127.0.0.1:${server.addr.port}/hook`;
  return receiver;
}

/** Registers an endpoint through the API and returns its body (with the secret). */
export async function createTestEndpoint(
  t: TestApp,
  fields: Record<string, unknown>,
): Promise<Record<string, unknown> & { id: string; secret: string }> {
  const response = await t.request("POST", "/api/v1/webhook-endpoints", fields);
  if (response.status !== 201) {
    throw new Error(`endpoint: ${response.status} ${await response.text()}`);
  }
  return await response.json();
}

/** The organisation's events of a type, newest first, through the API. */
export async function eventsOfType(t: TestApp, type: string): Promise<{ id: string }[]> {
  const response = await t.request("GET", `/api/v1/events?type=${type}&limit=100`);
  return (await response.json()).data;
}

/** An event's deliveries through the API. */
export async function deliveriesOf(
  t: TestApp,
  eventId: string,
): Promise<Record<string, unknown>[]> {
  const response = await t.request("GET", `/api/v1/events/${eventId}/deliveries`);
  if (response.status !== 200) {
    throw new Error(`deliveries: ${response.status} ${await response.text()}`);
  }
  return (await response.json()).data;
}

/** Moves the test clock forward and runs the scheduled jobs now due, then waits for the queue. */
export async function advanceAndRun(t: TestApp, ms: number): Promise<void> {
  t.clock.advance(ms);
  await t.services.scheduler.runDue();
  await t.webhooks.idle();
}

/** Writes a planned write of the delivery queue (one of a round's parts) and reads its result. */
export async function writtenPlan<T>(
  store: Pick<Store<EnvironmentSchema>, "writeStatements">,
  plan: Promise<PlannedWrite<T>>,
): Promise<T> {
  const [result] = await writePlanned<[T]>(store, await plan);
  return result;
}
