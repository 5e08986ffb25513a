import type { Kysely } from "kysely";
import type { EnvironmentSchema } from "../../../db/schema.ts";
import {
  applyDeliveryUpdates,
  type DeliveryUpdate,
  insertWebhookAttempts,
} from "../../../db/webhook_deliveries.ts";
import { findEndpointHealth, updateWebhookEndpoint } from "../../../db/webhook_endpoints.ts";
import { toIso } from "../../clock.ts";
import { disableEndpointAutomatically } from "../endpoints.ts";
import type { ClaimedAttempt } from "./claim.ts";
import { nextAttemptAt } from "./retry.ts";
import type { AttemptOutcome } from "./sender.ts";

/** An endpoint whose every attempt failed for this long is disabled. */
export const FAILING_DISABLE_AFTER_MS = 5 * 24 * 3_600_000;

/** A finished attempt, waiting to be recorded. */
export interface AttemptReport {
  claim: ClaimedAttempt;
  startedAt: number;
  outcome: AttemptOutcome;
}

/** What recording a batch of attempts changed. */
export interface RecordedAttempts {
  /** The earliest retry scheduled, if any. */
  nextRetryAt: number | null;
  /** Endpoints disabled by this batch, by public id. */
  disabled: { endpointId: string; reason: "GONE" | "FAILING"; message: string }[];
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
 * Records finished attempts in the caller's write transaction: one attempt row each, the
 * delivery's next state (fenced on its lease), and each endpoint's health. A 410 disables the
 * endpoint at once; so does a run of failures that has lasted five days.
 */
export async function recordAttempts(
  trx: Kysely<EnvironmentSchema>,
  reports: readonly AttemptReport[],
  input: { now: number; schedule: readonly number[]; random: () => number },
): Promise<RecordedAttempts> {
  const { now } = input;
  await insertWebhookAttempts(
    trx,
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
  );
  const updates = reports.map((report) => decide(report, input));
  const applied = await applyDeliveryUpdates(trx, updates, now);
  const retries = updates.filter((update) => applied.has(update.id) && update.nextAttemptAt);
  const nextRetryAt = retries.length === 0
    ? null
    : Math.min(...retries.map((update) => update.nextAttemptAt!));

  const byEndpoint = Map.groupBy(
    reports.filter((report) => applied.has(report.claim.deliveryId)),
    (report) => report.claim.endpointId,
  );
  const disabled: RecordedAttempts["disabled"] = [];
  for (const endpoint of await findEndpointHealth(trx, [...byEndpoint.keys()])) {
    if (endpoint.deleted_at !== null || endpoint.enabled === 0) continue;
    const results = byEndpoint.get(endpoint.id)!;
    const gone = results.find((report) => report.outcome.kind === "gone");
    if (gone) {
      const message = `${endpoint.url} answered 410 Gone to ${gone.claim.eventId}, so ` +
        "Paystead stopped sending to it and canceled its pending deliveries.";
      await disableEndpointAutomatically(trx, endpoint, "GONE", message, now);
      disabled.push({ endpointId: endpoint.public_id, reason: "GONE", message });
      continue;
    }
    let failingSince = endpoint.failing_since;
    for (const report of results) {
      failingSince = report.outcome.kind === "succeeded" ? null : failingSince ?? report.startedAt;
    }
    if (failingSince !== null && now - failingSince >= FAILING_DISABLE_AFTER_MS) {
      const message = `Every attempt to ${endpoint.url} failed since ${toIso(failingSince)}, ` +
        "so after 5 days Paystead disabled it and canceled its pending deliveries.";
      await disableEndpointAutomatically(trx, endpoint, "FAILING", message, now);
      disabled.push({ endpointId: endpoint.public_id, reason: "FAILING", message });
    } else if (failingSince !== endpoint.failing_since) {
      await updateWebhookEndpoint(trx, endpoint.id, { failing_since: failingSince });
    }
  }
  return { nextRetryAt, disabled, stale: reports.length - applied.size };
}
