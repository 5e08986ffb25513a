import type nodemailer from "nodemailer";
import type { MailAddress, SmtpConfig } from "../config.ts";
import type { Language } from "../i18n/mod.ts";

/** One e-mail as it leaves: addresses, the stable Message-ID and both bodies. */
export interface OutgoingEmail {
  from: MailAddress;
  to: string;
  /** The business's contact address, so a customer's reply reaches the seller. */
  replyTo: string | null;
  messageId: string;
  language: Language;
  subject: string;
  text: string;
  html: string;
}

/** Where e-mails go: an SMTP server, or the sandbox's mailbox (nothing leaves the machine). */
export interface Mailer {
  readonly transport: "SMTP" | "MAILBOX";
  /** Resolves once the server accepted the e-mail (its 250 to DATA); throws otherwise. */
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

/** The sandbox without SMTP: the outbox row, marked MAILBOX, is the delivered e-mail. */
export const mailboxMailer: Mailer = {
  transport: "MAILBOX",
  send: () => Promise.resolve(),
  close() {},
};

/** How long the server may take: to connect, to greet, and between any two of its answers. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

type Transport = ReturnType<typeof nodemailer.createTransport>;

/**
 * Sends through an SMTP server with nodemailer, over a small pool of reused connections.
 * nodemailer is imported at the first e-mail (a string literal, which `deno compile` embeds): a
 * process that sends none does not hold it (about 10 MiB resident).
 */
export function smtpMailer(config: SmtpConfig): Mailer {
  let transport: Promise<Transport> | null = null;
  const open = () =>
    transport ??= import("nodemailer").then(({ default: mailer }) =>
      mailer.createTransport({
        host: config.host,
        port: config.port,
        secure: config.secure,
        requireTLS: config.requireTLS,
        ...(config.auth && { auth: config.auth }),
        pool: true,
        maxConnections: 4,
        ...SMTP_TIMEOUTS,
      })
    ).catch((error) => {
      // A failed import fails this e-mail's attempt (retried as any other); the next tries again.
      transport = null;
      throw error;
    });
  return {
    transport: "SMTP",
    async send(email) {
      await (await open()).sendMail({
        from: email.from.name === null
          ? email.from.address
          : { name: email.from.name, address: email.from.address },
        to: email.to,
        ...(email.replyTo !== null && { replyTo: email.replyTo }),
        messageId: email.messageId,
        subject: email.subject,
        text: email.text,
        html: email.html,
        headers: { "Content-Language": email.language, "Auto-Submitted": "auto-generated" },
      });
    },
    close: () => void transport?.then((opened) => opened.close(), () => {}),
  };
}

/** One line saying why an attempt failed: the server's answer, or what went wrong reaching it. */
export function describeMailError(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 500);
  const { responseCode, response, code } = error as Error & {
    responseCode?: number;
    response?: string;
    code?: string;
  };
  if (typeof responseCode === "number") {
    // nodemailer's `response` is the server's whole line, its code first ("451 4.3.0 ...").
    const answer = (response ?? `${responseCode} ${error.message}`).trim();
    return `The server answered: ${answer}`.slice(0, 500);
  }
  return `${code ? `${code}: ` : ""}${error.message}`.slice(0, 500);
}

/**
 * True when the server refused this e-mail for good (a 5xx answer). 4xx and network errors are
 * retried, and so is a refused login (EAUTH): that is our configuration, fixed by the operator.
 */
export function isPermanentRefusal(error: unknown): boolean {
  const { responseCode, code } = (error ?? {}) as { responseCode?: unknown; code?: unknown };
  return typeof responseCode === "number" && responseCode >= 500 && responseCode < 600 &&
    code !== "EAUTH";
}
