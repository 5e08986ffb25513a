import { useT } from "../../../components/panel/i18n.ts";
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
import type { SubscriptionRecord } from "../../../lib/subscriptions/mod.ts";

/** The subscription a payment started, and for those who may, ending it. */
export function SubscriptionCard(
  props: { subscription: SubscriptionRecord | null; canCancel: boolean; csrf: string },
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
        <Fact label={t("panel.subscription.next")}>
          {canceled || subscription.cancel_at_period_end === 1
            ? <span class="muted">{t("panel.subscription.none")}</span>
            : <DateTime at={subscription.next_charge_at} />}
        </Fact>
        {subscription.cancel_at_period_end === 1 && !canceled && (
          <Fact label={t("panel.subscription.ends")}>{t("panel.subscription.endsText")}</Fact>
        )}
        {canceled && (
          <Fact label={t("panel.subscription.canceled")}>
            <DateTime at={subscription.canceled_at} /> ({subscription.cancellation_reason})
          </Fact>
        )}
      </Facts>
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
