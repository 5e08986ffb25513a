import {
  Card,
  DateTime,
  EmptyState,
  Id,
  Money,
  StatusBadge,
} from "../../../components/panel/ui.tsx";
import type { SessionStatus } from "../../../lib/checkout/status.ts";
import type { ListedCheckoutSession } from "../../../lib/panel/checkout_settings.ts";
import { CHECKOUT_SETTINGS_HREF as BASE } from "./href.ts";

const FILTERS: (SessionStatus | undefined)[] = [undefined, "OPEN", "COMPLETED", "EXPIRED"];

function StatusFilter(props: { filter: SessionStatus | undefined }) {
  return (
    <nav class="segmented" aria-label="Status">
      {FILTERS.map((value) => (
        <a
          href={value ? `${BASE}?status=${value}#sessions` : `${BASE}#sessions`}
          class={`segmented__item ${props.filter === value ? "segmented__item--on" : ""}`}
          aria-current={props.filter === value ? "true" : undefined}
        >
          {value ? value.charAt(0) + value.slice(1).toLowerCase() : "All"}
        </a>
      ))}
    </nav>
  );
}

function SessionRow(props: { item: ListedCheckoutSession }) {
  const { session, preview } = props.item;
  return (
    <tr>
      <td>
        <Id>{session.public_id}</Id>
        <span class="muted small block">{session.offer_name}</span>
      </td>
      <td class="num">
        <Money amount={session.amount} currency={session.currency} />
      </td>
      <td>
        <StatusBadge status={session.status} />
      </td>
      <td>
        {preview
          ? <span class="tag">panel preview</span>
          : <code class="mono">{session.embed_origin}</code>}
      </td>
      <td>
        {session.payment_public_id
          ? (
            <a href={`/panel/payments/${session.payment_public_id}`}>
              <StatusBadge status={session.payment_status ?? "PENDING"} />
            </a>
          )
          : <span class="muted">—</span>}
      </td>
      <td>
        <DateTime at={session.expires_at} />
      </td>
    </tr>
  );
}

/** The organisation's recent checkout sessions, filtered by status, with a link to older ones. */
export function SessionsCard(props: {
  filter: SessionStatus | undefined;
  sessions: ListedCheckoutSession[];
  hasMore: boolean;
}) {
  const { filter, sessions } = props;
  return (
    <Card title="Recent sessions" id="sessions" actions={<StatusFilter filter={filter} />}>
      {sessions.length === 0
        ? (
          <EmptyState title="No sessions">
            <p>
              Your server creates them with <code>POST /api/v1/checkout-sessions/{"{qrId}"}</code>.
            </p>
          </EmptyState>
        )
        : (
          <div class="table-wrap">
            <table class="table">
              <caption class="visually-hidden">Checkout sessions</caption>
              <thead>
                <tr>
                  <th scope="col">Session</th>
                  <th scope="col" class="num">Amount</th>
                  <th scope="col">Status</th>
                  <th scope="col">Embedded on</th>
                  <th scope="col">Payment</th>
                  <th scope="col">Expires</th>
                </tr>
              </thead>
              <tbody>
                {sessions.map((item) => <SessionRow key={item.session.public_id} item={item} />)}
              </tbody>
            </table>
          </div>
        )}
      {props.hasMore && (
        <p class="pager">
          <a
            href={`${BASE}?${new URLSearchParams({
              ...(filter && { status: filter }),
              startingAfter: sessions.at(-1)!.session.public_id,
            })}#sessions`}
          >
            Older sessions →
          </a>
        </p>
      )}
    </Card>
  );
}
