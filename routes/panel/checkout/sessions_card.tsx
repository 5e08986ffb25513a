import { rich, useT } from "../../../components/panel/i18n.ts";
import {
  Card,
  DateTime,
  EmptyState,
  Id,
  Money,
  StatusBadge,
  TableWrap,
} from "../../../components/panel/ui.tsx";
import type { SessionStatus } from "../../../lib/checkout/status.ts";
import type { ListedCheckoutSession } from "../../../lib/panel/checkout_settings.ts";
import { CHECKOUT_SETTINGS_HREF as BASE } from "./href.ts";

const FILTERS: (SessionStatus | undefined)[] = [undefined, "OPEN", "COMPLETED", "EXPIRED"];

function StatusFilter(props: { filter: SessionStatus | undefined }) {
  const { t } = useT();
  return (
    <nav class="segmented" aria-label={t("panel.checkout.filter")}>
      {FILTERS.map((value) => (
        <a
          href={value ? `${BASE}?status=${value}#sessions` : `${BASE}#sessions`}
          class={`segmented__item ${props.filter === value ? "segmented__item--on" : ""}`}
          aria-current={props.filter === value ? "true" : undefined}
        >
          {t(value ? `panel.checkout.filter.${value}` : "panel.checkout.filter.all")}
        </a>
      ))}
    </nav>
  );
}

function SessionRow(props: { item: ListedCheckoutSession }) {
  const { session, preview } = props.item;
  const { t } = useT();
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
          ? <span class="tag">{t("panel.checkout.panelPreview")}</span>
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
  const tr = useT();
  const { t } = tr;
  return (
    <Card
      title={t("panel.checkout.recent")}
      id="sessions"
      actions={<StatusFilter filter={filter} />}
    >
      {sessions.length === 0
        ? (
          <EmptyState title={t("panel.checkout.none")}>
            <p>
              {rich(tr, "panel.checkout.noneText", {
                call: <code>POST /api/v1/checkout-sessions/{"{qrId}"}</code>,
              })}
            </p>
          </EmptyState>
        )
        : (
          <TableWrap label={t("panel.checkout.title")}>
            <table class="table">
              <caption class="visually-hidden">{t("panel.checkout.title")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("panel.checkout.col.session")}</th>
                  <th scope="col" class="num">{t("panel.checkout.col.amount")}</th>
                  <th scope="col">{t("panel.checkout.col.status")}</th>
                  <th scope="col">{t("panel.checkout.col.embeddedOn")}</th>
                  <th scope="col">{t("panel.checkout.col.payment")}</th>
                  <th scope="col">{t("panel.checkout.col.expires")}</th>
                </tr>
              </thead>
              <tbody>
                {sessions.map((item) => <SessionRow key={item.session.public_id} item={item} />)}
              </tbody>
            </table>
          </TableWrap>
        )}
      {props.hasMore && (
        <p class="pager">
          <a
            href={`${BASE}?${new URLSearchParams({
              ...(filter && { status: filter }),
              startingAfter: sessions.at(-1)!.session.public_id,
            })}#sessions`}
          >
            {t("panel.checkout.older")}
          </a>
        </p>
      )}
    </Card>
  );
}
