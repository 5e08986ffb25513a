/**
 * `paystead fake-p24`: runs the fake Przelewy24 until interrupted and prints the P24_* variables
 * that point a Paystead process at it.
 */
import { parseArgs } from "node:util";
import { type FakeP24SwitchesPatch, METHODS, startFakeP24 } from "./mod.ts";
import { parseDuration } from "../shared/duration.ts";
import { interrupted } from "../shared/signals.ts";

const FAKE_P24_USAGE = `Usage: paystead fake-p24 [options]

Runs a fake Przelewy24 (REST API v1: register, BLIK by code, the transaction panel for banks,
card, Google Pay and Apple Pay, verify, refunds, the transaction report) on 127.0.0.1.
  --port N                  port to listen on (default 8791)
  --hostname H              address to listen on (default 127.0.0.1)
  --merchant-id N, --pos-id N, --crc K, --api-key K
                            the account to accept (default: the fake's own)
  --notify-delay D          delay before a payment's notifications (default 500ms)
  --blik-delay D            how long BLIK takes to decide a code (default 1s)
  --blik-timeout D          how long the no-answer code 600600 waits (default 60s)
  --response-delay D        delay before each API answer (slowness)
  --duplicates              send every notification twice
  --reorder                 send the urlStatus notification before the BLIK result
  --drop                    send no notifications (Paystead must ask by sessionId)
  --api-error 500|503       every API call answers that status, doing nothing
  --hang before|after       API calls never answer (after: the work is done first)
  --method ID=on|off[:MIN-MAX]
                            a method's availability and amount range, e.g. 25=off or
                            218=on:100-500000 (repeatable; ids: ${
  METHODS.map((m) => m.id).join(" ")
})
  --fee-bp N                commission in the transaction report, basis points (default 0)
  --blik-notify-url U       the panel's address for BLIK notifications without
                            urlCardPaymentNotification
  --refund-notify-url U     the panel's default address for refund notifications
BLIK codes: 777xxx pays; 500500 declined, 700701 expired, 700702 cancelled, 700703 used,
600600 no answer (--blik-timeout); any other 6 digits declined.
Durations: 1500, 500ms, 2s, 1m. Switches change at run time: PATCH /__fake/switches; a
transaction is paid from outside with POST /__fake/transactions/{sessionId}/pay.`;

const OPTIONS = {
  port: { type: "string" },
  hostname: { type: "string" },
  "merchant-id": { type: "string" },
  "pos-id": { type: "string" },
  crc: { type: "string" },
  "api-key": { type: "string" },
  "notify-delay": { type: "string" },
  "blik-delay": { type: "string" },
  "blik-timeout": { type: "string" },
  "response-delay": { type: "string" },
  duplicates: { type: "boolean" },
  reorder: { type: "boolean" },
  drop: { type: "boolean" },
  "api-error": { type: "string" },
  hang: { type: "string" },
  method: { type: "string", multiple: true },
  "fee-bp": { type: "string" },
  "blik-notify-url": { type: "string" },
  "refund-notify-url": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

type Options = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>["values"];

/** Runs the command; resolves with the exit code once the fake has stopped. */
export async function runFakeP24Command(
  args: string[],
  stop: Promise<unknown> = interrupted(),
): Promise<number> {
  let options: Options;
  try {
    options = parseArgs({ args, options: OPTIONS, strict: true }).values;
  } catch (error) {
    return usage((error as Error).message);
  }
  if (options.help) {
    console.log(FAKE_P24_USAGE);
    return 0;
  }
  const port = Number(options.port ?? "8791");
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    return usage("--port must be a port number.");
  }
  const ids: Record<string, number | undefined> = {};
  for (const flag of ["merchant-id", "pos-id"] as const) {
    const text = options[flag];
    if (text === undefined) continue;
    if (!/^[1-9]\d{0,9}$/.test(text)) return usage(`--${flag} must be a positive number.`);
    ids[flag] = Number(text);
  }
  for (const flag of ["crc", "api-key"] as const) {
    if (options[flag] !== undefined && !/^\S{1,100}$/.test(options[flag]!)) {
      return usage(`--${flag} must be 1 to 100 characters without spaces.`);
    }
  }
  const switches = switchesOf(options);
  if (typeof switches === "string") return usage(switches);
  const fake = await startFakeP24({
    port,
    hostname: options.hostname ?? "127.0.0.1",
    merchantId: ids["merchant-id"],
    posId: ids["pos-id"],
    crc: options.crc,
    apiKey: options["api-key"],
    switches,
  });
  const { merchantId, posId, crc, apiKey } = fake.credentials;
  console.log(`Fake Przelewy24 listening on ${fake.url} (controls: ${fake.url}/__fake/switches)`);
  console.log("Give Paystead:");
  console.log("PAYMENT_PROVIDER=przelewy24");
  console.log(`P24_API_URL=${fake.url}`);
  console.log(`P24_MERCHANT_ID=${merchantId}`);
  console.log(`P24_POS_ID=${posId}`);
  console.log(`P24_CRC=${crc}`);
  console.log(`P24_API_KEY=${apiKey}`);
  await stop;
  await fake.close();
  return 0;
}

function usage(message: string): number {
  console.error(`${message}\n\n${FAKE_P24_USAGE}`);
  return 2;
}

/** The switches the flags ask for; an error message when one is invalid. */
function switchesOf(options: Options): FakeP24SwitchesPatch | string {
  const patch: FakeP24SwitchesPatch = {};
  const durations = [
    ["notify-delay", "notifyDelayMs"],
    ["blik-delay", "blikDecisionDelayMs"],
    ["blik-timeout", "blikConfirmTimeoutMs"],
    ["response-delay", "responseDelayMs"],
  ] as const;
  for (const [flag, key] of durations) {
    const text = options[flag];
    if (text === undefined) continue;
    const ms = parseDuration(text);
    if (ms === null) return `--${flag} must be a duration such as 500ms, 2s or 1m.`;
    patch[key] = ms;
  }
  if (options.duplicates) patch.duplicateNotifications = true;
  if (options.reorder) patch.reorderNotifications = true;
  if (options.drop) patch.dropNotifications = true;
  if (options["api-error"] !== undefined) {
    if (options["api-error"] !== "500" && options["api-error"] !== "503") {
      return "--api-error must be 500 or 503.";
    }
    patch.apiErrorStatus = Number(options["api-error"]) as 500 | 503;
  }
  if (options.hang !== undefined) {
    if (options.hang !== "before" && options.hang !== "after") {
      return "--hang must be before or after.";
    }
    patch.hang = options.hang;
  }
  if (options["fee-bp"] !== undefined) {
    if (!/^\d{1,5}$/.test(options["fee-bp"]) || Number(options["fee-bp"]) > 10_000) {
      return "--fee-bp must be 0 to 10000.";
    }
    patch.feeBasisPoints = Number(options["fee-bp"]);
  }
  for (
    const [flag, key] of [["blik-notify-url", "blikNotifyUrl"], [
      "refund-notify-url",
      "refundNotifyUrl",
    ]] as const
  ) {
    const text = options[flag];
    if (text === undefined) continue;
    if (!URL.canParse(text)) return `--${flag} must be a URL.`;
    patch[key] = text;
  }
  for (const text of options.method ?? []) {
    const match = /^(\d{1,9})=(on|off)(?::(\d{1,10})-(\d{1,10}))?$/.exec(text);
    if (!match || !METHODS.some((method) => String(method.id) === match[1])) {
      return "--method must be ID=on|off[:MIN-MAX] of a known method id.";
    }
    patch.methods = {
      ...patch.methods,
      [match[1]]: {
        status: match[2] === "on",
        ...(match[3] === undefined
          ? {}
          : { minAmount: Number(match[3]), maxAmount: Number(match[4]) }),
      },
    };
  }
  return patch;
}
