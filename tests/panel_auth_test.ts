import assert from "node:assert/strict";
import { migrate, openStore } from "../db/client.ts";
import { accountsMigrations, environmentMigrations } from "../db/migrations/mod.ts";
import type { AccountsSchema, EnvironmentSchema } from "../db/schema.ts";
import { findThrottleRows, saveThrottleRow } from "../db/sign_in_throttle.ts";
import { ManualClock } from "../lib/clock.ts";
import { loadConfig } from "../lib/config.ts";
import { DEMO_OWNER_EMAIL, ensureDemoOrganisation } from "../lib/demo.ts";
import { silentLogger } from "../lib/log.ts";
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "../lib/accounts/sessions.ts";
import { ACCOUNT_POLICY, ADDRESS_POLICY } from "../lib/accounts/throttle.ts";
import { createApp } from "../routes/app.ts";
import { makeTestApp } from "./helpers.ts";
import { addUser, pageText, PanelAgent, PASSWORD, signedInApp } from "./panel_helpers.ts";
import { PAYU_TEST_ENV } from "./processes.ts";

const MINUTE = 60_000;

function cookieOf(response: Response): string {
  const [cookie] = response.headers.getSetCookie();
  assert.ok(cookie, "a Set-Cookie header");
  return cookie;
}

Deno.test("[panel auth] signing in sets a host-only, HttpOnly, Lax, Secure session cookie", async () => {
  const t = await makeTestApp();
  try {
    const user = await addUser(t, { email: "ada@acme.test", role: "OWNER" });
    const agent = new PanelAgent(t);
    const response = await agent.post("/panel/sign-in", {
      email: "  Ada@Acme.TEST ",
      password: user.password,
      next: "/panel/payments?status=FAILED",
    });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get("location"), "/panel/payments?status=FAILED");
    const cookie = cookieOf(response);
    assert.match(cookie, /^__Host-paystead_session=[A-Za-z0-9_-]{43}; /);
    const attributes = cookie.split("; ").slice(1).sort();
    assert.deepEqual(attributes, ["HttpOnly", "Max-Age=43200", "Path=/", "SameSite=Lax", "Secure"]);
    const page = await agent.get("/panel/payments");
    assert.equal(page.status, 200);
    assert.equal(page.headers.get("content-type"), "text/html; charset=UTF-8");
    assert.equal(page.headers.get("cache-control"), "no-store");
    assert.match(page.headers.get("content-security-policy") ?? "", /frame-ancestors 'none'/);
    assert.equal(page.headers.get("x-frame-options"), "DENY");
  } finally {
    await t.close();
  }
});

Deno.test("[panel auth] on http://localhost the cookie cannot be Secure, so it is not", async () => {
  const t = await makeTestApp({
    env: { PUBLIC_URL: "http://localhost:8787", SANDBOX_PUBLIC_URL: "http://localhost:8787" },
  });
  try {
    const user = await addUser(t, { email: "ada@acme.test", role: "OWNER" });
    const response = await new PanelAgent(t).post("/panel/sign-in", {
      email: user.email,
      password: user.password,
    });
    assert.equal(response.status, 303);
    const cookie = cookieOf(response);
    assert.match(cookie, /^paystead_session=/);
    assert.equal(cookie.includes("Secure"), false);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
  } finally {
    await t.close();
  }
});

Deno.test("[panel auth] wrong passwords and unknown addresses get the same answer", async () => {
  const t = await makeTestApp();
  try {
    await addUser(t, { email: "ada@acme.test", role: "OWNER" });
    const agent = new PanelAgent(t);
    for (const email of ["ada@acme.test", "nobody@acme.test"]) {
      const response = await agent.post("/panel/sign-in", { email, password: "wrong password!" });
      assert.equal(response.status, 401);
      assert.equal(response.headers.getSetCookie().length, 0);
      assert.match(
        pageText(await response.text()),
        /That e-mail address and password don't match an account\. Check both and try again\./,
      );
    }
    const blank = await agent.post("/panel/sign-in", { email: "ada@acme.test", password: "" });
    assert.equal(blank.status, 400);
    assert.match(pageText(await blank.text()), /Enter your password\./);
  } finally {
    await t.close();
  }
});

Deno.test("[panel auth] sign-in goes back only to panel pages (no open redirect)", async () => {
  const t = await makeTestApp();
  try {
    const user = await addUser(t, { email: "ada@acme.test", role: "OWNER" });
    for (const next of ["https://evil.example/", "//evil.example/panel", "/\\evil", "/api/v1/qr"]) {
      const response = await new PanelAgent(t).post("/panel/sign-in", {
        email: user.email,
        password: user.password,
        next,
      });
      assert.equal(response.status, 303);
      assert.equal(response.headers.get("location"), "/panel", next);
    }
    const page = await new PanelAgent(t).get("/panel/offers?active=true");
    assert.equal(page.status, 303);
    assert.equal(
      page.headers.get("location"),
      "/panel/sign-in?next=%2Fpanel%2Foffers%3Factive%3Dtrue",
    );
  } finally {
    await t.close();
  }
});

Deno.test("[panel auth] five wrong passwords lock the account for 15 minutes", async () => {
  const t = await makeTestApp();
  try {
    const user = await addUser(t, { email: "ada@acme.test", role: "OWNER" });
    const agent = new PanelAgent(t);
    for (let attempt = 1; attempt < ACCOUNT_POLICY.maxFailures; attempt++) {
      const response = await agent.post("/panel/sign-in", {
        email: user.email,
        password: "wrong password!",
      });
      assert.equal(response.status, 401, `attempt ${attempt}`);
    }
    const locking = await agent.post("/panel/sign-in", {
      email: user.email,
      password: "wrong password!",
    });
    assert.equal(locking.status, 429);
    assert.equal(locking.headers.get("retry-after"), "900");
    assert.match(pageText(await locking.text()), /Too many failed sign-ins\. Wait 15 minutes/);
    // Locked: even the right password is refused, without being checked.
    const right = await agent.post("/panel/sign-in", {
      email: user.email,
      password: user.password,
    });
    assert.equal(right.status, 429);
    assert.equal(right.headers.get("retry-after"), "900");
    t.clock.advance(14 * MINUTE);
    const still = await agent.post("/panel/sign-in", {
      email: user.email,
      password: user.password,
    });
    assert.equal(still.status, 429);
    assert.equal(still.headers.get("retry-after"), "60");
    t.clock.advance(MINUTE);
    await agent.signIn(user.email, user.password);
  } finally {
    await t.close();
  }
});

Deno.test("[panel auth] one client address guessing across accounts is locked too", async () => {
  const t = await makeTestApp();
  try {
    const user = await addUser(t, { email: "ada@acme.test", role: "OWNER" });
    const attacker = new PanelAgent(t);
    attacker.remoteAddress = "203.0.113.7";
    for (let attempt = 1; attempt <= 3; attempt++) {
      const response = await attacker.post("/panel/sign-in", {
        email: `guess${attempt}@acme.test`,
        password: "wrong password!",
      });
      assert.equal(response.status, 401, `attempt ${attempt}`);
    }
    const [row] = await findThrottleRows(t.accounts.db, ["address:203.0.113.7"]);
    assert.equal(row.failures, 3, "counted per address, across the e-mails tried");
    // The rest of the guesses, without spending a scrypt on each.
    await t.accounts.write((trx) =>
      saveThrottleRow(trx, { ...row, failures: ADDRESS_POLICY.maxFailures - 1 })
    );
    const last = await attacker.post("/panel/sign-in", {
      email: "guess-last@acme.test",
      password: "wrong password!",
    });
    assert.equal(last.status, 429);
    // That address may not even try the real account now; another address may.
    const blocked = await attacker.post("/panel/sign-in", {
      email: user.email,
      password: user.password,
    });
    assert.equal(blocked.status, 429);
    const colleague = new PanelAgent(t);
    colleague.remoteAddress = "198.51.100.20";
    await colleague.signIn(user.email, user.password);
  } finally {
    await t.close();
  }
});

Deno.test("[panel auth] every form needs the session's CSRF token and this origin", async () => {
  const { t, agent } = await signedInApp();
  try {
    const form = { name: "Espresso", amount: "12.50", currency: "PLN" };
    const missing = await agent.post("/panel/offers", form, { csrf: null });
    assert.equal(missing.status, 403);
    assert.match(pageText(await missing.text()), /Reload it and try again\./);
    const wrong = await agent.post("/panel/offers", form, { csrf: "x".repeat(43) });
    assert.equal(wrong.status, 403);
    const crossSite = await agent.post("/panel/offers", form, {
      headers: { "sec-fetch-site": "cross-site" },
    });
    assert.equal(crossSite.status, 403);
    const island = await t.app.request("/panel/developers/quickstart/run/offer", {
      method: "POST",
      headers: {
        accept: "application/json",
        "content-type": "application/json",
        cookie: `__Host-paystead_session=${agent.token}`,
      },
      body: "{}",
    });
    assert.equal(island.status, 403);
    assert.equal((await island.json()).error.code, "csrf_failed");
    const offers = await (await t.request("GET", "/api/v1/qr")).json();
    assert.equal(offers.data.length, 0, "nothing was created");
    const ok = await agent.post("/panel/offers", form);
    assert.equal(ok.status, 303);
    // A sign-in form posted from another site is refused as well (login CSRF).
    const login = await new PanelAgent(t).post("/panel/sign-in", {
      email: "owner@acme.test",
      password: PASSWORD,
    }, { headers: { "sec-fetch-site": "cross-site" } });
    assert.equal(login.status, 403);
  } finally {
    await t.close();
  }
});

Deno.test("[panel auth] sessions end after 2 idle hours and 12 hours in all", async (s) => {
  const { t, agent } = await signedInApp();
  try {
    await s.step("activity keeps a session going", async () => {
      t.clock.advance(SESSION_IDLE_MS - MINUTE);
      assert.equal((await agent.get("/panel")).status, 200);
      t.clock.advance(SESSION_IDLE_MS - MINUTE);
      assert.equal((await agent.get("/panel")).status, 200);
    });
    await s.step("two hours without a request end it", async () => {
      t.clock.advance(SESSION_IDLE_MS);
      const page = await agent.get("/panel/team");
      assert.equal(page.status, 303);
      assert.equal(page.headers.get("location"), "/panel/sign-in?next=%2Fpanel%2Fteam");
      assert.match(page.headers.getSetCookie()[0], /Max-Age=0/);
      const json = await new PanelAgent(t).get("/panel/developers/quickstart/watch", {
        accept: "application/json",
      });
      assert.equal(json.status, 401);
      assert.equal((await json.json()).error.code, "not_signed_in");
    });
    await s.step("twelve hours after sign-in it ends, however active", async () => {
      await agent.signIn("owner@acme.test", PASSWORD);
      for (let elapsed = 0; elapsed < SESSION_ABSOLUTE_MS - 30 * MINUTE; elapsed += 30 * MINUTE) {
        t.clock.advance(30 * MINUTE);
        assert.equal((await agent.get("/panel")).status, 200, `after ${elapsed}`);
      }
      t.clock.advance(30 * MINUTE);
      assert.equal((await agent.get("/panel")).status, 303);
    });
  } finally {
    await t.close();
  }
});

Deno.test("[panel auth] signing out ends the session for good", async () => {
  const { t, agent } = await signedInApp();
  try {
    const token = agent.token!;
    const out = await agent.post("/panel/sign-out");
    assert.equal(out.status, 303);
    assert.equal(out.headers.get("location"), "/panel/sign-in?notice=signed-out");
    assert.match(out.headers.getSetCookie()[0], /^__Host-paystead_session=; Max-Age=0/);
    const replay = new PanelAgent(t);
    replay.cookies.set("__Host-paystead_session", token);
    assert.equal((await replay.get("/panel")).status, 303);
  } finally {
    await t.close();
  }
});

Deno.test("[panel auth] changing the password needs the current one and ends other sessions", async () => {
  const { t, agent, email } = await signedInApp();
  try {
    const laptop = new PanelAgent(t);
    await laptop.signIn(email, PASSWORD);
    const wrong = await agent.post("/panel/password", {
      current: "not my password",
      password: "a much better passphrase",
      confirm: "a much better passphrase",
    });
    assert.equal(wrong.status, 400);
    assert.match(pageText(await wrong.text()), /Your current password is not right\./);
    const short = await agent.post("/panel/password", {
      current: PASSWORD,
      password: "short",
      confirm: "short",
    });
    assert.equal(short.status, 400);
    assert.match(pageText(await short.text()), /Use at least 12 characters/);
    const changed = await agent.post("/panel/password", {
      current: PASSWORD,
      password: "a much better passphrase",
      confirm: "a much better passphrase",
    });
    assert.equal(changed.status, 303);
    assert.equal(changed.headers.get("location"), "/panel/account?notice=password-changed");
    assert.equal((await agent.get("/panel")).status, 200, "this session goes on");
    assert.equal((await laptop.get("/panel")).status, 303, "the other one ended");
    const old = await new PanelAgent(t).post("/panel/sign-in", { email, password: PASSWORD });
    assert.equal(old.status, 401);
    await new PanelAgent(t).signIn(email, "a much better passphrase");
  } finally {
    await t.close();
  }
});

Deno.test("[panel auth] the demo owner signs in with the printed password and must choose one", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-demo-" });
  const config = loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: "http://sandbox.test" });
  const accounts = await openStore<AccountsSchema>(config.accountsDatabaseUrl);
  const store = await openStore<EnvironmentSchema>(config.databaseUrl);
  await migrate(accounts, accountsMigrations);
  await migrate(store, environmentMigrations);
  const clock = new ManualClock();
  const built = createApp({ config, store, accounts, clock, log: silentLogger });
  try {
    const demo = await ensureDemoOrganisation(accounts, store, clock.now());
    assert.ok(demo);
    assert.equal(demo.email, DEMO_OWNER_EMAIL);
    const agent = new PanelAgent(built);
    const signIn = await agent.post("/panel/sign-in", {
      email: demo.email,
      password: demo.oneTimePassword,
    });
    assert.equal(signIn.status, 303);
    for (const path of ["/panel", "/panel/developers/api-keys", "/panel/account"]) {
      const page = await agent.get(path);
      assert.equal(page.status, 303, path);
      assert.equal(page.headers.get("location"), "/panel/password", path);
    }
    const action = await agent.post("/panel/offers", { name: "Coffee" });
    assert.equal(action.status, 401, "no action before the password is chosen");
    const form = await agent.get("/panel/password");
    assert.equal(form.status, 200);
    assert.match(pageText(await form.text()), /with a one-time password\. Choose your own/);
    const same = await agent.post("/panel/password", {
      password: demo.oneTimePassword,
      confirm: demo.oneTimePassword,
    });
    assert.equal(same.status, 400);
    assert.match(
      pageText(await same.text()),
      /Choose your own password rather than the one-time one\./,
    );
    const chosen = await agent.post("/panel/password", { password: PASSWORD, confirm: PASSWORD });
    assert.equal(chosen.status, 303);
    assert.equal(chosen.headers.get("location"), "/panel?notice=welcome");
    const home = await agent.get("/panel?notice=welcome");
    assert.equal(home.status, 200);
    const text = pageText(await home.text());
    assert.match(text, /Your password is set\. Welcome to Paystead\./);
    assert.match(text, /Demo shop ENTERPRISE/);
    const old = await new PanelAgent(built).post("/panel/sign-in", {
      email: demo.email,
      password: demo.oneTimePassword,
    });
    assert.equal(old.status, 401, "the one-time password stopped working");
  } finally {
    await built.services.scheduler.stop();
    await built.webhooks.stop();
    await store.close();
    await accounts.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[panel auth] one sign-in serves both environments on one host; the switch links across", async () => {
  const { t, agent } = await signedInApp();
  const production = createApp({
    config: loadConfig({
      PAYSTEAD_ENV: "production",
      DATA_DIR: t.dataDir,
      PUBLIC_URL: "https://api.paystead.test",
      SANDBOX_PUBLIC_URL: "http://sandbox.test",
      ...PAYU_TEST_ENV,
    }),
    store: await openStore<EnvironmentSchema>(`file:${t.dataDir}/production.db`),
    accounts: t.accounts,
    clock: t.clock,
    log: silentLogger,
  });
  try {
    await migrate(production.services.store, environmentMigrations);
    const sandboxHome = pageText(await (await agent.get("/panel")).text());
    assert.match(sandboxHome, /Sandbox Test data only: no real money moves\./);
    const sandboxHtml = await (await agent.get("/panel")).text();
    assert.match(sandboxHtml, /href="https:\/\/api\.paystead\.test\/panel">Go to Production →/);
    assert.match(sandboxHtml, /Switching copies nothing\./);
    // The same cookie, presented to the production process over the same accounts database.
    const there = new PanelAgent(production);
    there.cookies = agent.cookies;
    const page = await there.get("/panel/developers/api-keys");
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.equal(html.includes("sandbox-strip"), false, "no sandbox marker in production");
    assert.match(html, /href="http:\/\/sandbox\.test\/panel">Go to Sandbox →/);
    assert.match(pageText(html), /No active keys/, "production has its own keys");
  } finally {
    await production.services.scheduler.stop();
    await production.webhooks.stop();
    await production.services.store.close();
    await t.close();
  }
});

Deno.test("[panel auth] the header names the user, or shows the e-mail of one without a name", async (t) => {
  const app = await makeTestApp();
  try {
    const userMenu = async (email: string, name?: string) => {
      const user = await addUser(app, { email, role: "MEMBER", name });
      const agent = new PanelAgent(app);
      await agent.signIn(user.email, user.password);
      const html = await (await agent.get("/panel/account")).text();
      const avatar = html.match(/<span class="avatar" aria-hidden="true">([^<]*)<\/span>/);
      const label = html.match(/<span class="user-menu__name">([\s\S]*?)<\/span>/);
      assert.ok(avatar && label, "the user menu's button");
      return { avatar: avatar[1], label: label[1].replace(/<[^>]*>/g, "") };
    };
    await t.step("a name", async () => {
      assert.deepEqual(await userMenu("ada@acme.test", "Ada Lovelace"), {
        avatar: "A",
        label: "Ada Lovelace",
      });
    });
    await t.step("no name", async () => {
      assert.deepEqual(await userMenu("grace@acme.test"), {
        avatar: "G",
        label: "grace@acme.test",
      });
    });
    await t.step("a blank name", async () => {
      assert.deepEqual(await userMenu("blank@acme.test", "   "), {
        avatar: "B",
        label: "blank@acme.test",
      });
    });
  } finally {
    await app.close();
  }
});
