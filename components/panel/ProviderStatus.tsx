import { toIso } from "../../lib/clock.ts";
import type { ProviderStatus } from "../../lib/providers/status.ts";
import { Card } from "./ui.tsx";

function when(at: number | null): string {
  return at === null ? "not since this process started" : toIso(at);
}

/** The payment provider this environment runs with, and when it last answered and notified. */
export function ProviderStatusCard(props: { status: ProviderStatus }) {
  const { status } = props;
  return (
    <Card title="Payment provider">
      <dl class="provider-status">
        <dt>Provider</dt>
        <dd>{status.description}</dd>
        {status.notifyUrl && (
          <>
            <dt>Notification URL</dt>
            <dd>
              <code>{status.notifyUrl}</code>
            </dd>
          </>
        )}
        <dt>Last successful call</dt>
        <dd>{when(status.lastSuccessAt)}</dd>
        <dt>Last notification</dt>
        <dd>{when(status.lastNotificationAt)}</dd>
      </dl>
    </Card>
  );
}
