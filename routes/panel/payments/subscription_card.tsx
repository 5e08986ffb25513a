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
  return (
    <Card title="Subscription" id="subscription">
      <Facts>
        <Fact label="Subscription">
          <Id>{subscription.public_id}</Id>
        </Fact>
        <Fact label="Status">
          <StatusBadge status={subscription.status} />
        </Fact>
        <Fact label="Amount">
          <Money amount={subscription.amount} currency={subscription.currency} /> every{" "}
          {subscription.recurring_interval_count === 1
            ? subscription.recurring_interval.toLowerCase()
            : `${subscription.recurring_interval_count} ${subscription.recurring_interval.toLowerCase()}s`}
        </Fact>
        <Fact label="Current period">
          <DateTime at={subscription.current_period_start} /> –{" "}
          <DateTime at={subscription.current_period_end} />
        </Fact>
        <Fact label="Next charge">
          {canceled || subscription.cancel_at_period_end === 1
            ? <span class="muted">none</span>
            : <DateTime at={subscription.next_charge_at} />}
        </Fact>
        {subscription.cancel_at_period_end === 1 && !canceled && (
          <Fact label="Ends">at the end of the current period</Fact>
        )}
        {canceled && (
          <Fact label="Canceled">
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
              label="Cancel at period end"
              confirmLabel="Cancel at period end"
              tone="default"
              fields={{ atPeriodEnd: "true" }}
            >
              The customer keeps what they paid for until{" "}
              <DateTime at={subscription.current_period_end} />; nothing more is charged.
            </ConfirmAction>
          )}
          <ConfirmAction
            action={action}
            csrf={props.csrf}
            label="Cancel now"
            confirmLabel="Cancel the subscription now"
            fields={{ atPeriodEnd: "false" }}
          >
            The subscription ends at once and nothing more is charged. This does not refund the
            current period; refund the payment for that.
          </ConfirmAction>
        </div>
      )}
    </Card>
  );
}
