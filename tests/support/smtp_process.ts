import { simpleParser } from "mailparser";

/** A message the test SMTP server accepted, parsed as a mail client reads it. */
export interface ReceivedMessage {
  envelopeTo: string[];
  from: { name: string; address: string };
  to: string;
  replyTo: string | null;
  subject: string;
  messageId: string;
  contentLanguage: string | null;
  text: string;
  html: string;
}

/** The SMTP server of tests/support/smtp_server.ts, running as its own process. */
export interface SmtpProcess {
  port: number;
  /** Switches how it answers DATA: accept, tempfail (451), permfail (550), hang. */
  setMode(mode: "accept" | "tempfail" | "permfail" | "hang" | "slow"): Promise<void>;
  /** Every message it accepted so far, in order. */
  messages(): Promise<ReceivedMessage[]>;
  /** How many messages it accepted so far (cheap: no parsing). */
  count(): Promise<number>;
  /** Kills it: connections drop, new ones are refused. */
  stop(): Promise<void>;
}

const script = new URL("./smtp_server.ts", import.meta.url).pathname;

/** Starts the test SMTP server on 127.0.0.1 (`port`, else a free one), recording to `out`. */
export async function startSmtpServer(
  out: string,
  options: { port?: number; mode?: string } = {},
): Promise<SmtpProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-sys",
      script,
      "--out",
      out,
      "--port",
      String(options.port ?? 0),
      "--mode",
      options.mode ?? "accept",
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let printed = "";
  while (!printed.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the SMTP server exited before listening");
    printed += value;
  }
  reader.releaseLock();
  child.stdout.cancel().catch(() => {});
  const { smtp, control } = JSON.parse(printed.split("\n")[0]);
  return {
    port: smtp,
    async setMode(mode) {
      const response = await fetch(`http://127.0.0.1:${control}/mode`, {
        method: "POST",
        body: mode,
      });
      if ((await response.text()) !== mode) throw new Error(`mode ${mode} refused`);
    },
    messages: () => readMessages(out),
    async count() {
      try {
        const bytes = await Deno.readFile(out);
        return bytes.reduce((lines, byte) => lines + (byte === 10 ? 1 : 0), 0);
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return 0;
        throw error;
      }
    },
    async stop() {
      child.kill("SIGKILL");
      await child.status;
    },
  };
}

/** Parses what the server recorded in `out`. */
export async function readMessages(out: string): Promise<ReceivedMessage[]> {
  let content = "";
  try {
    content = await Deno.readTextFile(out);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const records = content.split("\n").filter(Boolean).map((line) => JSON.parse(line));
  return await Promise.all(records.map(async (record) => {
    const mail = await simpleParser(record.raw);
    const address = (field: unknown) => {
      const value = (field as { value?: { name: string; address: string }[] } | undefined)
        ?.value?.[0];
      return value ?? null;
    };
    return {
      envelopeTo: record.to,
      from: address(mail.from)!,
      to: address(mail.to)?.address ?? "",
      replyTo: address(mail.replyTo)?.address ?? null,
      subject: mail.subject ?? "",
      messageId: mail.messageId ?? "",
      contentLanguage: (mail.headers.get("content-language") as string | undefined) ?? null,
      text: mail.text ?? "",
      html: typeof mail.html === "string" ? mail.html : "",
    };
  }));
}
