/**
 * A real SMTP server on loopback for tests (npm `smtp-server`), run as its own process:
 *
 *   deno run --allow-net --allow-read --allow-write --allow-env --allow-sys \
 *     tests/support/smtp_server.ts --port N --out FILE [--mode accept]
 *
 * Every accepted message is appended to FILE as one JSON line `{from, to, raw}`. Its answers
 * are switched while it runs by `POST /mode` with the mode as the body on the control port it
 * prints (`{"smtp": N, "control": M}` on stdout): `accept`, `tempfail` (451 after DATA),
 * `permfail` (550 after DATA), `hang` (never answers DATA), `slow` (accepts 1.5 s after DATA).
 */
import { SMTPServer } from "smtp-server";

const MODES = ["accept", "tempfail", "permfail", "hang", "slow"] as const;
type Mode = typeof MODES[number];

function argument(name: string): string | undefined {
  const index = Deno.args.indexOf(`--${name}`);
  return index === -1 ? undefined : Deno.args[index + 1];
}

const out = argument("out");
if (!out) throw new Error("--out FILE is required");
let mode: Mode = (argument("mode") as Mode | undefined) ?? "accept";

function refusal(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Uint8Array[] = [];
    stream.on("data", (chunk: Uint8Array) => chunks.push(chunk));
    stream.on("end", () => {
      if (mode === "hang") return;
      if (mode === "tempfail") return callback(refusal(451, "4.3.0 Try again later"));
      if (mode === "permfail") return callback(refusal(550, "5.1.1 Mailbox unavailable"));
      const raw = new TextDecoder().decode(
        chunks.reduce((all, chunk) => new Uint8Array([...all, ...chunk]), new Uint8Array()),
      );
      const record = {
        from: session.envelope.mailFrom && session.envelope.mailFrom.address,
        to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
        raw,
      };
      // Written before the 250, as a real server commits the message before accepting it.
      Deno.writeTextFileSync(out, JSON.stringify(record) + "\n", { append: true });
      if (mode === "slow") setTimeout(() => callback(), 1500);
      else callback();
    });
  },
});

const smtpPort = Number(argument("port") ?? 0);
server.listen(smtpPort, "127.0.0.1", () => {
  const address = server.server.address() as { port: number };
  const control = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const wanted = (await req.text()).trim() as Mode;
    if (!MODES.includes(wanted)) return new Response("unknown mode", { status: 400 });
    mode = wanted;
    return new Response(mode);
  });
  console.log(JSON.stringify({ smtp: address.port, control: control.addr.port }));
});
