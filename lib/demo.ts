import type { Store } from "../db/client.ts";
import { countOrganisations } from "../db/organisations.ts";
import type { AccountsSchema, EnvironmentSchema } from "../db/schema.ts";
import { createOrganisation, createUser } from "./accounts/organisations.ts";
import { createApiKey } from "./api_keys.ts";
import { ApiError } from "./errors.ts";

const DEMO_ORG_SLUG = "demo";
export const DEMO_OWNER_EMAIL = "owner@demo.paystead.test";

/** What first start created, to be printed once. */
export interface DemoCredentials {
  orgSlug: string;
  email: string;
  oneTimePassword: string;
  apiKey: string;
}

/**
 * On the first sandbox start (no organisation at all) creates the demo organisation on plan
 * ENTERPRISE, its OWNER and a sandbox API key. Returns null when organisations already exist.
 */
export async function ensureDemoOrganisation(
  accounts: Store<AccountsSchema>,
  store: Store<EnvironmentSchema>,
  now: number,
): Promise<DemoCredentials | null> {
  if (await countOrganisations(accounts.db) > 0) return null;
  let org;
  try {
    org = await createOrganisation(accounts, {
      slug: DEMO_ORG_SLUG,
      name: "Demo shop",
      plan: "ENTERPRISE",
    }, now);
  } catch (error) {
    // Another process starting at the same moment created it first.
    if (error instanceof ApiError && error.code === "state_conflict") return null;
    throw error;
  }
  const owner = await createUser(
    accounts,
    { orgSlug: DEMO_ORG_SLUG, email: DEMO_OWNER_EMAIL, role: "OWNER", name: "Demo owner" },
    now,
  );
  const key = await createApiKey(store, {
    orgId: org.id,
    name: "Demo key",
    environment: "sandbox",
    now,
  });
  return {
    orgSlug: org.slug,
    email: owner.user.email,
    oneTimePassword: owner.oneTimePassword,
    apiKey: key.secret,
  };
}
