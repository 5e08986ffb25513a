/**
 * `paystead fake-payu`: runs the fake PayU until interrupted and prints the PAYU_* variables
 * that point a Paystead process at it.
 */
import { parseArgs } from "node:util";
import { type FakePayuSwitchesPatch, PAYU_SANDBOX_POS, startFakePayu } from "./mod.ts";
import { PAY_METHODS } from "./paymethods.ts";
import { SwitchesSchema } from "./switches.ts";
import { PAY_BY_LINK_STATUSES } from "./wire.ts";
import { parseDuration } from "../shared/duration.ts";
import { interrupted } from "../shared/signals.ts";

const FAKE_PAYU_USAGE = `Usage: paystead fake-payu [options]

Runs a fake PayU (REST API v2.1: BLIK codes, redirect orders with its own pay page, pay
methods, refunds) on 127.0.0.1 for trying production locally.
  --port N                   port to listen on (default 8790)
  --hostname H               address to listen on (default 127.0.0.1)
  --pos-id, --client-id, --client-secret, --second-key
                             credentials to accept (default: PayU's public sandbox POS)
  --notify-delay D           delay before an order's outcome and notification (default 1s)
  --confirm-timeout D        how long other codes wait for the banking app (default 60s)
  --response-delay D         delay before each API answer (slowness)
  --token-ttl D              lifetime of OAuth tokens (default 43199s)
  --signature-algorithm A    MD5 (default), SHA-1, SHA-256, SHA-384 or SHA-512
  --duplicates               send every notification twice
  --reorder                  send PENDING after the final status
  --drop                     send no notifications (Paystead must poll)
  --refuse-codes-at-create   refuse 500500 and 700701-700703 with a 400 at create (no order)
  --pay-method V=STATUS[:MIN-MAX]
                             a method's status (ENABLED, DISABLED, TEMPORARY_DISABLED) and
                             amount range in /api/v2_1/paymethods, e.g. m=DISABLED or
                             c=ENABLED:100-500000 (repeatable; values: ${
  PAY_METHODS.map((m) => m.value).join(" ")
})
Durations: 1500, 500ms, 2s, 1m. Switches change at run time: PATCH /__fake/switches; a redirect
order is paid from outside with POST /__fake/orders/{orderId}/pay.`;

const OPTIONS = {
  port: { type: "string" },
  hostname: { type: "string" },
  "pos-id": { type: "string" },
  "client-id": { type: "string" },
  "client-secret": { type: "string" },
  "second-key": { type: "string" },
  "notify-delay": { type: "string" },
  "confirm-timeout": { type: "string" },
  "response-delay": { type: "string" },
  "token-ttl": { type: "string" },
  "signature-algorithm": { type: "string" },
  duplicates: { type: "boolean" },
  reorder: { type: "boolean" },
  drop: { type: "boolean" },
  "refuse-codes-at-create": { type: "boolean" },
  "pay-method": { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
} as const;

/** Runs the command; resolves with the exit code once the fake has stopped. */
export async function runFakePayuCommand(
  args: string[],
  stop: Promise<unknown> = interrupted(),
): Promise<number> {
  let options;
  try {
    options = parseArgs({ args, options: OPTIONS, strict: true }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${FAKE_PAYU_USAGE}`);
    return 2;
  }
  if (options.help) {
    console.log(FAKE_PAYU_USAGE);
    return 0;
  }
  const port = Number(options.port ?? "8790");
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`--port must be a port number.\n\n${FAKE_PAYU_USAGE}`);
    return 2;
  }
  const switches = switchesOf(options);
  if (typeof switches === "string") {
    console.error(`${switches}\n\n${FAKE_PAYU_USAGE}`);
    return 2;
  }
  const fake = await startFakePayu({
    port,
    hostname: options.hostname ?? "127.0.0.1",
    posId: options["pos-id"] ?? PAYU_SANDBOX_POS.posId,
    clientId: options["client-id"] ?? PAYU_SANDBOX_POS.clientId,
    clientSecret: options["client-secret"] ?? PAYU_SANDBOX_POS.clientSecret,
    secondKey: options["second-key"] ?? PAYU_SANDBOX_POS.secondKey,
    switches,
  });
  const { posId, clientId, clientSecret, secondKey } = fake.credentials;
  console.log(`Fake PayU listening on ${fake.url} (controls: ${fake.url}/__fake/switches)`);
  console.log("Give Paystead:");
  console.log("PAYMENT_PROVIDER=payu");
  console.log(`PAYU_API_URL=${fake.url}`);
  console.log(`PAYU_POS_ID=${posId}`);
  console.log(`PAYU_CLIENT_ID=${clientId}`);
  console.log(`PAYU_CLIENT_SECRET=${clientSecret}`);
  console.log(`PAYU_SECOND_KEY=${secondKey}`);
  await stop;
  await fake.close();
  return 0;
}

type Options = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>["values"];

/** The switches the flags ask for; an error message when one is invalid. */
function switchesOf(options: Options): FakePayuSwitchesPatch | string {
  const patch: FakePayuSwitchesPatch = {};
  const durations: [keyof Options, "notifyDelayMs" | "confirmTimeoutMs" | "responseDelayMs"][] = [
    ["notify-delay", "notifyDelayMs"],
    ["confirm-timeout", "confirmTimeoutMs"],
    ["response-delay", "responseDelayMs"],
  ];
  for (const [flag, key] of durations) {
    const text = options[flag];
    if (typeof text !== "string") continue;
    const ms = parseDuration(text);
    if (ms === null) return `--${flag} must be a duration such as 500ms, 2s or 1m.`;
    patch[key] = ms;
  }
  if (options["token-ttl"] !== undefined) {
    const ms = parseDuration(options["token-ttl"]);
    if (ms === null || ms < 1000) return "--token-ttl must be a duration of at least 1s.";
    patch.tokenTtlSeconds = Math.floor(ms / 1000);
  }
  if (options["signature-algorithm"] !== undefined) {
    const algorithm = SwitchesSchema.shape.signatureAlgorithm.safeParse(
      options["signature-algorithm"].toUpperCase(),
    );
    if (!algorithm.success) {
      return "--signature-algorithm must be MD5, SHA-1, SHA-256, SHA-384 or SHA-512.";
    }
    patch.signatureAlgorithm = algorithm.data;
  }
  if (options.duplicates) patch.duplicateNotifications = true;
  if (options.reorder) patch.reorderNotifications = true;
  if (options.drop) patch.dropNotifications = true;
  if (options["refuse-codes-at-create"]) patch.codeRefusals = "create";
  for (const text of options["pay-method"] ?? []) {
    const match = /^([a-z]+)=([A-Z_]+)(?::(\d{1,11})-(\d{1,11}))?$/.exec(text);
    const status = PAY_BY_LINK_STATUSES.find((candidate) => candidate === match?.[2]);
    if (!match || !status || !PAY_METHODS.some((method) => method.value === match[1])) {
      return "--pay-method must be VALUE=ENABLED|DISABLED|TEMPORARY_DISABLED[:MIN-MAX] of a known value.";
    }
    patch.payMethods = {
      ...patch.payMethods,
      [match[1]]: {
        status,
        ...(match[3] === undefined
          ? {}
          : { minAmount: Number(match[3]), maxAmount: Number(match[4]) }),
      },
    };
  }
  return patch;
}
