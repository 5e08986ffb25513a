import type { Services } from "../context.ts";
import { ProviderUnavailableError } from "./mod.ts";
import { PayuProvider } from "./payu/provider.ts";

/** What "Test the PayU connection" found: a token and its lifetime, or why there was none. */
export type ConnectionTest =
  | { ok: true; apiUrl: string; expiresInSeconds: number }
  | { ok: false; apiUrl: string; message: string };

/**
 * Asks PayU for an OAuth token through the process's own adapter, so the answer is exactly what
 * a payment would meet: PAYU_API_URL reachable, the POS's credentials accepted. Null when the
 * provider is not PayU (the sandbox's simulator has nothing to test).
 */
export async function testProviderConnection(services: Services): Promise<ConnectionTest | null> {
  const { provider } = services;
  if (!(provider instanceof PayuProvider)) return null;
  const apiUrl = provider.config.apiUrl;
  try {
    return { ok: true, apiUrl, expiresInSeconds: await provider.testConnection() };
  } catch (error) {
    if (!(error instanceof ProviderUnavailableError)) throw error;
    return { ok: false, apiUrl, message: error.message };
  }
}
