import { CUSTOMER_EMAILS_JOB } from "../jobs.ts";
import {
  extendCustomerEmailLeases,
  failCustomerEmail,
  findDueCustomerEmails,
  findLeasedEmails,
  leaseCustomerEmail,
  type LeasedEmail,
  nextCustomerEmailDueAt,
  recordCustomerEmailFailure,
  recordCustomerEmailSent,
} from "../../db/customer_emails.ts";
import type { Services } from "../context.ts";
import { errorFields } from "../log.ts";
import type { ScheduledJob } from "../scheduler.ts";
import { isStorageUnavailable } from "../storage.ts";
import { nextAttemptAt } from "../webhooks/delivery/retry.ts";
import type { RenderedEmail } from "./facts.ts";
import {
  describeMailError,
  isPermanentRefusal,
  mailboxMailer,
  type Mailer,
  smtpMailer,
} from "./mailer.ts";
import { loadEmailModel } from "./model.ts";

/** Tuning of the sender (tests shorten the lease). */
export interface EmailSenderOptions {
  /** How long a claimed e-mail is kept from other processes; renewed while it is being sent. */
  leaseMs?: number;
  /** E-mails being sent at once. */
  maxInFlight?: number;
}

const DEFAULTS: Required<EmailSenderOptions> = { leaseMs: 15_000, maxInFlight: 32 };

/** How long a stop waits for e-mails being sent before leaving them to their leases. */
const STOP_WAIT_MS = 5_000;

/** How many times, a second apart, a result the server gave is written before giving up. */
const RECORD_TRIES = 10;

const LOST_ATTEMPT = "No result was recorded: the process sending this e-mail stopped during " +
  "the attempt. It is sent again with the same Message-ID.";

type Outcome =
  | { sent: true; rendered: RenderedEmail }
  | { sent: false; error: string; permanent: boolean };

/**
 * Sends the customer e-mail outbox, durably: a claim leases an e-mail (one write) before the
 * server hears of it, the lease is renewed while the SMTP conversation runs, and the server's
 * acceptance is written the moment it arrives, fenced on the attempt.
 *
 * NOTE: the one window no design closes is a crash (or a lost database) between the server's
 * 250 to DATA and our commit of SENT: the lease then runs out and the e-mail is sent again. It
 * lasts one local write, and the copy carries the same Message-ID, so a mail client (and the
 * customer) can tell it is the same message. Everything else is sent at most once: an e-mail
 * the server accepted is never claimed again.
 */
export class CustomerEmailSender {
  readonly #services: Services;
  readonly #mailer: Mailer | null;
  readonly #options: Required<EmailSenderOptions>;
  /** The attempt numbers this process is running, by outbox row id. */
  readonly #running = new Map<number, number>();
  readonly #tasks = new Set<Promise<void>>();
  #leaseTimer: ReturnType<typeof setInterval> | null = null;
  #stopped = false;

  /** Sends through SMTP_URL, into the sandbox's mailbox without it, or (production) not at all. */
  constructor(services: Services, options: EmailSenderOptions = {}) {
    this.#services = services;
    this.#options = { ...DEFAULTS, ...options };
    const { config, environment } = services;
    this.#mailer = config.smtp
      ? smtpMailer(config.smtp)
      : environment === "sandbox"
      ? mailboxMailer
      : null;
  }

  /** The scheduled job: claims what is due and starts sending it. */
  job(): ScheduledJob {
    return { name: CUSTOMER_EMAILS_JOB, run: (now) => this.#run(now) };
  }

  /** Resolves when no e-mail is being sent (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#tasks.size > 0) await Promise.all([...this.#tasks]);
  }

  /**
   * Claims nothing more and lets the e-mails being sent finish for up to `STOP_WAIT_MS`, so a
   * hung server cannot hold up a shutdown. What is still waiting for a server then is abandoned:
   * its lease runs out and it is sent again, with the same Message-ID, by whichever process runs
   * next (the server has not answered it, so it has not accepted it).
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((resolve) => timer = setTimeout(resolve, STOP_WAIT_MS));
    await Promise.race([this.idle(), waited]);
    clearTimeout(timer);
    if (this.#leaseTimer !== null) clearInterval(this.#leaseTimer);
    this.#leaseTimer = null;
    this.#mailer?.close();
  }

  async #run(now: number): Promise<number | null> {
    const { store } = this.#services;
    if (this.#mailer === null || this.#stopped) return null;
    // Every slot busy: a finishing attempt wakes the job (see #launch).
    const slots = this.#options.maxInFlight - this.#running.size;
    if (slots <= 0) return null;
    const next = await nextCustomerEmailDueAt(store.db);
    if (next === null || next > now) return next;
    const claimed = await store.write(async (trx) => {
      const leased: number[] = [];
      for (const row of await findDueCustomerEmails(trx, now, slots + this.#running.size)) {
        // This process's own attempt whose lease renewal is late: not another attempt.
        if (this.#running.has(row.id) || leased.length >= slots) continue;
        const lostError = row.in_flight === 1 ? LOST_ATTEMPT : null;
        const claim = { id: row.id, attempt: row.attempt_count, now };
        if (row.attempt_count >= this.#services.config.emailRetryScheduleMs.length) {
          await failCustomerEmail(trx, { ...claim, error: lostError ?? "No attempts left." });
          continue;
        }
        const leaseUntil = now + this.#options.leaseMs;
        if (await leaseCustomerEmail(trx, { ...claim, leaseUntil, lostError })) leased.push(row.id);
      }
      return await findLeasedEmails(trx, leased);
    });
    for (const email of claimed) this.#launch(email);
    // A full batch may have left more due; otherwise the next due time (a wait, or a lease).
    return claimed.length >= slots ? now : await nextCustomerEmailDueAt(store.db);
  }

  #launch(email: LeasedEmail): void {
    this.#running.set(email.id, email.attempt_count);
    this.#leaseTimer ??= setInterval(() => this.#renewLeases(), this.#options.leaseMs / 3);
    const task: Promise<void> = this.#attempt(email).finally(() => {
      this.#running.delete(email.id);
      this.#tasks.delete(task);
      if (this.#running.size === 0 && this.#leaseTimer !== null) {
        clearInterval(this.#leaseTimer);
        this.#leaseTimer = null;
      }
      // A slot is free: what waited for one is claimed now.
      if (!this.#stopped) {
        this.#services.scheduler.wake(CUSTOMER_EMAILS_JOB, this.#services.clock.now());
      }
    });
    this.#tasks.add(task);
  }

  async #attempt(email: LeasedEmail): Promise<void> {
    const { log } = this.#services;
    const outcome = await this.#send(email);
    for (let tries = 1;; tries++) {
      try {
        await this.#record(email, outcome);
        return;
      } catch (error) {
        // NOTE: while this retries, the lease is still renewed (if the database takes that),
        // so an accepted e-mail is not claimed again meanwhile; giving up opens the window
        // described on the class.
        if (tries >= RECORD_TRIES) {
          log.error("recording a customer e-mail's result failed", {
            emailId: email.public_id,
            ...errorFields(error),
          });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  async #send(email: LeasedEmail): Promise<Outcome> {
    const services = this.#services;
    try {
      const model = await loadEmailModel(services, email);
      // NOTE: the renderer (the catalogues, Preact) loads at the first e-mail, by a string literal
      // that `deno compile` embeds: a process that sends none never holds it (issue 34). A failed
      // import fails this attempt, which is retried as any other.
      const { renderEmail } = await import("./render.tsx");
      const rendered = renderEmail(model);
      await this.#mailer!.send({
        from: services.config.mailFrom,
        to: email.recipient,
        replyTo: model.seller.contactEmail,
        messageId: email.message_id,
        ...rendered,
      });
      return { sent: true, rendered };
    } catch (error) {
      return { sent: false, error: describeMailError(error), permanent: isPermanentRefusal(error) };
    }
  }

  async #record(email: LeasedEmail, outcome: Outcome): Promise<void> {
    const { store, clock, config, log, scheduler } = this.#services;
    const now = clock.now();
    const attempt = { id: email.id, attempt: email.attempt_count, now };
    if (outcome.sent) {
      const { rendered } = outcome;
      await store.write((trx) =>
        recordCustomerEmailSent(trx, {
          ...attempt,
          content: { transport: this.#mailer!.transport, ...rendered },
        })
      );
      return;
    }
    // A 5xx is the server's final word (unknown mailbox, refused sender): retrying changes nothing.
    const retryAt = outcome.permanent ? null : nextAttemptAt({
      schedule: config.emailRetryScheduleMs,
      attempts: email.attempt_count,
      now,
      retryAfterMs: null,
      random: Math.random,
    });
    await store.write((trx) =>
      recordCustomerEmailFailure(trx, { ...attempt, error: outcome.error, nextAttemptAt: retryAt })
    );
    log.warn("customer e-mail not accepted", {
      emailId: email.public_id,
      attempt: email.attempt_count,
      error: outcome.error,
      retryAt,
    });
    if (retryAt !== null && !this.#stopped) scheduler.wake(CUSTOMER_EMAILS_JOB, retryAt);
  }

  #renewLeases(): void {
    const claims = [...this.#running].map(([id, attempt]) => ({ id, attempt }));
    if (claims.length === 0) return;
    const { store, clock, log } = this.#services;
    const until = clock.now() + this.#options.leaseMs;
    store.write((trx) => extendCustomerEmailLeases(trx, claims, until)).catch((error) => {
      if (!isStorageUnavailable(error)) {
        log.warn("renewing customer e-mail leases failed", errorFields(error));
      }
    });
  }
}
