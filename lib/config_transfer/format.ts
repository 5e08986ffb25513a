import { z } from "zod";
import { ENVIRONMENTS } from "../config.ts";
import { ApiError } from "../errors.ts";
import { CheckoutSettings } from "../checkout/schemas.ts";
import { CreateOfferRequest } from "../offers.ts";
import { CreateWebhookEndpointRequest } from "../webhooks/schemas.ts";

/** The file's format name and version: a later version is refused, not guessed at. */
export const CONFIG_FORMAT = "paystead-config";
export const CONFIG_VERSION = 1;
/** Larger than any real configuration (500 offers, 16 endpoints), small enough to parse safely. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

// NOTE: every field an import writes is checked by the API's own schema for it, so a file
// (edited, with its checksum computed again) can store nothing the API would refuse.
const offer = CreateOfferRequest.shape;
const ExportedOffer = z.strictObject({
  qrId: z.string().regex(/^qr_[0-9A-Za-z_-]{22,64}$/),
  name: offer.name,
  description: offer.description.unwrap().nullable(),
  amount: offer.amount,
  currency: offer.currency,
  recurring: offer.recurring.unwrap().nullable(),
  active: z.boolean(),
  metadata: offer.metadata.unwrap(),
});
export type ExportedOffer = z.infer<typeof ExportedOffer>;

const endpoint = CreateWebhookEndpointRequest.shape;
const ExportedEndpoint = z.strictObject({
  id: z.string().regex(/^we_[0-9A-Za-z_-]{22,64}$/),
  url: endpoint.url,
  events: endpoint.events.unwrap(),
  description: endpoint.description.unwrap().nullable(),
  enabled: z.boolean(),
});
export type ExportedEndpoint = z.infer<typeof ExportedEndpoint>;

const Body = z.strictObject({
  format: z.literal(CONFIG_FORMAT),
  version: z.literal(CONFIG_VERSION),
  exportedAt: z.string(),
  organisation: z.strictObject({ slug: z.string().min(1).max(100) }),
  environment: z.enum(ENVIRONMENTS),
  offers: z.array(ExportedOffer).max(5000),
  webhookEndpoints: z.array(ExportedEndpoint).max(100),
  checkout: CheckoutSettings,
});
/** A configuration file's content, without its checksum. */
export type ConfigBody = z.infer<typeof Body>;

const ConfigFile = Body.extend({ checksum: z.string().regex(/^sha256:[0-9a-f]{64}$/) });

/** JSON with object keys sorted at every level: the same content always gives the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${
      entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")
    }}`;
  }
  return JSON.stringify(value);
}

async function checksumOf(body: ConfigBody): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(canonicalJson(body)),
  );
  return `sha256:${
    Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("")
  }`;
}

/** The file's text: the body with a checksum over it, so an edited or damaged file is refused. */
export async function serializeConfig(body: ConfigBody): Promise<string> {
  return `${JSON.stringify({ ...body, checksum: await checksumOf(body) }, null, 2)}\n`;
}

function invalid(message: string): ApiError {
  return new ApiError(
    "config_file_invalid",
    `This is not a usable Paystead configuration file: ${message}`,
    {
      param: "file",
    },
  );
}

/** Parses and checks a configuration file; throws a 400 that says what is wrong with it. */
export async function parseConfig(text: string): Promise<ConfigBody> {
  if (new TextEncoder().encode(text).length > MAX_CONFIG_BYTES) {
    throw invalid(`it is larger than ${MAX_CONFIG_BYTES / 1024} KiB.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalid("it is not JSON.");
  }
  const head = z.object({ format: z.unknown(), version: z.unknown() }).safeParse(json);
  if (!head.success || head.data.format !== CONFIG_FORMAT) {
    throw invalid(`its "format" is not "${CONFIG_FORMAT}".`);
  }
  if (head.data.version !== CONFIG_VERSION) {
    throw invalid(
      `it has version ${
        JSON.stringify(head.data.version)
      }; this Paystead reads version ${CONFIG_VERSION}. Export it again with this version.`,
    );
  }
  const parsed = ConfigFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(`${issue.path.join(".") || "the file"}: ${issue.message}.`);
  }
  const { checksum, ...body } = parsed.data;
  if (checksum !== await checksumOf(body)) {
    throw invalid(
      "its checksum does not match its content; it was edited or damaged after export. Export it again.",
    );
  }
  return body;
}
