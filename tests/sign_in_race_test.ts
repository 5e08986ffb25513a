import assert from "node:assert/strict";
import { LocalSqliteConnection } from "../db/local_sqlite.ts";
import { DEMO_OWNER_EMAIL } from "../lib/demo.ts";
import { makeTestApp, type TestApp } from "./support/helpers.ts";
import { addUser, countingPasswords, PanelAgent, PASSWORD } from "./support/panel_helpers.ts";
import { startPaystead } from "./support/processes.ts";

/** Resolves once `locked()` says the account is locked, polling the database (no timing). */
async function untilLocked(locked: () => Promise<boolean>): Promise<void> {
  while (!await locked()) await new Promise((resolve) => setTimeout(resolve, 10));
}

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

async function accountLocked(t: TestApp, email: string): Promise<boolean> {
  const row = await t.accounts.db.selectFrom("sign_in_throttle").select("locked_until")
    .where("subject", "=", `account:${email}`).executeTakeFirst();
  return row?.locked_until != null;
}

Deno.test("[sign-in race] parallel guesses from many addresses: five checked, the right one refused", async () => {
  const passwords = countingPasswords();
  const t = await makeTestApp({ passwords });
  try {
    const user = await addUser(t, { email: "ada@acme.test", role: "OWNER" });
    const guesses = Array.from({ length: 20 }, (_, i) => {
      const agent = new PanelAgent(t);
      agent.remoteAddress = `198.51.100.${i + 1}`;
      return agent.post("/panel/sign-in", { email: user.email, password: `wrong guess ${i}` });
    });
    await untilLocked(() => accountLocked(t, user.email));
    const right = new PanelAgent(t);
    right.remoteAddress = "198.51.100.200";
    const refused = await right.post("/panel/sign-in", {
      email: user.email,
      password: user.password,
    });
    assert.equal(refused.status, 429);
    assert.equal(right.token, undefined, "no session");
    const statuses = (await Promise.all(guesses)).map((response) => response.status);
    // Four wrong answers, the fifth locked the account, fifteen were never checked.
    assert.deepEqual(tally(statuses), { 401: 4, 429: 16 });
    assert.equal(passwords.checks, 5);

    t.clock.advance(15 * 60_000);
    await right.signIn(user.email, user.password);
    assert.equal(passwords.checks, 6);
  } finally {
    await t.close();
  }
});

Deno.test("[sign-in race] a right password gives its attempt back", async () => {
  const t = await makeTestApp();
  try {
    const user = await addUser(t, { email: "ada@acme.test", role: "OWNER" });
    const agent = new PanelAgent(t);
    agent.remoteAddress = "203.0.113.9";
    for (let i = 0; i < 4; i++) {
      const wrong = await agent.post("/panel/sign-in", { email: user.email, password: "nope" });
      assert.equal(wrong.status, 401);
    }
    await agent.signIn(user.email, user.password);
    const rows = await t.accounts.db.selectFrom("sign_in_throttle")
      .select(["subject", "failures"]).orderBy("subject").execute();
    assert.deepEqual(rows, [{ subject: "address:203.0.113.9", failures: 4 }]);
    // The account's count started over: four more wrong ones do not lock it.
    for (let i = 0; i < 4; i++) {
      const wrong = await new PanelAgent(t).post("/panel/sign-in", {
        email: user.email,
        password: "nope",
      });
      assert.equal(wrong.status, 401);
    }
    await new PanelAgent(t).signIn(user.email, PASSWORD);
  } finally {
    await t.close();
  }
});

Deno.test("[sign-in race] a real server under a burst of guesses never signs in", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-race-" });
  const server = await startPaystead(dataDir);
  const db = new LocalSqliteConnection(`${dataDir}/accounts.db`, {
    busyTimeoutMs: 5000,
    readOnly: true,
    syncOnCommit: false,
  });
  try {
    const oneTime = /Password:\s+(\S+)/.exec(server.output())?.[1];
    assert.ok(oneTime, "the demo owner's one-time password is printed");
    // From 20 addresses through the trusted proxy (127.0.0.1 by default), so no per-address
    // limit applies: only the account's.
    const attempt = (password: string, address: string) =>
      fetch(`${server.url}/panel/sign-in`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "sec-fetch-site": "same-origin",
          "x-forwarded-for": address,
        },
        body: new URLSearchParams({ email: DEMO_OWNER_EMAIL, password }),
      }).then(async (response) => {
        await response.body?.cancel();
        return { status: response.status, cookie: response.headers.get("set-cookie") };
      });
    const guesses = Array.from(
      { length: 20 },
      (_, i) => attempt(`wrong guess number ${i}`, `198.51.100.${i + 1}`),
    );
    await untilLocked(async () => {
      const { rows } = await db.execute({
        sql: "SELECT locked_until FROM sign_in_throttle WHERE subject = ?",
        args: [`account:${DEMO_OWNER_EMAIL}`],
      });
      return rows.length === 1 && rows[0].locked_until !== null;
    });
    const right = await attempt(oneTime, "198.51.100.200");
    assert.equal(right.status, 429);
    assert.equal(right.cookie, null);
    const results = await Promise.all(guesses);
    assert.deepEqual(tally(results.map((result) => result.status)), { 401: 4, 429: 16 });
    assert.ok(results.every((result) => result.cookie === null));
  } finally {
    db.close();
    await server.stop();
    await server.exited();
    await Deno.remove(dataDir, { recursive: true });
  }
});
