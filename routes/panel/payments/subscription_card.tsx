import { rich, useT } from "../../../components/panel/i18n.ts";
import {
  Card,
  ConfirmAction,
  DateTime,
  Fact,
  Facts,
  Id,
  Money,
  StatusBadge,
} from "../../../components/panel/ui.tsx";
import type { CustomerEmailRow } from "../../../db/schema.ts";
import type { MessageKey } from "../../../lib/i18n/mod.ts";
import type { RenewalLinkView } from "../../../lib/panel/payments.ts";
import type { SubscriptionRecord } from "../../../lib/subscriptions/mod.ts";
import { emailErrorText, emailKindText, emailStatusText } from "./emails_card.tsx";

function RenewalEmail(props: { email: CustomerEmailRow }) {
  const { email } = props;
  const tr = useT();
  return (
    <li>
      {rich(tr, "panel.emails.renewal.email", { at: <DateTime at={email.created_at} /> }, {
        kind: emailKindText(tr, email.kind),
        recipient: email.recipient,
        status: emailStatusText(tr, email.status),
      })}
      {email.last_error && (
        <>
          {" "}
          <span class="muted small">({emailErrorText(tr, email.last_error)})</span>
        </>
      )}
    </li>
  );
}

/**
 * Renewals by pay link: each renewal payment, the link the customer was sent, and every e-mail
 * about it (a renewal that is not paid is easiest to chase from here).
 */
function RenewalLinks(props: { renewals: RenewalLinkView[] }) {
  const { t } = useT();
  if (props.renewals.length === 0) return null;
  return (
    <div class="stack" id="renewal-links">
      <h3>{t("panel.emails.renewal.heading")}</h3>
      {props.renewals.map((renewal) => (
        <div
          key={renewal.paymentId}
          class="renewal-link"
          id={`renewal-${renewal.paymentId}`}
        >
          <Facts>
            <Fact label={t("panel.emails.renewal.payment")}>
              <a href={`/panel/payments/${renewal.paymentId}`}>
                <Id>{renewal.paymentId}</Id>
              </a>{" "}
              <StatusBadge status={renewal.status} />
            </Fact>
            <Fact label={t("panel.emails.renewal.link")}>
              <a href={renewal.url}>{renewal.url}</a>
            </Fact>
            <Fact label={t("panel.emails.renewal.payableUntil")}>
              <DateTime at={renewal.expiresAt} />
            </Fact>
            <Fact label={t("panel.emails.renewal.emails")}>
              {renewal.emails.length === 0
                ? <span class="muted">{t("panel.emails.renewal.noEmails")}</span>
                : (
                  <ul class="plain-list">
                    {renewal.emails.map((email) => (
                      <RenewalEmail key={email.public_id} email={email} />
                    ))}
                  </ul>
                )}
            </Fact>
          </Facts>
        </div>
      ))}
    </div>
  );
}

/** Why a subscription was canceled, in the page's language (an unknown reason as stored). */
const CANCELLATION_REASONS: Record<string, MessageKey> = {
  requested: "panel.emails.cancellation.requested",
  renewal_failed: "panel.emails.cancellation.renewal_failed",
};

/** The subscription a payment started, and for those who may, ending it. */
export function SubscriptionCard(
  props: {
    subscription: SubscriptionRecord | null;
    renewals: RenewalLinkView[];
    renewsByLink: boolean;
    canCancel: boolean;
    csrf: string;
  },
) {
  const { subscription } = props;
  if (!subscription) return null;
  const canceled = subscription.status === "CANCELED";
  const action = `/panel/subscriptions/${subscription.public_id}/cancel`;
  const { t } = useT();
  const interval = subscription.recurring_interval as "DAY" | "WEEK" | "MONTH" | "YEAR";
  return (
    <Card title={t("panel.subscription.title")} id="subscription">
      <Facts>
        <Fact label={t("panel.subscription.title")}>
          <Id>{subscription.public_id}</Id>
        </Fact>
        <Fact label={t("panel.subscription.status")}>
          <StatusBadge status={subscription.status} />
        </Fact>
        <Fact label={t("panel.subscription.amount")}>
          <Money amount={subscription.amount} currency={subscription.currency} />{" "}
          {t(`panel.subscription.every.${interval}`, {
            count: subscription.recurring_interval_count,
          })}
        </Fact>
        <Fact label={t("panel.subscription.period")}>
          <DateTime at={subscription.current_period_start} /> –{" "}
          <DateTime at={subscription.current_period_end} />
        </Fact>
        <Fact
          label={t(
            props.renewsByLink ? "panel.subscription.nextLinkStep" : "panel.subscription.next",
          )}
        >
          {canceled || subscription.cancel_at_period_end === 1
            ? <span class="muted">{t("panel.subscription.none")}</span>
            : <DateTime at={subscription.next_charge_at} />}
        </Fact>
        {subscription.cancel_at_period_end === 1 && !canceled && (
          <Fact label={t("panel.subscription.ends")}>{t("panel.subscription.endsText")}</Fact>
        )}
        {canceled && (
          <Fact label={t("panel.subscription.canceled")}>
            <DateTime at={subscription.canceled_at} />
            {subscription.cancellation_reason !== null && (
              <>
                {" "}({CANCELLATION_REASONS[subscription.cancellation_reason]
                  ? t(CANCELLATION_REASONS[subscription.cancellation_reason])
                  : subscription.cancellation_reason})
              </>
            )}
          </Fact>
        )}
      </Facts>
      <RenewalLinks renewals={props.renewals} />
      {!canceled && props.canCancel && (
        <div class="actions">
          {subscription.status === "ACTIVE" && subscription.cancel_at_period_end === 0 && (
            <ConfirmAction
              action={action}
              csrf={props.csrf}
              label={t("panel.subscription.cancelAtEnd")}
              confirmLabel={t("panel.subscription.cancelAtEnd")}
              tone="default"
              fields={{ atPeriodEnd: "true" }}
            >
              {t("panel.subscription.keeps")} <DateTime at={subscription.current_period_end} />
              {t("panel.subscription.keepsEnd")}
            </ConfirmAction>
          )}
          <ConfirmAction
            action={action}
            csrf={props.csrf}
            label={t("panel.subscription.cancelNow")}
            confirmLabel={t("panel.subscription.cancelNowConfirm")}
            fields={{ atPeriodEnd: "false" }}
          >
            {t("panel.subscription.cancelNowText")}
          </ConfirmAction>
        </div>
      )}
    </Card>
  );
}
