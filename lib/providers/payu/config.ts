import { z } from "zod";
import { ConfigError, httpUrl, trimSlash } from "../../config_parts.ts";
import { isLoopbackHost } from "../../webhooks/address_policy.ts";
import { notifyUrlOf, type ProviderDefinition } from "../definition.ts";
import { PayuProvider } from "./provider.ts";

/** PayU's REST API credentials of one point of sale (POS). */
export interface PayuConfig {
  kind: "payu";
  apiUrl: string;
  posId: string;
  clientId: string;
  clientSecret: string;
  /** The POS's second key: it signs PayU's notifications. */
  secondKey: string;
}

/** PayU's production API; its sandbox is https://secure.snd.payu.com. */
const PAYU_DEFAULT_API_URL = "https://secure.payu.com";

const Variables = z.object({
  PAYU_API_URL: httpUrl.optional(),
  PAYU_POS_ID: z.string().regex(/^\d{1,20}$/, "must be the POS id PayU gave (digits)").optional(),
  PAYU_CLIENT_ID: z.string().regex(/^\S{1,200}$/, "must be the OAuth client_id PayU gave")
    .optional(),
  PAYU_CLIENT_SECRET: z.string().regex(/^\S{1,200}$/, "must be the OAuth client_secret PayU gave")
    .optional(),
  PAYU_SECOND_KEY: z.string().regex(/^\S{1,200}$/, "must be the POS's second key (MD5) PayU gave")
    .optional(),
});

const REQUIRED = [
  "PAYU_POS_ID",
  "PAYU_CLIENT_ID",
  "PAYU_CLIENT_SECRET",
  "PAYU_SECOND_KEY",
] as const;

/** PayU REST API v2.1 with transparent BLIK (`PAYMENT_PROVIDER=payu`). */
export const payu: ProviderDefinition<PayuConfig> = {
  name: "payu",
  displayName: "PayU",
  takesMoney: true,
  variables: Variables,
  requirement: `with ${REQUIRED.join(", ")}`,
  setup: "PAYMENT_PROVIDER=payu and the PAYU_* credentials from PayU's merchant panel",
  settings(raw) {
    const vars = Variables.parse(raw);
    const missing = REQUIRED.find((name) => vars[name] === undefined);
    if (missing) {
      throw new ConfigError(
        `Invalid configuration: ${missing} is required with PAYMENT_PROVIDER=payu (from the POS's REST API settings in PayU's panel).`,
      );
    }
    const apiUrl = trimSlash(vars.PAYU_API_URL ?? PAYU_DEFAULT_API_URL);
    const api = new URL(apiUrl);
    // NOTE: the OAuth secret and every order travel to this address: in clear text only to this
    // machine (the fake PayU of the README), never across a network.
    if (api.protocol !== "https:" && !isLoopbackHost(api.hostname)) {
      throw new ConfigError(
        `Invalid configuration: PAYU_API_URL must be https:// (http:// only to this machine, such as a local fake PayU) (got "${apiUrl}").`,
      );
    }
    return {
      kind: "payu",
      apiUrl,
      posId: vars.PAYU_POS_ID!,
      clientId: vars.PAYU_CLIENT_ID!,
      clientSecret: vars.PAYU_CLIENT_SECRET!,
      secondKey: vars.PAYU_SECOND_KEY!,
    };
  },
  create(config, options) {
    const settings = config.paymentProvider;
    if (settings?.kind !== "payu") throw new Error("PayU's adapter needs PAYMENT_PROVIDER=payu.");
    return new PayuProvider({
      config: settings,
      notifyUrl: notifyUrlOf(config.publicUrl, "payu"),
      fetch: options.fetch,
      timeouts: options.timeouts,
      now: () => options.clock.now(),
    });
  },
};
