import { Card, ConfirmAction, DateTime, Id, StatusBadge } from "../../../components/panel/ui.tsx";
import type { CustomerEmailRow } from "../../../db/schema.ts";

/** What each kind of customer e-mail is called in the panel. */
export const KIND_LABELS: Record<string, string> = {
  PAYMENT_CONFIRMATION: "Payment confirmation",
  REFUND_NOTICE: "Refund notice",
  RENEWAL_NOTICE: "Renewal notice",
  RENEWAL_REMINDER: "Renewal reminder",
};

/** What each outbox status is called in the panel. */
export const STATUS_LABELS: Record<string, string> = {
  PENDING: "Sending",
  SENT: "Sent",
  FAILED: "Failed",
  SKIPPED: "Not sent",
};

function deliveredTo(email: CustomerEmailRow): string {
  if (email.status !== "SENT") return "";
  return email.transport === "MAILBOX" ? " to the sandbox mailbox" : " through SMTP";
}

/**
 * What the customer was sent about this payment: each e-mail's status, attempts and last error,
 * and (for owners and admins) a way to send one again.
 */
export function EmailsCard(props: {
  paymentId: string;
  emails: CustomerEmailRow[];
  canResend: boolean;
  csrf: string;
}) {
  const { emails } = props;
  return (
    <Card title="Customer e-mails" id="emails">
      {emails.length === 0
        ? (
          <p class="muted">
            None. A confirmation is sent when a payment with the customer's e-mail address succeeds,
            and a notice when a refund does.
          </p>
        )
        : (
          <div class="table-wrap">
            <table class="table table--compact">
              <caption class="visually-hidden">E-mails sent to the customer</caption>
              <thead>
                <tr>
                  <th scope="col">E-mail</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">Attempts</th>
                  <th scope="col">Last error</th>
                  {props.canResend && <th scope="col">Action</th>}
                </tr>
              </thead>
              <tbody>
                {emails.map((email) => (
                  <tr>
                    <td>
                      {KIND_LABELS[email.kind] ?? email.kind} to {email.recipient}
                      {email.resend_of !== null && <span class="muted small">(resent)</span>}
                      <br />
                      <Id>{email.message_id}</Id>
                      <br />
                      <DateTime at={email.sent_at ?? email.created_at} />
                    </td>
                    <td>
                      <StatusBadge
                        status={email.status === "SENT" ? "SUCCEEDED" : email.status}
                        label={STATUS_LABELS[email.status] ?? email.status}
                      />
                      <span class="muted small">{deliveredTo(email)}</span>
                    </td>
                    <td class="num">{email.attempt_count}</td>
                    <td>
                      {email.last_error ?? <span class="muted">—</span>}
                    </td>
                    {props.canResend && (
                      <td>
                        {email.status !== "PENDING" && (
                          <ConfirmAction
                            action={`/panel/payments/${props.paymentId}/emails/${email.public_id}/resend`}
                            csrf={props.csrf}
                            label="Resend"
                            confirmLabel="Send it again"
                            tone="default"
                          >
                            Send this e-mail to {email.recipient} again, as a new message?
                          </ConfirmAction>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
    </Card>
  );
}
