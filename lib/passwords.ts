import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { randomToken } from "./ids.ts";

const KEY_LENGTH = 32;

/** The cost of new hashes: OWASP's minimum for scrypt (N=2^17, r=8, p=1, 128 MiB each). */
const PASSWORD_COST = { N: 2 ** 17, r: 8, p: 1 } as const;
/**
 * What one derivation may take: twice today's cost, so a hash made costlier later still checks.
 * Stored hashes are ours, but a damaged one must not make a check take gigabytes (or fail with
 * a 500): one asking for more than this is no valid hash.
 */
const MAX_MEMORY = 512 * 1024 * 1024;

/**
 * NOTE: each derivation holds 128 MiB for a few hundred milliseconds. Sign-ins from many
 * addresses against many accounts are all allowed by the throttle, so without a bound a burst
 * could take gigabytes and the process would be killed; beyond this many, checks wait in turn.
 */
const MAX_PARALLEL_DERIVATIONS = 4;
let running = 0;
const waiting: (() => void)[] = [];

async function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  if (running >= MAX_PARALLEL_DERIVATIONS) {
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running++;
  }
  try {
    return await new Promise((resolve, reject) =>
      scrypt(
        password.normalize("NFKC"),
        salt,
        KEY_LENGTH,
        { ...cost, maxmem: MAX_MEMORY },
        (error, key) => error ? reject(error) : resolve(key),
      )
    );
  } finally {
    // The slot passes straight to the next waiter, so `running` counts held slots.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

interface ParsedHash {
  cost: ScryptCost;
  salt: Buffer;
  hash: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const [scheme, n, r, p, salt, hash, ...rest] = stored.split("$");
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const valid = scheme === "scrypt" && rest.length === 0 && !!salt && !!hash &&
    Number.isInteger(cost.N) && cost.N > 1 && (cost.N & (cost.N - 1)) === 0 &&
    Number.isInteger(cost.r) && cost.r >= 1 &&
    Number.isInteger(cost.p) && cost.p >= 1 && cost.p <= 16 &&
    scryptMemory(cost) <= MAX_MEMORY;
  if (!valid) return null;
  return { cost, salt: Buffer.from(salt, "base64"), hash: Buffer.from(hash, "base64") };
}

/** The memory scrypt needs at `cost` (Node refuses more than its `maxmem`). */
function scryptMemory(cost: ScryptCost): number {
  return 128 * cost.r * (cost.N + cost.p + 2);
}

/** scrypt's cost parameters. */
interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** How passwords are hashed and checked. */
export interface PasswordHasher {
  /** Hashes with a random salt: `scrypt$N$r$p$salt$hash` (base64), so the cost is recorded. */
  hash(password: string): Promise<string>;
  /** Checks a password against a stored hash, at the cost it records, in constant time. */
  verify(password: string, stored: string): Promise<boolean>;
  /** Tells whether a stored hash is cheaper than this hasher's (rehash it at sign-in). */
  needsRehash(stored: string): boolean;
}

/** A scrypt hasher making hashes at `cost`. */
export function scryptHasher(cost: ScryptCost): PasswordHasher {
  return {
    async hash(password) {
      const salt = randomBytes(16);
      const key = await derive(password, salt, cost);
      return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64"), key.toString("base64")]
        .join("$");
    },
    async verify(password, stored) {
      const parsed = parseHash(stored);
      if (!parsed) return false;
      const key = await derive(password, parsed.salt, parsed.cost);
      return key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash);
    },
    needsRehash(stored) {
      const old = parseHash(stored)?.cost;
      return old === undefined || old.N < cost.N || old.r < cost.r || old.p < cost.p;
    },
  };
}

/** The hasher of every process: scrypt at `PASSWORD_COST`. */
export const scryptPasswords: PasswordHasher = scryptHasher(PASSWORD_COST);

/** Hashes a password at `PASSWORD_COST`. */
export function hashPassword(password: string): Promise<string> {
  return scryptPasswords.hash(password);
}

/** Checks a password against a stored hash (at the cost it records) in constant time. */
export function verifyPassword(password: string, stored: string): Promise<boolean> {
  return scryptPasswords.verify(password, stored);
}

/** A random password for a new user, to be changed at first sign-in. */
export function generatePassword(): string {
  return randomToken(20);
}
