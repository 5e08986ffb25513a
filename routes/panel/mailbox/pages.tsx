import { rich, useT } from "../../../components/panel/i18n.ts";
import {
  Card,
  DateTime,
  EmptyState,
  Fact,
  Facts,
  Id,
  Notice,
  PageHeader,
  TableWrap,
} from "../../../components/panel/ui.tsx";
import type { MailboxRow } from "../../../db/customer_emails.ts";
import { EMAIL_KINDS } from "../../../lib/emails/facts.ts";
import type { Translator } from "../../../lib/i18n/mod.ts";
import type { MailboxPage } from "../../../lib/panel/mailbox.ts";
import { MAILBOX_HREF } from "./href.ts";

/** An e-mail's kind as the page's language names it (an unknown one as it is). */
function kindLabel(tr: Translator, kind: string): string {
  const known = EMAIL_KINDS.find((candidate) => candidate === kind);
  return known ? tr.t(`panel.mailbox.kind.${known}`) : kind;
}

/** The sandbox mailbox: every e-mail the sandbox kept instead of sending, newest first. */
export function MailboxListPage(props: MailboxPage & { smtp: boolean }) {
  const tr = useT();
  const next = props.nextAfter === null
    ? null
    : `${MAILBOX_HREF}?${new URLSearchParams({ startingAfter: props.nextAfter })}`;
  return (
    <>
      <PageHeader
        title={tr.t("panel.mailbox.title")}
        description={rich(tr, "panel.mailbox.description", {
          api: <code>GET /api/v1/sandbox/emails</code>,
        })}
      />
      {props.smtp && (
        <Notice tone="info">
          {tr.t("panel.mailbox.smtp")}
        </Notice>
      )}
      <Card>
        {props.emails.length === 0
          ? (
            <EmptyState title={tr.t("panel.mailbox.empty")}>
              <p>{tr.t("panel.mailbox.emptyText", { code: "777123" })}</p>
            </EmptyState>
          )
          : (
            <TableWrap label={tr.t("panel.mailbox.title")}>
              <table class="table">
                <caption class="visually-hidden">{tr.t("panel.mailbox.title")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{tr.t("panel.mailbox.subject")}</th>
                    <th scope="col">{tr.t("panel.mailbox.to")}</th>
                    <th scope="col">{tr.t("panel.mailbox.language")}</th>
                    <th scope="col">{tr.t("panel.mailbox.received")}</th>
                  </tr>
                </thead>
                <tbody>
                  {props.emails.map((email) => (
                    <tr>
                      <td>
                        <a href={`${MAILBOX_HREF}/${email.public_id}`}>{email.subject}</a>
                        <br />
                        <span class="muted small">{kindLabel(tr, email.kind)}</span>
                      </td>
                      <td>{email.recipient}</td>
                      <td>{email.language}</td>
                      <td>
                        <DateTime at={email.sent_at ?? email.created_at} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )}
        {next && (
          <p class="pager">
            <a href={next}>{tr.t("panel.mailbox.older")}</a>
          </p>
        )}
      </Card>
    </>
  );
}

/**
 * One message as the customer sees it: its headers, the HTML body in a sandboxed frame (no
 * script, no same-origin access, its own strict CSP) and the plain-text body.
 */
export function MailboxEmailPage(props: { email: MailboxRow; from: string }) {
  const { email } = props;
  const tr = useT();
  return (
    <>
      <PageHeader
        title={email.subject ?? ""}
        back={{ href: MAILBOX_HREF, label: tr.t("panel.mailbox.title") }}
        description={<Id>{email.public_id}</Id>}
      />
      <Card title={tr.t("panel.mailbox.headers")} id="headers">
        <Facts>
          <Fact label={tr.t("panel.mailbox.from")}>{props.from}</Fact>
          <Fact label={tr.t("panel.mailbox.to")}>{email.recipient}</Fact>
          <Fact label={tr.t("panel.mailbox.subject")}>{email.subject}</Fact>
          <Fact label={tr.t("panel.mailbox.messageId")}>
            <code>{email.message_id}</code>
          </Fact>
          <Fact label={tr.t("panel.mailbox.language")}>{email.language}</Fact>
          <Fact label={tr.t("panel.mailbox.payment")}>
            <a href={`/panel/payments/${email.payment_public_id}`}>{email.payment_public_id}</a>
          </Fact>
          <Fact label={tr.t("panel.mailbox.received")}>
            <DateTime at={email.sent_at ?? email.created_at} />
          </Fact>
        </Facts>
      </Card>
      <Card title={tr.t("panel.mailbox.asSeen")} id="html">
        <iframe
          class="mail-frame"
          src={`${MAILBOX_HREF}/${email.public_id}/html`}
          sandbox=""
          title={tr.t("panel.mailbox.frameTitle", { subject: email.subject ?? "" })}
          width="100%"
          height="720"
        />
      </Card>
      <Card title={tr.t("panel.mailbox.plainText")} id="text">
        <pre class="mail-text">{email.text_body}</pre>
      </Card>
    </>
  );
}
