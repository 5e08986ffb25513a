import type { Kysely } from "kysely";
import type { Store } from "../../../db/client.ts";
import { type PlannedWrite, returnedIds } from "../../../db/planned_write.ts";
import type { EnvironmentSchema } from "../../../db/schema.ts";
import {
  applyDeliveryUpdatesStatements,
  type DeliveryUpdate,
  insertWebhookAttemptsStatements,
} from "../../../db/webhook_deliveries.ts";
import { findEndpointHealth, setFailingSinceStatement } from "../../../db/webhook_endpoints.ts";
import { toIso } from "../../clock.ts";
import { disableEndpointAutomatically } from "../endpoints.ts";
import type { ClaimedAttempt } from "./claim.ts";
import { nextAttemptAt } from "./retry.ts";
import type { AttemptOutcome } from "./sender.ts";

/** An endpoint whose every attempt failed for this long is disabled. */
const FAILING_DISABLE_AFTER_MS = 5 * 24 * 3_600_000;

/** A finished attempt, waiting to be recorded. */
export interface AttemptReport {
  claim: ClaimedAttempt;
  startedAt: number;
  outcome: AttemptOutcome;
}

/** An endpoint a batch of results disables: a 410, or five days of failures. */
interface EndpointToDisable {
  id: number;
  orgId: number;
  /** Its public id. */
  endpointId: string;
  reason: "GONE" | "FAILING";
  message: string;
}

/** What recording a batch of attempts changed. */
interface RecordedAttempts {
  /** The earliest retry scheduled, if any. */
  nextRetryAt: number | null;
  /** Endpoints the results disable, with `disableEndpoints` once they are recorded. */
  disabled: EndpointToDisable[];
  /** Results that arrived after their lease was taken over or their delivery canceled. */
  stale: number;
}

function decide(
  report: AttemptReport,
  input: { now: number; schedule: readonly number[]; random: () => number },
): DeliveryUpdate {
  const { claim, outcome } = report;
  const base = { id: claim.deliveryId, attempt: claim.attempt };
  if (outcome.kind === "succeeded") return { ...base, status: "SUCCEEDED", nextAttemptAt: null };
  if (outcome.kind === "gone") return { ...base, status: "FAILED", nextAttemptAt: null };
  const next = nextAttemptAt({
    schedule: claim.trigger === "TEST" ? [0] : input.schedule,
    attempts: claim.attempt,
    now: input.now,
    retryAfterMs: outcome.retryAfterMs,
    random: input.random,
  });
  return next === null
    ? { ...base, status: "FAILED", nextAttemptAt: null }
    : { ...base, status: "PENDING", nextAttemptAt: next };
}

/**
 * Plans recording finished attempts: one attempt row each, the delivery's next state (fenced on
 * its lease), and each endpoint's run of failures (set only if unchanged since read here). A
 * 410 disables the endpoint at once; so does a run of failures that has lasted five days: the
 * result names them, and `disableEndpoints` does it after the write.
 */
export async function planRecording(
  db: Kysely<EnvironmentSchema>,
  reports: readonly AttemptReport[],
  input: { now: number; schedule: readonly number[]; random: () => number },
): Promise<PlannedWrite<RecordedAttempts> & { disabling: ReadonlySet<number> }> {
  const { now } = input;
  const updates = reports.map((report) => decide(report, input));
  const applying = applyDeliveryUpdatesStatements(updates, now);
  const statements = [
    ...applying,
    ...insertWebhookAttemptsStatements(
      reports.map(({ claim, startedAt, outcome }) => ({
        delivery_id: claim.deliveryId,
        number: claim.attempt,
        url: claim.url,
        started_at: startedAt,
        duration_ms: outcome.durationMs,
        succeeded: outcome.kind === "succeeded" ? 1 : 0,
        response_status: outcome.responseStatus,
        response_body: outcome.responseBody,
        error_code: outcome.errorCode,
        error_message: outcome.errorMessage,
      })),
      "replace",
    ),
  ];

  const byEndpoint = Map.groupBy(reports, (report) => report.claim.endpointId);
  const disabled: EndpointToDisable[] = [];
  for (const endpoint of await findEndpointHealth(db, [...byEndpoint.keys()])) {
    if (endpoint.deleted_at !== null || endpoint.enabled === 0) continue;
    const results = byEndpoint.get(endpoint.id)!;
    const toDisable = { id: endpoint.id, orgId: endpoint.org_id, endpointId: endpoint.public_id };
    const gone = results.find((report) => report.outcome.kind === "gone");
    if (gone) {
      const message = `${endpoint.url} answered 410 Gone to ${gone.claim.eventId}, so ` +
        "Paystead stopped sending to it and canceled its pending deliveries.";
      disabled.push({ ...toDisable, reason: "GONE", message });
      continue;
    }
    let failingSince = endpoint.failing_since;
    for (const report of results) {
      failingSince = report.outcome.kind === "succeeded" ? null : failingSince ?? report.startedAt;
    }
    if (failingSince !== null && now - failingSince >= FAILING_DISABLE_AFTER_MS) {
      const message = `Every attempt to ${endpoint.url} failed since ${toIso(failingSince)}, ` +
        "so after 5 days Paystead disabled it and canceled its pending deliveries.";
      disabled.push({ ...toDisable, reason: "FAILING", message });
    } else if (failingSince !== endpoint.failing_since) {
      statements.push(setFailingSinceStatement(endpoint.id, endpoint.failing_since, failingSince));
    }
  }
  return {
    statements,
    disabling: new Set(disabled.map((endpoint) => endpoint.id)),
    result: (results) => {
      const applied = returnedIds(results.slice(0, applying.length));
      const retries = updates.filter((update) => applied.has(update.id) && update.nextAttemptAt);
      return {
        nextRetryAt: retries.length === 0
          ? null
          : Math.min(...retries.map((update) => update.nextAttemptAt!)),
        disabled,
        stale: reports.length - applied.size,
      };
    },
  };
}

/** Disables endpoints a batch of results named (see planRecording), if still enabled. */
export async function disableEndpoints(
  store: Pick<Store<EnvironmentSchema>, "write">,
  endpoints: readonly EndpointToDisable[],
  now: number,
): Promise<void> {
  if (endpoints.length === 0) return;
  await store.write(async (trx) => {
    const enabled = new Set(
      (await findEndpointHealth(trx, endpoints.map((endpoint) => endpoint.id)))
        .filter((endpoint) => endpoint.deleted_at === null && endpoint.enabled === 1)
        .map((endpoint) => endpoint.id),
    );
    for (const endpoint of endpoints) {
      if (!enabled.has(endpoint.id)) continue;
      await disableEndpointAutomatically(
        trx,
        { id: endpoint.id, org_id: endpoint.orgId },
        endpoint.reason,
        endpoint.message,
        now,
      );
    }
  });
}
