import { PANEL_CLEANUP_JOB } from "../jobs.ts";
import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Store } from "../../db/client.ts";
import {
  deleteExpiredSessions,
  deleteSession,
  deleteUserSessions,
  findSessionByTokenHash,
  insertSession,
  type SessionRecord,
  setSessionOrganisation,
  touchSession,
} from "../../db/panel_sessions.ts";
import type { AccountsSchema, UserRow } from "../../db/schema.ts";
import {
  deleteStaleThrottleRows,
  deleteThrottleRow,
  findThrottleRows,
  saveThrottleRow,
} from "../../db/sign_in_throttle.ts";
import { listUserOrganisations } from "../../db/team.ts";
import {
  findUserByEmail,
  findUserById,
  updateUserPassword,
  upgradePasswordHash,
} from "../../db/users.ts";
import type { Clock } from "../clock.ts";
import { ApiError } from "../errors.ts";
import { guessablePasswordProblem } from "../password_strength.ts";
import { isLanguage, type Language } from "../i18n/languages.ts";
import { type PasswordHasher, scryptPasswords } from "../passwords.ts";
import type { Plan, Role } from "../plans.ts";
import type { ScheduledJob } from "../scheduler.ts";
import {
  ACCOUNT_POLICY,
  accountSubject,
  ADDRESS_POLICY,
  addressSubject,
  afterFailure,
  afterGiveBack,
  lockedUntil,
} from "./throttle.ts";

type Accounts = Store<AccountsSchema>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A session ends after two hours without a request... */
export const SESSION_IDLE_MS = 2 * HOUR;
/** ...and twelve hours after sign-in in any case: a working day, then sign in again. */
export const SESSION_ABSOLUTE_MS = 12 * HOUR;
/** `last_seen_at` is written at most once a minute per session. */
const TOUCH_INTERVAL_MS = MINUTE;

export const MIN_PASSWORD_LENGTH = 12;
const MAX_PASSWORD_LENGTH = 200;

/** A signed-in person as every panel request sees them. */
export interface PanelSession {
  id: number;
  userId: number;
  userPublicId: string;
  email: string;
  name: string | null;
  passwordChangeRequired: boolean;
  /** The panel language the user chose; null follows the browser. */
  language: Language | null;
  org: { id: number; publicId: string; slug: string; name: string; plan: Plan };
  role: Role;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  /** The CSRF token of this session's forms (derived from the session token; never stored). */
  csrfToken: string;
}

/** The stored form of a session token: its SHA-256 (the token is 256 random bits). */
export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * The synchroniser token of a session's forms. It is derived from the session token, which only
 * the browser's HttpOnly cookie holds, so another site can neither read nor compute it, and a
 * database copy (which has only the token's hash) does not reveal it either.
 */
export function csrfTokenOf(token: string): string {
  return createHash("sha256").update(`paystead-csrf\0${token}`).digest("base64url");
}

function toPanelSession(record: SessionRecord, token: string): PanelSession {
  return {
    id: record.id,
    userId: record.user_id,
    userPublicId: record.user_public_id,
    email: record.email,
    name: record.user_name,
    passwordChangeRequired: record.password_change_required === 1,
    language: isLanguage(record.user_language) ? record.user_language : null,
    org: {
      id: record.org_id,
      publicId: record.org_public_id,
      slug: record.org_slug,
      name: record.org_name,
      plan: record.plan as Plan,
    },
    role: record.role as Role,
    createdAt: record.created_at,
    lastSeenAt: record.last_seen_at,
    expiresAt: record.expires_at,
    csrfToken: csrfTokenOf(token),
  };
}

/** Tells whether a session may still be used at `now` (neither idle too long nor too old). */
function sessionAlive(
  session: Pick<PanelSession, "lastSeenAt" | "expiresAt">,
  now: number,
): boolean {
  return session.expiresAt > now && session.lastSeenAt + SESSION_IDLE_MS > now;
}

/** Resolves a session cookie to its session, or null when unknown, ended or expired. */
export async function authenticateSession(
  accounts: Accounts,
  token: string | undefined,
  now: number,
): Promise<PanelSession | null> {
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const record = await findSessionByTokenHash(accounts.db, hashSessionToken(token));
  if (!record) return null;
  const session = toPanelSession(record, token);
  return sessionAlive(session, now) ? session : null;
}

/** Records activity on a session when its last record is a minute old (one small write). */
export async function touchSessionIfDue(
  accounts: Accounts,
  session: PanelSession,
  now: number,
): Promise<void> {
  if (now - session.lastSeenAt < TOUCH_INTERVAL_MS) return;
  await accounts.write((trx) => touchSession(trx, session.id, now));
}

const dummyHashes = new WeakMap<PasswordHasher, Promise<string>>();

/** A hash to check a password against when there is no such user, so timing tells nothing. */
function unknownUserHash(passwords: PasswordHasher): Promise<string> {
  let hash = dummyHashes.get(passwords);
  if (!hash) dummyHashes.set(passwords, hash = passwords.hash(randomBytes(16).toString("hex")));
  return hash;
}

function retryAfter(until: number, now: number): ApiError {
  const seconds = Math.max(1, Math.ceil((until - now) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new ApiError(
    "rate_limited",
    `Too many failed sign-ins. Wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
    { headers: { "Retry-After": String(seconds) } },
  );
}

/** Where a sign-in comes from, for the throttle and the session record. */
export interface ClientInfo {
  address: string | null;
  userAgent: string | null;
}

function throttleSubjects(email: string, client: ClientInfo): string[] {
  const subjects = [accountSubject(email)];
  if (client.address) subjects.push(addressSubject(client.address));
  return subjects;
}

function credentialsInvalid(): ApiError {
  return new ApiError(
    "credentials_invalid",
    "That e-mail address and password don't match an account. Check both and try again.",
  );
}

/**
 * Reserves one password check for the e-mail address and the client address: refuses with the
 * 429 when either is locked, else counts the attempt as a failure in the same write. Returns
 * until when this very attempt locked them, if it did.
 *
 * NOTE: the attempt is counted before the password is checked, in the write that reads the
 * lock, and writes run one at a time: of any number of parallel guesses at most the policy's
 * number get a reservation, so at most that many passwords are ever checked.
 */
async function reserveAttempt(
  accounts: Accounts,
  email: string,
  client: ClientInfo,
  now: number,
): Promise<number | null> {
  const outcome = await accounts.write(async (trx) => {
    const subjects = throttleSubjects(email, client);
    const rows = new Map((await findThrottleRows(trx, subjects)).map((row) => [row.subject, row]));
    const held = Math.max(0, ...[...rows.values()].map((row) => lockedUntil(row, now) ?? 0));
    if (held > now) return { refusedUntil: held, lockedBy: null };
    let lockedBy: number | null = null;
    for (const subject of subjects) {
      const next = afterFailure(subject, rows.get(subject), policyOf(subject), now);
      await saveThrottleRow(trx, next);
      const lock = lockedUntil(next, now);
      if (lock !== null) lockedBy = Math.max(lockedBy ?? 0, lock);
    }
    return { refusedUntil: null, lockedBy };
  });
  if (outcome.refusedUntil !== null) throw retryAfter(outcome.refusedUntil, now);
  return outcome.lockedBy;
}

function policyOf(subject: string) {
  return subject.startsWith("account:") ? ACCOUNT_POLICY : ADDRESS_POLICY;
}

/**
 * Gives a right password's reservation back, in one write with upgrading an old hash to today's
 * cost. The account's failures are forgotten (the right password proves its owner); the client
 * address gets back the one attempt.
 */
async function acceptAttempt(
  accounts: Accounts,
  passwords: PasswordHasher,
  input: { user: UserRow; password: string; client: ClientInfo; now: number },
): Promise<void> {
  const { user, client, now } = input;
  const upgraded = passwords.needsRehash(user.password_hash)
    ? await passwords.hash(input.password)
    : null;
  await accounts.write(async (trx) => {
    await deleteThrottleRow(trx, accountSubject(user.email));
    if (client.address) {
      const subject = addressSubject(client.address);
      const [row] = await findThrottleRows(trx, [subject]);
      if (row) await saveThrottleRow(trx, afterGiveBack(row, ADDRESS_POLICY, now));
    }
    if (upgraded) await upgradePasswordHash(trx, user.id, user.password_hash, upgraded);
  });
}

/** A new session: the token for the cookie (nowhere else) and when it ends at the latest. */
export interface SignedIn {
  token: string;
  expiresAt: number;
}

/** Creates a session for `userId` in `orgId` inside the caller's transaction. */
export async function insertNewSession(
  trx: Kysely<AccountsSchema>,
  input: { userId: number; orgId: number; client: ClientInfo; now: number },
): Promise<SignedIn> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = input.now + SESSION_ABSOLUTE_MS;
  await insertSession(trx, {
    token_hash: hashSessionToken(token),
    user_id: input.userId,
    org_id: input.orgId,
    created_at: input.now,
    last_seen_at: input.now,
    expires_at: expiresAt,
    client_address: input.client.address,
    user_agent: input.client.userAgent?.slice(0, 300) ?? null,
  });
  return { token, expiresAt };
}

function normaliseEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) {
    throw new ApiError("parameter_invalid", "Enter the e-mail address you sign in with.", {
      param: "email",
    });
  }
  return email;
}

/**
 * Checks an e-mail address and password, counting the attempt against the account and the
 * client address before the password is checked (locked subjects are refused unchecked) and
 * giving it back when the password is right. An unknown e-mail costs the same time and counts
 * the same as a wrong password, so neither timing nor messages tell which addresses have accounts.
 */
async function checkPassword(
  accounts: Accounts,
  input: { email: string; password: string; client: ClientInfo; now: number },
  passwords: PasswordHasher = scryptPasswords,
): Promise<UserRow> {
  const email = normaliseEmail(input.email);
  const { now, client } = input;
  if (input.password === "" || input.password.length > MAX_PASSWORD_LENGTH) {
    throw new ApiError("parameter_missing", "Enter your password.", { param: "password" });
  }
  const lockedBy = await reserveAttempt(accounts, email, client, now);
  const user = await findUserByEmail(accounts.db, email);
  const matches = await passwords.verify(
    input.password,
    user?.password_hash ?? await unknownUserHash(passwords),
  );
  if (!user || !matches) throw lockedBy !== null ? retryAfter(lockedBy, now) : credentialsInvalid();
  await acceptAttempt(accounts, passwords, { user, password: input.password, client, now });
  return user;
}

/** Signs someone in with e-mail and password into their first organisation. */
export async function signIn(
  accounts: Accounts,
  input: { email: string; password: string; client: ClientInfo; now: number },
  passwords: PasswordHasher = scryptPasswords,
): Promise<SignedIn> {
  const user = await checkPassword(accounts, input, passwords);
  const organisations = await listUserOrganisations(accounts.db, user.id);
  if (organisations.length === 0) {
    throw new ApiError(
      "role_required",
      "Your account no longer belongs to an organisation. Ask an owner to invite you again.",
    );
  }
  return accounts.write((trx) =>
    insertNewSession(trx, {
      userId: user.id,
      orgId: organisations[0].id,
      client: input.client,
      now: input.now,
    })
  );
}

/** Ends a session. */
export async function signOut(accounts: Accounts, sessionId: number): Promise<void> {
  await accounts.write((trx) => deleteSession(trx, sessionId));
}

/**
 * Why a new password is not acceptable (too short or long, or guessable for this person), or
 * null.
 */
async function passwordProblem(
  password: string,
  person: { email: string; name?: string | null },
  language: Language,
): Promise<string | null> {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `Use at least ${MIN_PASSWORD_LENGTH} characters; a few unrelated words make a good one.`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  }
  if (password.trim().toLowerCase() === person.email.toLowerCase()) {
    return "Don't use your e-mail address as your password.";
  }
  return await guessablePasswordProblem(password, person, language);
}

/** Throws the form's error when a new password and its repetition are not acceptable. */
export async function assertNewPassword(
  input: { password: string; confirm?: string; language?: Language },
  person: { email: string; name?: string | null },
): Promise<void> {
  const problem = await passwordProblem(input.password, person, input.language ?? "en");
  if (problem) throw new ApiError("parameter_invalid", problem, { param: "password" });
  if (input.password !== input.confirm) {
    throw new ApiError("parameter_invalid", "The two passwords are not the same.", {
      param: "confirm",
    });
  }
}

/**
 * Changes the signed-in user's password and ends their other sessions, in one write. The
 * current password is asked for (and checked like a sign-in) unless this is the change forced
 * after a one-time password.
 */
export async function changePassword(
  accounts: Accounts,
  session: PanelSession,
  input: {
    current: string;
    password: string;
    confirm: string;
    client: ClientInfo;
    now: number;
    /** The language zxcvbn's advice is given in. */
    language?: Language;
  },
  passwords: PasswordHasher = scryptPasswords,
): Promise<void> {
  const { now } = input;
  const user = await findUserById(accounts.db, session.userId);
  if (!user) throw new ApiError("not_signed_in", "Sign in again.");
  // The new password is judged first: a weak choice must not spend a sign-in attempt.
  await assertNewPassword(input, user);
  if (!session.passwordChangeRequired) {
    try {
      await checkPassword(accounts, {
        email: user.email,
        password: input.current,
        client: input.client,
        now,
      }, passwords);
    } catch (error) {
      if (error instanceof ApiError && error.code === "credentials_invalid") {
        throw new ApiError("parameter_invalid", "Your current password is not right.", {
          param: "current",
        });
      }
      if (error instanceof ApiError && error.code === "parameter_missing") {
        throw new ApiError("parameter_missing", "Enter your current password.", {
          param: "current",
        });
      }
      throw error;
    }
  }
  if (await passwords.verify(input.password, user.password_hash)) {
    throw new ApiError(
      "parameter_invalid",
      session.passwordChangeRequired
        ? "Choose your own password rather than the one-time one."
        : "That is your current password; choose a new one.",
      { param: "password" },
    );
  }
  const hash = await passwords.hash(input.password);
  await accounts.write(async (trx) => {
    await updateUserPassword(trx, user.id, hash, now);
    await deleteUserSessions(trx, user.id, session.id);
  });
}

/** The organisations the signed-in user belongs to, for the switcher. */
export async function userOrganisations(accounts: Accounts, userId: number) {
  return (await listUserOrganisations(accounts.db, userId)).map((org) => ({
    slug: org.slug,
    name: org.name,
    role: org.role as Role,
  }));
}

/** Moves the session to another of the user's organisations. */
export async function switchOrganisation(
  accounts: Accounts,
  session: PanelSession,
  slug: string,
): Promise<void> {
  await accounts.write(async (trx) => {
    const target = (await listUserOrganisations(trx, session.userId))
      .find((org) => org.slug === slug);
    if (!target) {
      throw new ApiError("resource_not_found", `You are not a member of '${slug}'.`, {
        param: "org",
      });
    }
    await setSessionOrganisation(trx, session.id, target.id);
  });
}

/** Deletes ended sessions and throttle rows nobody needs any more, hourly. */
export function panelCleanupJob(accounts: Accounts, clock: Clock): ScheduledJob {
  return {
    name: PANEL_CLEANUP_JOB,
    async run(now) {
      while (
        await accounts.write((trx) =>
          deleteExpiredSessions(trx, now, now - SESSION_IDLE_MS, 500)
        ) === 500
      ) {
        // small transactions, so sign-ins interleave
      }
      await accounts.write((trx) => deleteStaleThrottleRows(trx, now - 24 * HOUR));
      return clock.now() + HOUR;
    },
  };
}
