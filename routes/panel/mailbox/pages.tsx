import {
  Card,
  DateTime,
  EmptyState,
  Fact,
  Facts,
  Id,
  Notice,
  PageHeader,
} from "../../../components/panel/ui.tsx";
import type { MailboxRow } from "../../../db/customer_emails.ts";
import type { MailboxPage } from "../../../lib/panel/mailbox.ts";
import { MAILBOX_HREF } from "./href.ts";

const KIND_LABELS: Record<string, string> = {
  PAYMENT_CONFIRMATION: "Payment confirmation",
  RENEWAL_NOTICE: "Renewal notice",
  RENEWAL_REMINDER: "Renewal reminder",
  REFUND_NOTICE: "Refund notice",
};

/** The sandbox mailbox: every e-mail the sandbox kept instead of sending, newest first. */
export function MailboxListPage(props: MailboxPage & { smtp: boolean }) {
  const next = props.nextAfter === null
    ? null
    : `${MAILBOX_HREF}?${new URLSearchParams({ startingAfter: props.nextAfter })}`;
  return (
    <>
      <PageHeader
        title="Sandbox mailbox"
        description="Without SMTP_URL the sandbox sends no e-mail: what customers would receive lands here, newest first. GET /api/v1/sandbox/emails lists the same."
      />
      {props.smtp && (
        <Notice tone="info">
          This sandbox has SMTP_URL set: new e-mails go to that server, not here.
        </Notice>
      )}
      <Card>
        {props.emails.length === 0
          ? (
            <EmptyState title="No e-mails yet">
              <p>
                Pay a sandbox payment that has a customer e-mail address (test code 777123): its
                confirmation appears here, and a refund's notice after it.
              </p>
            </EmptyState>
          )
          : (
            <div class="table-wrap">
              <table class="table">
                <caption class="visually-hidden">Sandbox mailbox</caption>
                <thead>
                  <tr>
                    <th scope="col">Subject</th>
                    <th scope="col">To</th>
                    <th scope="col">Language</th>
                    <th scope="col">Received</th>
                  </tr>
                </thead>
                <tbody>
                  {props.emails.map((email) => (
                    <tr>
                      <td>
                        <a href={`${MAILBOX_HREF}/${email.public_id}`}>{email.subject}</a>
                        <br />
                        <span class="muted small">{KIND_LABELS[email.kind] ?? email.kind}</span>
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
            </div>
          )}
        {next && (
          <p class="pager">
            <a href={next}>Older e-mails →</a>
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
  return (
    <>
      <PageHeader
        title={email.subject ?? ""}
        back={{ href: MAILBOX_HREF, label: "Sandbox mailbox" }}
        description={<Id>{email.public_id}</Id>}
      />
      <Card title="Headers" id="headers">
        <Facts>
          <Fact label="From">{props.from}</Fact>
          <Fact label="To">{email.recipient}</Fact>
          <Fact label="Subject">{email.subject}</Fact>
          <Fact label="Message-ID">
            <code>{email.message_id}</code>
          </Fact>
          <Fact label="Language">{email.language}</Fact>
          <Fact label="Payment">
            <a href={`/panel/payments/${email.payment_public_id}`}>{email.payment_public_id}</a>
          </Fact>
          <Fact label="Received">
            <DateTime at={email.sent_at ?? email.created_at} />
          </Fact>
        </Facts>
      </Card>
      <Card title="As the customer sees it" id="html">
        <iframe
          class="mail-frame"
          src={`${MAILBOX_HREF}/${email.public_id}/html`}
          sandbox=""
          title={`The e-mail "${email.subject}"`}
          width="100%"
          height="720"
        />
      </Card>
      <Card title="Plain text" id="text">
        <pre class="mail-text">{email.text_body}</pre>
      </Card>
    </>
  );
}
