import type { Kysely } from "kysely";
import * as accounts0001 from "./accounts/0001_init.ts";
import * as accounts0002 from "./accounts/0002_panel.ts";
import * as accounts0003 from "./accounts/0003_business_details.ts";
import * as accounts0004 from "./accounts/0004_user_language.ts";
import * as environment0001 from "./environment/0001_init.ts";
import * as environment0002 from "./environment/0002_webhooks.ts";
import * as environment0003 from "./environment/0003_checkout.ts";
import * as environment0004 from "./environment/0004_billing.ts";
import * as environment0005 from "./environment/0005_panel.ts";
import * as environment0006 from "./environment/0006_payment_attempts.ts";
import * as environment0007 from "./environment/0007_devtools.ts";
import * as environment0008 from "./environment/0008_operations.ts";
import * as environment0009 from "./environment/0009_customers.ts";
import * as environment0010 from "./environment/0010_customer_emails.ts";
import * as environment0011 from "./environment/0011_reconciliations.ts";
import * as environment0012 from "./environment/0012_recovery_redelivery.ts";
import * as environment0013 from "./environment/0013_renewal_links.ts";
import * as environment0014 from "./environment/0014_reconciliation_counts.ts";
import * as environment0015 from "./environment/0015_payment_methods.ts";

/** A frozen schema change; a later change is a new migration, never an edit of a landed one. */
export interface Migration {
  up(db: Kysely<unknown>): Promise<void>;
}

// NOTE: imported statically so `deno compile` embeds them; a migration file is never loaded by path.

/** Migrations of the accounts database, applied in key order. */
export const accountsMigrations: Record<string, Migration> = {
  "0001_init": accounts0001,
  "0002_panel": accounts0002,
  "0003_business_details": accounts0003,
  "0004_user_language": accounts0004,
};

/** Migrations of each environment database, applied in key order. */
export const environmentMigrations: Record<string, Migration> = {
  "0001_init": environment0001,
  "0002_webhooks": environment0002,
  "0003_checkout": environment0003,
  "0004_billing": environment0004,
  "0005_panel": environment0005,
  "0006_payment_attempts": environment0006,
  "0007_devtools": environment0007,
  "0008_operations": environment0008,
  "0009_customers": environment0009,
  "0010_customer_emails": environment0010,
  "0011_reconciliations": environment0011,
  "0012_recovery_redelivery": environment0012,
  "0013_renewal_links": environment0013,
  "0014_reconciliation_counts": environment0014,
  "0015_payment_methods": environment0015,
};
