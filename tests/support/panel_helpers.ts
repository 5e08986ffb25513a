import assert from "node:assert/strict";
import { createUser } from "../../lib/accounts/organisations.ts";
import { updateUserPassword } from "../../db/users.ts";
import type { Plan, Role } from "../../lib/plans.ts";
import { csrfTokenOf } from "../../lib/accounts/sessions.ts";
import type { PasswordHasher } from "../../lib/passwords.ts";
import type { PaymentProvider } from "../../lib/providers/mod.ts";
import { makeTestApp, TEST_PASSWORDS, type TestApp } from "./helpers.ts";

/** A password that passes the panel's rules, for test users. */
export const PASSWORD = "correct horse battery staple";

/** The tests' hasher, counting the password checks. */
export function countingPasswords(): PasswordHasher & { checks: number } {
  const counter = {
    checks: 0,
    hash: (password: string) => TEST_PASSWORDS.hash(password),
    needsRehash: (stored: string) => TEST_PASSWORDS.needsRehash(stored),
    verify(password: string, stored: string) {
      counter.checks++;
      return TEST_PASSWORDS.verify(password, stored);
    },
  };
  return counter;
}

/** Adds a user to the test organisation with a role and a chosen password (no forced change). */
export async function addUser(
  t: Pick<TestApp, "accounts" | "clock"> & { services?: { passwords: PasswordHasher } },
  options: {
    email: string;
    role: Role;
    password?: string;
    name?: string;
    keepOneTime?: boolean;
    orgSlug?: string;
  },
): Promise<{ email: string; password: string; userId: number }> {
  const created = await createUser(t.accounts, {
    orgSlug: options.orgSlug ?? "acme",
    email: options.email,
    role: options.role,
    name: options.name,
  }, t.clock.now());
  if (options.keepOneTime) {
    return { email: options.email, password: created.oneTimePassword, userId: created.user.id };
  }
  const password = options.password ?? PASSWORD;
  const hash = await (t.services?.passwords ?? TEST_PASSWORDS).hash(password);
  await t.accounts.write((trx) => updateUserPassword(trx, created.user.id, hash, t.clock.now()));
  return { email: options.email, password, userId: created.user.id };
}

/** A browser stand-in: keeps the session cookie and sends forms as the panel's pages do. */
export class PanelAgent {
  cookies = new Map<string, string>();
  /** The connection's peer as Deno.serve would report it (the throttle's client address). */
  remoteAddress: string | null = null;

  constructor(readonly t: Pick<TestApp, "app">) {}

  #env() {
    return this.remoteAddress === null
      ? undefined
      : { remoteAddr: { hostname: this.remoteAddress } };
  }

  /** The session token in the cookie jar, if signed in. */
  get token(): string | undefined {
    for (const [name, value] of this.cookies) if (name.endsWith("paystead_session")) return value;
    return undefined;
  }

  /** The CSRF token of the current session. */
  get csrf(): string {
    const token = this.token;
    assert.ok(token, "not signed in");
    return csrfTokenOf(token);
  }

  #cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return {
      cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
    };
  }

  #keep(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const [name, value] = pair.split("=");
      const expired = attributes.some((attribute) => /max-age=0/i.test(attribute.trim()));
      if (expired || value === "") this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    return response;
  }

  /** GET a page (or JSON with `accept`). */
  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.#keep(
      await this.t.app.request(path, {
        headers: { accept: "text/html", ...this.#cookieHeader(), ...headers },
      }, this.#env()),
    );
  }

  /** POSTs a form from this origin, with the session's CSRF token unless told otherwise. */
  async post(
    path: string,
    form: Record<string, string | string[]> = {},
    options: { csrf?: string | null; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const body = new URLSearchParams();
    const csrf = options.csrf === undefined ? (this.token ? this.csrf : null) : options.csrf;
    if (csrf !== null) body.append("_csrf", csrf);
    for (const [name, value] of Object.entries(form)) {
      for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
    }
    return this.#keep(
      await this.t.app.request(path, {
        method: "POST",
        headers: {
          accept: "text/html",
          "content-type": "application/x-www-form-urlencoded",
          "sec-fetch-site": "same-origin",
          ...this.#cookieHeader(),
          ...options.headers,
        },
        body,
      }, this.#env()),
    );
  }

  /** POSTs JSON as an island does (CSRF header). */
  async postJson(path: string, body: unknown): Promise<Response> {
    return this.#keep(
      await this.t.app.request(path, {
        method: "POST",
        headers: {
          accept: "application/json",
          "content-type": "application/json",
          "sec-fetch-site": "same-origin",
          "x-csrf-token": this.csrf,
          ...this.#cookieHeader(),
        },
        body: JSON.stringify(body),
      }, this.#env()),
    );
  }

  /** Signs in and expects the redirect into the panel. */
  async signIn(email: string, password: string): Promise<Response> {
    const response = await this.post("/panel/sign-in", { email, password });
    assert.equal(response.status, 303, await response.clone().text());
    return response;
  }
}

/** A test app with a signed-in user of the given role on the given plan. */
export async function signedInApp(
  options: {
    role?: Role;
    plan?: Plan;
    env?: Record<string, string>;
    environment?: "sandbox" | "production";
    provider?: PaymentProvider;
  } = {},
): Promise<{ t: TestApp; agent: PanelAgent; email: string }> {
  const t = await makeTestApp({
    plan: options.plan,
    env: options.env,
    environment: options.environment,
    provider: options.provider,
  });
  const email = `${(options.role ?? "OWNER").toLowerCase()}@acme.test`;
  const user = await addUser(t, { email, role: options.role ?? "OWNER", name: "Ada Lovelace" });
  const agent = new PanelAgent(t);
  await agent.signIn(user.email, user.password);
  return { t, agent, email };
}

/** The text of a page without tags, whitespace collapsed, for assertions on what people read. */
export function pageText(html: string): string {
  return html.replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, " ").replace(/\u00a0/g, " ")
    .replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'").replace(/\s+/g, " ").trim();
}
