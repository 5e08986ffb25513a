import type { PayuConfig } from "./config.ts";
import { ProviderUnavailableError } from "../mod.ts";
import { type Fetch, send } from "./http.ts";
import { TokenResponse } from "./wire.ts";

/** A token is replaced this long before PayU says it expires, so no call carries a stale one. */
const REFRESH_MARGIN_MS = 60_000;

/**
 * PayU's OAuth client-credentials token, cached until shortly before it expires. Concurrent
 * callers share one refresh in flight.
 */
export class PayuTokens {
  readonly #config: PayuConfig;
  readonly #fetch: Fetch;
  readonly #now: () => number;
  readonly #timeoutMs: number;
  #token: { value: string; refreshAt: number } | null = null;
  #refreshing: Promise<string> | null = null;

  constructor(config: PayuConfig, fetch: Fetch, now: () => number, timeoutMs: number) {
    this.#config = config;
    this.#fetch = fetch;
    this.#now = now;
    this.#timeoutMs = timeoutMs;
  }

  /** A valid token: the cached one, or a new one. Throws `ProviderUnavailableError` if none. */
  get(): Promise<string> {
    if (this.#token && this.#now() < this.#token.refreshAt) {
      return Promise.resolve(this.#token.value);
    }
    this.#refreshing ??= this.#fetchToken().then((token) => token.value)
      .finally(() => (this.#refreshing = null));
    return this.#refreshing;
  }

  /**
   * Asks PayU for a new token now, whatever is cached, and keeps it: proves that PAYU_API_URL
   * answers and takes the POS's credentials. Returns the token's lifetime in seconds; throws
   * `ProviderUnavailableError` saying why not.
   */
  async renew(): Promise<number> {
    return (await this.#fetchToken()).expiresIn;
  }

  /** Forgets `token` after PayU refused it (401), unless a newer one replaced it already. */
  invalidate(token: string): void {
    if (this.#token?.value === token) this.#token = null;
  }

  async #fetchToken(): Promise<{ value: string; expiresIn: number }> {
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: this.#config.clientId,
      client_secret: this.#config.clientSecret,
    });
    let answer;
    try {
      answer = await send(this.#fetch, {
        url: `${this.#config.apiUrl}/pl/standard/user/oauth/authorize`,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form.toString(),
      }, this.#timeoutMs);
    } catch (error) {
      // NOTE: without a token no order can have been sent: whatever failed, nothing happened.
      if (error instanceof ProviderUnavailableError) throw error;
      throw new ProviderUnavailableError("PayU's token endpoint did not answer.", { cause: error });
    }
    const parsed = TokenResponse.safeParse(answer.body);
    if (answer.status !== 200 || !parsed.success) {
      throw new ProviderUnavailableError(
        `PayU refused a token (HTTP ${answer.status}); check PAYU_CLIENT_ID and PAYU_CLIENT_SECRET.`,
      );
    }
    const lifetimeMs = parsed.data.expires_in * 1000;
    this.#token = {
      value: parsed.data.access_token,
      refreshAt: this.#now() + Math.max(lifetimeMs - REFRESH_MARGIN_MS, lifetimeMs / 2),
    };
    return { value: parsed.data.access_token, expiresIn: parsed.data.expires_in };
  }
}
