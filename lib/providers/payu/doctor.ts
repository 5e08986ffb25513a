import type { Environment } from "../../config_parts.ts";
import { networkError } from "../../ops/healthcheck.ts";
import type { DoctorProblem, Fetch } from "../mod.ts";
import type { PayuConfig } from "./config.ts";
import { payuTestSetup } from "./test_setup.ts";

const NETWORK_TIMEOUT_MS = 5_000;

/** What `doctor` checks of PayU: production on a test setup, and the credentials PayU takes. */
export async function payuDoctorChecks(
  config: PayuConfig,
  fetch: Fetch,
  environment: Environment,
): Promise<DoctorProblem[]> {
  const problems: DoctorProblem[] = [];
  const test = environment === "production" ? payuTestSetup(config) : null;
  if (test !== null) {
    problems.push({
      what: `Production takes no real money: ${test}.`,
      fix: "Set PAYU_API_URL=https://secure.payu.com and your production POS's PAYU_* credentials.",
    });
  }
  return [...problems, ...await checkCredentials(config, fetch)];
}

/** Asks PayU for a token with the configured credentials. */
async function checkCredentials(config: PayuConfig, fetch: Fetch): Promise<DoctorProblem[]> {
  try {
    const response = await fetch(
      new Request(`${config.apiUrl}/pl/standard/user/oauth/authorize`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: config.clientId,
          client_secret: config.clientSecret,
        }),
        signal: AbortSignal.timeout(NETWORK_TIMEOUT_MS),
        redirect: "manual",
      }),
    );
    const body = await response.json().catch(() => null) as { access_token?: unknown } | null;
    if (response.status === 200 && typeof body?.access_token === "string") return [];
    return [{
      what: `PayU at ${config.apiUrl} refused the credentials (HTTP ${response.status}).`,
      fix:
        "Check PAYU_CLIENT_ID and PAYU_CLIENT_SECRET, and that PAYU_API_URL is PayU's production or sandbox host as they belong to.",
    }];
  } catch (error) {
    return [{
      what: `PayU at ${config.apiUrl} does not answer (${networkError(error)}).`,
      fix: "Check PAYU_API_URL and that this machine can reach it (firewall, DNS).",
    }];
  }
}
