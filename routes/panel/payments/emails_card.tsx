import { useT } from "../../../components/panel/i18n.ts";
import {
  Card,
  ConfirmAction,
  DateTime,
  Id,
  StatusBadge,
  TableWrap,
} from "../../../components/panel/ui.tsx";
import type { CustomerEmailRow } from "../../../db/schema.ts";
import type { MessageKey, Translator } from "../../../lib/i18n/mod.ts";
import { translateError } from "../../../lib/panel/error_text.ts";

/** The catalogue key of what each kind of customer e-mail is called in the panel. */
export const KIND_LABELS: Record<string, MessageKey> = {
  PAYMENT_CONFIRMATION: "panel.emails.kind.PAYMENT_CONFIRMATION",
  REFUND_NOTICE: "panel.emails.kind.REFUND_NOTICE",
  RENEWAL_NOTICE: "panel.emails.kind.RENEWAL_NOTICE",
  RENEWAL_REMINDER: "panel.emails.kind.RENEWAL_REMINDER",
};

/** The catalogue key of what each outbox status is called in the panel. */
export const STATUS_LABELS: Record<string, MessageKey> = {
  PENDING: "panel.emails.status.PENDING",
  SENT: "panel.emails.status.SENT",
  FAILED: "panel.emails.status.FAILED",
  SKIPPED: "panel.emails.status.SKIPPED",
};

/** What a kind of customer e-mail is called in the page's language (an unknown kind as it is). */
export function emailKindText(tr: Translator, kind: string): string {
  const key = KIND_LABELS[kind];
  return key ? tr.t(key) : kind;
}

/** What an outbox status is called in the page's language (an unknown status as it is). */
export function emailStatusText(tr: Translator, status: string): string {
  const key = STATUS_LABELS[status];
  return key ? tr.t(key) : status;
}

/**
 * Why an e-mail was not sent, in the page's language where the reason is a known one (no SMTP,
 * a lost attempt, the attempts used up, the server's answer); anything else as recorded.
 */
export function emailErrorText(tr: Translator, lastError: string): string {
  return translateError(tr, lastError);
}

function deliveredTo(tr: Translator, email: CustomerEmailRow): string {
  if (email.status !== "SENT") return "";
  return " " +
    tr.t(email.transport === "MAILBOX" ? "panel.emails.viaMailbox" : "panel.emails.viaSmtp");
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
  const tr = useT();
  const { t } = tr;
  return (
    <Card title={t("panel.emails.title")} id="emails">
      {emails.length === 0
        ? <p class="muted">{t("panel.emails.none")}</p>
        : (
          <TableWrap label={t("panel.emails.caption")}>
            <table class="table table--compact">
              <caption class="visually-hidden">{t("panel.emails.caption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("panel.emails.col.email")}</th>
                  <th scope="col">{t("panel.emails.col.status")}</th>
                  <th scope="col" class="num">{t("panel.emails.col.attempts")}</th>
                  <th scope="col">{t("panel.emails.col.lastError")}</th>
                  {props.canResend && <th scope="col">{t("panel.emails.col.action")}</th>}
                </tr>
              </thead>
              <tbody>
                {emails.map((email) => (
                  <tr>
                    <td>
                      {t("panel.emails.to", {
                        kind: emailKindText(tr, email.kind),
                        recipient: email.recipient,
                      })}
                      {email.resend_of !== null && (
                        <>
                          {" "}
                          <span class="muted small">{t("panel.emails.resent")}</span>
                        </>
                      )}
                      <br />
                      <Id>{email.message_id}</Id>
                      <br />
                      <DateTime at={email.sent_at ?? email.created_at} />
                    </td>
                    <td>
                      <StatusBadge
                        status={email.status === "SENT" ? "SUCCEEDED" : email.status}
                        label={emailStatusText(tr, email.status)}
                      />
                      <span class="muted small">{deliveredTo(tr, email)}</span>
                    </td>
                    <td class="num">{email.attempt_count}</td>
                    <td>
                      {email.last_error === null
                        ? <span class="muted">—</span>
                        : emailErrorText(tr, email.last_error)}
                    </td>
                    {props.canResend && (
                      <td>
                        {email.status !== "PENDING" && (
                          <ConfirmAction
                            action={`/panel/payments/${props.paymentId}/emails/${email.public_id}/resend`}
                            csrf={props.csrf}
                            label={t("panel.emails.resend")}
                            confirmLabel={t("panel.emails.resendConfirm")}
                            tone="default"
                          >
                            {t("panel.emails.resendText", { recipient: email.recipient })}
                          </ConfirmAction>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
    </Card>
  );
}
