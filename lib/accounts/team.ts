import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Store } from "../../db/client.ts";
import {
  closeInvitation,
  findInvitation,
  findInvitationByTokenHash,
  insertInvitation,
  type InvitationRecord,
  listOpenInvitations,
  revokeOpenInvitation,
} from "../../db/invitations.ts";
import { findMembership, insertMembership } from "../../db/organisations.ts";
import {
  deleteUserSessionsInOrganisation,
  setSessionOrganisation,
} from "../../db/panel_sessions.ts";
import type { AccountsSchema, InvitationRow } from "../../db/schema.ts";
import {
  countOwners,
  deleteMembership,
  findMember,
  listMembers,
  type MemberRecord,
  updateMembershipRole,
} from "../../db/team.ts";
import { findUserByEmail, insertUser } from "../../db/users.ts";
import { Email, parseField, RoleName } from "./organisations.ts";
import { ApiError } from "../errors.ts";
import { newId } from "../ids.ts";
import { type PasswordHasher, scryptPasswords } from "../passwords.ts";
import type { Language } from "../i18n/mod.ts";
import type { Role } from "../plans.ts";
import { canManageMember } from "./access.ts";
import {
  assertNewPassword,
  type ClientInfo,
  hashSessionToken,
  insertNewSession,
  type PanelSession,
  type SignedIn,
} from "./sessions.ts";

type Accounts = Store<AccountsSchema>;

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 86_400_000;

/** Who acts on the team: the signed-in user and their role. */
export interface Actor {
  userId: number;
  role: Role;
}

/** A member as the team page lists them. */
export interface Member {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  joinedAt: number;
  isYou: boolean;
}

/** An open invitation as the team page lists it. */
export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  createdAt: number;
  expiresAt: number;
  expired: boolean;
}

function toMember(row: MemberRecord, viewerId: number): Member {
  return {
    userId: row.user_public_id,
    email: row.email,
    name: row.name,
    role: row.role as Role,
    joinedAt: row.joined_at,
    isYou: row.user_id === viewerId,
  };
}

function toPendingInvitation(row: InvitationRecord, now: number): PendingInvitation {
  return {
    id: row.public_id,
    email: row.email,
    role: row.role as Role,
    invitedBy: row.invited_by_email,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    expired: row.expires_at <= now,
  };
}

/** The organisation's members and open invitations. */
export async function listTeam(
  accounts: Accounts,
  orgId: number,
  viewerId: number,
  now: number,
): Promise<{ members: Member[]; invitations: PendingInvitation[] }> {
  const [members, invitations] = await Promise.all([
    listMembers(accounts.db, orgId),
    listOpenInvitations(accounts.db, orgId),
  ]);
  return {
    members: members.map((row) => toMember(row, viewerId)),
    invitations: invitations.map((row) => toPendingInvitation(row, now)),
  };
}

function refuse(actor: Actor, what: string): ApiError {
  return new ApiError(
    "role_required",
    actor.role === "MEMBER"
      ? "Only owners and admins manage the team."
      : `Only an owner can ${what}.`,
  );
}

/** A new invitation and the token of its link, which exists nowhere else. */
interface CreatedInvitation {
  invitation: InvitationRow;
  token: string;
}

/**
 * Invites an e-mail address to the organisation with a role. The link is the invitation: it is
 * shown once to whoever invited, who passes it on. Inviting the address again replaces the
 * earlier link.
 */
export async function inviteMember(
  accounts: Accounts,
  input: { orgId: number; actor: Actor; email: string; role: string; now: number },
): Promise<CreatedInvitation> {
  const email = parseField(Email, input.email.trim(), "email");
  const role: Role = parseField(RoleName, input.role, "role");
  if (!canManageMember(input.actor.role, null, role)) throw refuse(input.actor, "invite an owner");
  const token = randomBytes(32).toString("base64url");
  const invitation = await accounts.write(async (trx) => {
    const user = await findUserByEmail(trx, email);
    if (user && await findMembership(trx, input.orgId, user.id)) {
      throw new ApiError("state_conflict", `${email} is already a member of this organisation.`, {
        param: "email",
      });
    }
    await revokeOpenInvitation(trx, input.orgId, email, input.now);
    return insertInvitation(trx, {
      public_id: newId("invitation"),
      org_id: input.orgId,
      email,
      role,
      token_hash: hashSessionToken(token),
      invited_by: input.actor.userId,
      created_at: input.now,
      expires_at: input.now + INVITATION_TTL_MS,
      accepted_at: null,
      revoked_at: null,
    });
  });
  return { invitation, token };
}

/** Revokes an open invitation; its link stops working. */
export async function revokeInvitation(
  accounts: Accounts,
  input: { orgId: number; actor: Actor; invitationId: string; now: number },
): Promise<void> {
  await accounts.write(async (trx) => {
    const invitation = await findInvitation(trx, input.orgId, input.invitationId);
    if (!invitation) {
      throw new ApiError("resource_not_found", `No invitation with id '${input.invitationId}'.`);
    }
    if (!canManageMember(input.actor.role, null, invitation.role as Role)) {
      throw refuse(input.actor, "revoke an invitation to become an owner");
    }
    if (!await closeInvitation(trx, invitation.id, { revoked_at: input.now })) {
      throw new ApiError("state_conflict", "This invitation was already accepted or revoked.");
    }
  });
}

/**
 * An invitation as its link's page shows it. It says nothing about whether the address has an
 * account: whoever invited holds the link, and must not learn that from it.
 */
export interface InvitationView {
  orgName: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  expiresAt: number;
}

async function findOpenInvitation(
  db: Kysely<AccountsSchema>,
  token: string,
  now: number,
): Promise<InvitationRecord> {
  const invitation = /^[A-Za-z0-9_-]{43}$/.test(token)
    ? await findInvitationByTokenHash(db, hashSessionToken(token))
    : undefined;
  if (!invitation) {
    throw new ApiError(
      "resource_not_found",
      "This invitation link is not valid. Ask whoever invited you for a new one.",
    );
  }
  if (invitation.accepted_at !== null || invitation.revoked_at !== null) {
    throw new ApiError(
      "state_conflict",
      invitation.accepted_at !== null
        ? "This invitation has already been used. Sign in instead."
        : "This invitation was withdrawn. Ask whoever invited you for a new one.",
    );
  }
  if (invitation.expires_at <= now) {
    throw new ApiError(
      "state_conflict",
      "This invitation has expired. Ask whoever invited you for a new one.",
    );
  }
  return invitation;
}

/** Loads what an invitation link offers; 404 for an unknown link, 409 for a used one. */
export async function loadInvitation(
  accounts: Accounts,
  token: string,
  now: number,
): Promise<InvitationView> {
  const invitation = await findOpenInvitation(accounts.db, token, now);
  return {
    orgName: invitation.org_name,
    email: invitation.email,
    role: invitation.role as Role,
    invitedBy: invitation.invited_by_email,
    expiresAt: invitation.expires_at,
  };
}

function hasAccountAlready(email: string): ApiError {
  return new ApiError(
    "state_conflict",
    `${email} already has a Paystead account. Sign in with it, then open this link again to accept.`,
  );
}

/**
 * Accepts an invitation with a new account and signs it in, in one write: the invited address
 * chooses a name and password. An address that already has an account accepts from a session
 * of that account (`joinInvitation`); no password is ever checked here.
 */
export async function acceptInvitation(
  accounts: Accounts,
  input: {
    token: string;
    name?: string;
    password: string;
    confirm?: string;
    client: ClientInfo;
    now: number;
    /** The language zxcvbn's advice is given in. */
    language?: Language;
  },
  passwords: PasswordHasher = scryptPasswords,
): Promise<SignedIn> {
  const { now } = input;
  const invitation = await findOpenInvitation(accounts.db, input.token, now);
  if (await findUserByEmail(accounts.db, invitation.email)) {
    throw hasAccountAlready(invitation.email);
  }
  const name = input.name?.trim().slice(0, 100) || null;
  await assertNewPassword(input, { email: invitation.email, name });
  const passwordHash = await passwords.hash(input.password);
  return accounts.write(async (trx) => {
    const open = await findOpenInvitation(trx, input.token, now);
    // NOTE: checked again in the write: an account made meanwhile is never given a second one.
    if (await findUserByEmail(trx, open.email)) throw hasAccountAlready(open.email);
    const user = await insertUser(trx, {
      public_id: newId("user"),
      email: open.email,
      name,
      password_hash: passwordHash,
      password_change_required: 0,
      created_at: now,
      updated_at: now,
    });
    await insertMembership(trx, {
      org_id: open.org_id,
      user_id: user.id,
      role: open.role,
      created_at: now,
    });
    await closeInvitation(trx, open.id, { accepted_at: now });
    return insertNewSession(trx, {
      userId: user.id,
      orgId: open.org_id,
      client: input.client,
      now,
    });
  });
}

/**
 * Accepts an invitation for the signed-in user, whose e-mail address it must be for, and moves
 * their session into the organisation, in one write.
 */
export async function joinInvitation(
  accounts: Accounts,
  input: { token: string; session: Pick<PanelSession, "id" | "userId" | "email">; now: number },
): Promise<void> {
  const { session, now } = input;
  await accounts.write(async (trx) => {
    const open = await findOpenInvitation(trx, input.token, now);
    if (open.email !== session.email.toLowerCase()) {
      throw new ApiError(
        "role_required",
        `This invitation is for ${open.email}, and you are signed in as ${session.email}. ` +
          `Sign out, then sign in as ${open.email} to accept it.`,
      );
    }
    if (!await findMembership(trx, open.org_id, session.userId)) {
      await insertMembership(trx, {
        org_id: open.org_id,
        user_id: session.userId,
        role: open.role,
        created_at: now,
      });
    }
    await closeInvitation(trx, open.id, { accepted_at: now });
    await setSessionOrganisation(trx, session.id, open.org_id);
  });
}

async function findMemberForChange(
  trx: Kysely<AccountsSchema>,
  orgId: number,
  userId: string,
): Promise<MemberRecord> {
  const member = await findMember(trx, orgId, userId);
  if (!member) throw new ApiError("resource_not_found", `No member with id '${userId}'.`);
  return member;
}

const LAST_OWNER = "An organisation needs at least one owner. Make someone else an owner first.";

/** Changes a member's role; the last owner keeps theirs. */
export async function changeMemberRole(
  accounts: Accounts,
  input: { orgId: number; actor: Actor; userId: string; role: string },
): Promise<void> {
  const role: Role = parseField(RoleName, input.role, "role");
  await accounts.write(async (trx) => {
    const member = await findMemberForChange(trx, input.orgId, input.userId);
    const from = member.role as Role;
    if (from === role) return;
    if (!canManageMember(input.actor.role, from, role)) {
      throw refuse(input.actor, "make someone an owner or change an owner's role");
    }
    // NOTE: counted inside the write transaction, so two owners demoting each other at once
    // are decided one after the other and one owner always remains.
    if (from === "OWNER" && await countOwners(trx, input.orgId) <= 1) {
      throw new ApiError("state_conflict", LAST_OWNER, { param: "role" });
    }
    await updateMembershipRole(trx, member.membership_id, role);
  });
}

/** Removes a member (possibly oneself) and ends their sessions in the organisation. */
export async function removeMember(
  accounts: Accounts,
  input: { orgId: number; actor: Actor; userId: string },
): Promise<void> {
  await accounts.write(async (trx) => {
    const member = await findMemberForChange(trx, input.orgId, input.userId);
    const from = member.role as Role;
    const self = member.user_id === input.actor.userId;
    if (!self && !canManageMember(input.actor.role, from, null)) {
      throw refuse(input.actor, "remove an owner");
    }
    if (from === "OWNER" && await countOwners(trx, input.orgId) <= 1) {
      throw new ApiError("state_conflict", LAST_OWNER);
    }
    await deleteMembership(trx, member.membership_id);
    await deleteUserSessionsInOrganisation(trx, member.user_id, input.orgId);
  });
}
