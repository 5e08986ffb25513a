/**
 * Customer e-mail benchmark, against the real server in its own process and a real SMTP server
 * (npm smtp-server, tests/support/smtp_server.ts) on loopback:
 *
 *   deno run -A bench/emails.ts [--emails 2000]
 *
 * A backlog of confirmation e-mails is written to a stopped server's outbox; the server is
 * started and messages/s is measured at the SMTP server while the backlog drains, with the
 * process's resident memory at the end.
 */
import { parseArgs } from "node:util";
import { insertCustomerEmail } from "../db/customer_emails.ts";
import { findPaymentByPublicId } from "../db/payments.ts";
import { createOrganisation } from "../lib/accounts/organisations.ts";
import { createApiKey } from "../lib/api_keys.ts";
import { loadConfig } from "../lib/config.ts";
import { messageIdOf } from "../lib/emails/outbox.ts";
import { newId } from "../lib/ids.ts";
import { closeDatabases, openDatabases } from "../server.ts";
import { type ChildServer, freePort, startPaystead } from "../tests/support/processes.ts";
import { startSmtpServer } from "../tests/support/smtp_process.ts";
import { rssMiB } from "./api.ts";

/** What the benchmark measured. */
export interface EmailsBenchResult {
  emails: number;
  seconds: number;
  messagesPerSecond: number;
  /** The Paystead process's resident memory once the backlog was sent, in MiB. */
  rssMiB: number;
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!await condition()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs the e-mail benchmark in a temporary data directory and returns what it measured. */
export async function runEmailsBench(
  options: { emails?: number; log?: (line: string) => void } = {},
): Promise<EmailsBenchResult> {
  const emails = options.emails ?? 2_000;
  const log = options.log ?? ((line: string) => console.error(line));
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-bench-emails-" });
  const smtp = await startSmtpServer(`${dataDir}/received.jsonl`);
  const port = freePort();
  const env = {
    LOG_LEVEL: "error",
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    MAIL_FROM: "Bench <bench@example.pl>",
  };
  let server: ChildServer | null = null;
  try {
    const config = loadConfig({
      PAYSTEAD_ENV: "sandbox",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: `file:${dataDir}/sandbox.db`,
      ACCOUNTS_DATABASE_URL: `file:${dataDir}/accounts.db`,
    });
    let databases = await openDatabases(config);
    const org = await createOrganisation(
      databases.accounts,
      { slug: "bench", name: "Bench", plan: "ENTERPRISE" },
      Date.now(),
    );
    const { secret: apiKey } = await createApiKey(databases.store, {
      orgId: org.id,
      name: "bench",
      environment: "sandbox",
      now: Date.now(),
    });
    await closeDatabases(databases);

    server = await startPaystead(dataDir, env, port);
    const api = async (path: string, body: unknown) => {
      const response = await fetch(server!.url + path, {
        method: path.endsWith("business-details") ? "PUT" : "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return await response.json();
    };
    await api("/api/v1/business-details", {
      legalName: "Bench sp. z o.o.",
      address: { line1: "ul. Testowa 1", postalCode: "00-001", city: "Warszawa", country: "PL" },
      taxId: "5260250274",
      contactEmail: "bench@example.pl",
      defaultLanguage: "pl",
      invoiceRequests: false,
    });
    const offer = await api("/api/v1/qr", { name: "Bench", amount: 1250, currency: "PLN" });
    const payment = await api("/payments", {
      qrId: offer.qrId,
      customer: { email: "customer@example.pl" },
    });
    await api(`/api/v1/payments/${payment.paymentId}/complete`, { code: "777123" });
    await waitFor(async () => await smtp.count() >= 1, 30_000, "the first confirmation");
    await server.stop();
    server = null;

    log(`emails: writing a backlog of ${emails} e-mails ...`);
    databases = await openDatabases(config);
    const paid = (await findPaymentByPublicId(databases.store.db, payment.paymentId))!;
    for (let written = 0; written < emails; written += 500) {
      await databases.store.write(async (trx) => {
        for (let index = written; index < Math.min(emails, written + 500); index++) {
          const publicId = newId("customerEmail");
          await insertCustomerEmail(trx, {
            public_id: publicId,
            org_id: org.id,
            payment_id: paid.id,
            refund_id: null,
            kind: "PAYMENT_CONFIRMATION",
            recipient: `customer${index}@example.pl`,
            message_id: messageIdOf(publicId, config),
            status: "PENDING",
            attempt_count: 0,
            in_flight: 0,
            next_attempt_at: 0,
            created_at: Date.now(),
            updated_at: Date.now(),
          });
        }
      });
    }
    await closeDatabases(databases);

    log("emails: starting the server on the backlog ...");
    server = await startPaystead(dataDir, env, port);
    await waitFor(async () => await smtp.count() > 1, 30_000, "the first backlog message");
    const started = performance.now();
    const first = await smtp.count();
    await waitFor(async () => await smtp.count() >= emails + 1, 600_000, "the backlog to drain");
    const seconds = (performance.now() - started) / 1000;
    const memory = await rssMiB(server.process.pid);
    return {
      emails,
      seconds,
      messagesPerSecond: Math.round((emails + 1 - first) / seconds),
      rssMiB: memory,
    };
  } finally {
    await server?.stop();
    await smtp.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
}

/** Formats a result as the line the benchmark prints. */
export function formatEmailsBench(result: EmailsBenchResult): string {
  return `e-mails: messages/s through a local SMTP server (backlog of ${result.emails}): ` +
    `${result.messagesPerSecond} (${result.seconds.toFixed(1)} s); the process's RSS after it: ` +
    `${result.rssMiB.toFixed(1)} MiB`;
}

if (import.meta.main) {
  const { values } = parseArgs({ args: Deno.args, options: { emails: { type: "string" } } });
  const result = await runEmailsBench({
    emails: values.emails ? Number(values.emails) : undefined,
  });
  console.log(formatEmailsBench(result));
}
