import { z } from "zod";
import type { Store } from "../../db/client.ts";
import {
  findOrganisation,
  findOrganisationBySlug,
  insertMembership,
  insertOrganisation,
  updateOrganisationPlan,
} from "../../db/organisations.ts";
import { deleteUserSessions } from "../../db/panel_sessions.ts";
import { findMemberByEmail } from "../../db/team.ts";
import { findUserByEmail, insertUser, updateUserPassword } from "../../db/users.ts";
import type { AccountsSchema, OrganisationRow, UserRow } from "../../db/schema.ts";
import { ApiError } from "../errors.ts";
import { newId } from "../ids.ts";
import { generatePassword, hashPassword } from "../passwords.ts";
import { type Plan, PLANS, type Role, ROLES } from "../plans.ts";

type Accounts = Store<AccountsSchema>;

const OrganisationSlug = z.string().regex(
  /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/,
  "must be 1 to 48 lower-case letters, digits or dashes, not starting or ending with a dash",
);
const OrganisationName = z.string().trim().min(1, "must not be empty").max(100);
const PlanName = z.enum(PLANS, `must be one of ${PLANS.join(", ")}`);
export const RoleName = z.enum(ROLES, `must be one of ${ROLES.join(", ")}`);
export const Email = z.email("must be an e-mail address").max(254).transform((value) =>
  value.toLowerCase()
);

/** Validates one value, turning a failure into an `ApiError` that names the field. */
export function parseField<T extends z.ZodType>(
  schema: T,
  value: unknown,
  param: string,
): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new ApiError(
      "parameter_invalid",
      `${param} ${result.error.issues[0].message}.`,
      { param },
    );
  }
  return result.data;
}

/** Creates an organisation; the slug must be unused. */
export async function createOrganisation(
  accounts: Accounts,
  input: { slug: string; name: string; plan: string },
  now: number,
): Promise<OrganisationRow> {
  const slug = parseField(OrganisationSlug, input.slug, "slug");
  const name = parseField(OrganisationName, input.name, "name");
  const plan = parseField(PlanName, input.plan, "plan");
  return await accounts.write(async (trx) => {
    if (await findOrganisationBySlug(trx, slug)) {
      throw new ApiError("state_conflict", `An organisation with slug '${slug}' already exists.`, {
        param: "slug",
      });
    }
    return insertOrganisation(trx, {
      public_id: newId("organisation"),
      slug,
      name,
      plan,
      created_at: now,
      updated_at: now,
    });
  });
}

/** Finds an organisation by slug or throws a 404 naming it. */
async function requireOrganisationBySlug(
  accounts: Accounts,
  slug: string,
): Promise<OrganisationRow> {
  const org = await findOrganisationBySlug(accounts.db, slug);
  if (!org) throw new ApiError("resource_not_found", `No organisation with slug '${slug}'.`);
  return org;
}

/** Loads an organisation by its internal id. */
export function getOrganisation(
  accounts: Accounts,
  id: number,
): Promise<OrganisationRow | undefined> {
  return findOrganisation(accounts.db, id);
}

/** Moves an organisation to another plan. */
export async function setOrganisationPlan(
  accounts: Accounts,
  slug: string,
  plan: string,
  now: number,
): Promise<OrganisationRow> {
  const planName: Plan = parseField(PlanName, plan, "plan");
  const org = await requireOrganisationBySlug(accounts, slug);
  const updated = await accounts.write((trx) => updateOrganisationPlan(trx, org.id, planName, now));
  if (!updated) throw new ApiError("resource_not_found", `No organisation with slug '${slug}'.`);
  return updated;
}

/** A new user and the one-time password they sign in with before choosing their own. */
interface CreatedUser {
  user: UserRow;
  role: Role;
  oneTimePassword: string;
}

/** Creates a user in an organisation with a role and a one-time password. */
export async function createUser(
  accounts: Accounts,
  input: { orgSlug: string; email: string; role: string; name?: string },
  now: number,
): Promise<CreatedUser> {
  const email = parseField(Email, input.email, "email");
  const role: Role = parseField(RoleName, input.role, "role");
  const org = await requireOrganisationBySlug(accounts, input.orgSlug);
  const oneTimePassword = generatePassword();
  const passwordHash = await hashPassword(oneTimePassword);
  const user = await accounts.write(async (trx) => {
    if (await findUserByEmail(trx, email)) {
      throw new ApiError("state_conflict", `A user with e-mail ${email} already exists.`, {
        param: "email",
      });
    }
    const user = await insertUser(trx, {
      public_id: newId("user"),
      email,
      name: input.name ?? null,
      password_hash: passwordHash,
      password_change_required: 1,
      created_at: now,
      updated_at: now,
    });
    await insertMembership(trx, { org_id: org.id, user_id: user.id, role, created_at: now });
    return user;
  });
  return { user, role, oneTimePassword };
}

/**
 * Gives a member of an organisation a new one-time password (`user reset-password`), so an owner
 * who lost theirs is not locked out; their panel sessions end, as whoever held one may not be them.
 */
export async function resetUserPassword(
  accounts: Accounts,
  input: { orgSlug: string; email: string },
  now: number,
): Promise<{ email: string; role: string; oneTimePassword: string }> {
  const email = parseField(Email, input.email, "email");
  const org = await requireOrganisationBySlug(accounts, input.orgSlug);
  const oneTimePassword = generatePassword();
  const passwordHash = await hashPassword(oneTimePassword);
  const member = await accounts.write(async (trx) => {
    const member = await findMemberByEmail(trx, org.id, email);
    if (!member) {
      throw new ApiError(
        "resource_not_found",
        `No member of '${org.slug}' has the e-mail ${email}.`,
        { param: "email" },
      );
    }
    await updateUserPassword(trx, member.user_id, passwordHash, now, true);
    await deleteUserSessions(trx, member.user_id);
    return member;
  });
  return { email: member.email, role: member.role, oneTimePassword };
}
