import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { randomToken } from "./ids.ts";

const KEY_LENGTH = 32;

/** The cost of new hashes: OWASP's minimum for scrypt (N=2^17, r=8, p=1, 128 MiB each). */
export const PASSWORD_COST = { N: 2 ** 17, r: 8, p: 1 } as const;
/** scrypt needs 128·N·r bytes; the default limit (32 MiB) would refuse N=2^17. */
const MAX_MEMORY = 256 * 1024 * 1024;
/** Stored hashes are ours, but a damaged one must not make a check take minutes or gigabytes. */
const MAX_STORED_N = 2 ** 20;

/**
 * NOTE: each derivation holds 128 MiB for a few hundred milliseconds. Sign-ins from many
 * addresses against many accounts are all allowed by the throttle, so without a bound a burst
 * could take gigabytes and the process would be killed; beyond this many, checks wait in turn.
 */
const MAX_PARALLEL_DERIVATIONS = 4;
let running = 0;
const waiting: (() => void)[] = [];

async function derive(
  password: string,
  salt: Buffer,
  cost: { N: number; r: number; p: number },
): Promise<Buffer> {
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
  cost: { N: number; r: number; p: number };
  salt: Buffer;
  hash: Buffer;
}

function parseHash(stored: string): ParsedHash | null {
  const [scheme, n, r, p, salt, hash, ...rest] = stored.split("$");
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const valid = scheme === "scrypt" && rest.length === 0 && !!salt && !!hash &&
    Number.isInteger(cost.N) && cost.N > 1 && cost.N <= MAX_STORED_N &&
    Number.isInteger(cost.r) && cost.r >= 1 && cost.r <= 32 &&
    Number.isInteger(cost.p) && cost.p >= 1 && cost.p <= 16;
  if (!valid) return null;
  return { cost, salt: Buffer.from(salt, "base64"), hash: Buffer.from(hash, "base64") };
}

/** Hashes a password with scrypt and a random salt: `scrypt$N$r$p$salt$hash` (base64). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PASSWORD_COST);
  const { N, r, p } = PASSWORD_COST;
  return ["scrypt", N, r, p, salt.toString("base64"), key.toString("base64")].join("$");
}

/** Checks a password against a stored hash (at the cost it records) in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.cost);
  return key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash);
}

/** Tells whether a stored hash was made at another cost than today's (rehash it at sign-in). */
export function needsRehash(stored: string): boolean {
  const cost = parseHash(stored)?.cost;
  return cost === undefined || cost.N !== PASSWORD_COST.N || cost.r !== PASSWORD_COST.r ||
    cost.p !== PASSWORD_COST.p;
}

/** How passwords are hashed and checked; tests wrap it to count the checks. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
}

/** The hasher of every process: scrypt at `PASSWORD_COST`. */
export const scryptPasswords: PasswordHasher = { hash: hashPassword, verify: verifyPassword };

/** A random password for a new user, to be changed at first sign-in. */
export function generatePassword(): string {
  return randomToken(20);
}
