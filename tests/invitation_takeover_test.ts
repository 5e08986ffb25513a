import assert from "node:assert/strict";
import { createOrganisation } from "../lib/accounts/organisations.ts";
import { makeTestApp, type TestApp } from "./support/helpers.ts";
import {
  addUser,
  countingPasswords,
  pageText,
  PanelAgent,
  PASSWORD,
} from "./support/panel_helpers.ts";

async function setUp() {
  const passwords = countingPasswords();
  const t = await makeTestApp({ passwords });
  await addUser(t, { email: "owner@acme.test", role: "OWNER" });
  await createOrganisation(t.accounts, { slug: "other", name: "Other", plan: "FREE" }, 0);
  await addUser(t, { email: "victim@other.test", role: "OWNER", orgSlug: "other" });
  const owner = new PanelAgent(t);
  await owner.signIn("owner@acme.test", PASSWORD);
  passwords.checks = 0;
  return { t, owner, passwords };
}

async function invite(owner: PanelAgent, email: string): Promise<string> {
  const response = await owner.post("/panel/team/invitations", { email, role: "ADMIN" });
  assert.equal(response.status, 201);
  const match = /\/panel\/invitations\/([A-Za-z0-9_-]{43})</.exec(await response.text());
  assert.ok(match);
  return `/panel/invitations/${match[1]}`;
}

/** A page without what differs by design: the link's token, the address and the CSP nonce. */
function withoutSpecifics(html: string, link: string, email: string): string {
  return html.replaceAll(encodeURIComponent(link), "LINK").replaceAll(link, "LINK")
    .replaceAll(email, "EMAIL").replace(/nonce="[^"]*"/g, 'nonce=""')
    .replace(/nonce-[A-Za-z0-9+/=_-]+/g, "nonce-");
}

async function throttleRows(t: TestApp): Promise<number> {
  const rows = await t.accounts.db.selectFrom("sign_in_throttle").selectAll().execute();
  return rows.length;
}

Deno.test("[invitations] a link's page is the same whether the address has an account", async () => {
  const { t, owner } = await setUp();
  try {
    const existing = await invite(owner, "victim@other.test");
    const fresh = await invite(owner, "nobody@other.test");
    const a = await new PanelAgent(t).get(existing);
    const b = await new PanelAgent(t).get(fresh);
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    const pageA = withoutSpecifics(await a.text(), existing, "victim@other.test");
    const pageB = withoutSpecifics(await b.text(), fresh, "nobody@other.test");
    assert.equal(pageA, pageB);
    assert.equal(pageText(pageA).includes("already have"), false);
  } finally {
    await t.close();
  }
});

Deno.test("[invitations] the form never checks an existing account's password", async () => {
  const { t, owner, passwords } = await setUp();
  try {
    const link = await invite(owner, "victim@other.test");
    const attacker = new PanelAgent(t);
    for (const password of [PASSWORD, "a wrong guess of theirs"]) {
      const response = await attacker.post(link, {
        name: "Mallory",
        password,
        confirm: password,
      });
      assert.equal(response.status, 409);
      assert.match(
        pageText(await response.text()),
        /victim@other\.test already has a Paystead account\. Sign in with it, then open this link again to accept\./,
      );
      assert.equal(attacker.token, undefined, "no session");
    }
    assert.equal(passwords.checks, 0);
    assert.equal(await throttleRows(t), 0, "no attempt was even counted");
    const user = await t.accounts.db.selectFrom("users").select("name")
      .where("email", "=", "victim@other.test").executeTakeFirstOrThrow();
    assert.equal(user.name, null, "the account is untouched");
    assert.equal((await new PanelAgent(t).get(link)).status, 200, "the invitation is still open");
  } finally {
    await t.close();
  }
});

Deno.test("[invitations] a session of another address cannot accept", async () => {
  const { t, owner } = await setUp();
  try {
    const link = await invite(owner, "victim@other.test");
    // The inviting owner follows their own link.
    const page = pageText(await (await owner.get(link)).text());
    assert.match(
      page,
      /You are signed in as owner@acme\.test ?\. Sign out, then sign in as victim@other\.test/,
    );
    const refused = await owner.post(`${link}/accept`);
    assert.equal(refused.status, 403);
    assert.match(
      pageText(await refused.text()),
      /This invitation is for victim@other\.test, and you are signed in as owner@acme\.test\./,
    );
    const noSession = await new PanelAgent(t).post(`${link}/accept`, {}, { csrf: "x" });
    assert.equal(noSession.status, 303);
    assert.equal(noSession.headers.get("location"), "/panel/sign-in");

    const victim = new PanelAgent(t);
    await victim.signIn("victim@other.test", PASSWORD);
    const forged = await victim.post(`${link}/accept`, {}, { csrf: "not the token" });
    assert.equal(forged.status, 403, "CSRF still applies");
    const joined = await victim.post(`${link}/accept`);
    assert.equal(joined.status, 303);
    const memberships = await t.accounts.db.selectFrom("memberships as m")
      .innerJoin("users as u", "u.id", "m.user_id").select(["u.email", "m.role"])
      .where("m.org_id", "=", t.orgId).orderBy("u.email").execute();
    assert.deepEqual(memberships, [
      { email: "owner@acme.test", role: "OWNER" },
      { email: "victim@other.test", role: "ADMIN" },
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("[invitations] a new address still chooses its password, and a guessable one is refused", async () => {
  const { t, owner } = await setUp();
  try {
    const link = await invite(owner, "newbie@acme.test");
    const agent = new PanelAgent(t);
    const weak = await agent.post(link, {
      name: "New Bie",
      password: "password1234",
      confirm: "password1234",
    });
    assert.equal(weak.status, 400);
    assert.match(pageText(await weak.text()), /This password is too easy to guess\./);
    const good = "violet harbour tractor ninety";
    const joined = await agent.post(link, { name: "New Bie", password: good, confirm: good });
    assert.equal(joined.status, 303);
    assert.equal(joined.headers.get("location"), "/panel?notice=joined");
    await new PanelAgent(t).signIn("newbie@acme.test", good);
  } finally {
    await t.close();
  }
});

Deno.test("[invitations] the link's form is limited per client address", async () => {
  const { t, owner } = await setUp();
  try {
    const link = await invite(owner, "victim@other.test");
    const attacker = new PanelAgent(t);
    attacker.remoteAddress = "203.0.113.66";
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      const response = await attacker.post(link, { password: `guess ${i}`, confirm: `guess ${i}` });
      statuses.push(response.status);
      await response.body?.cancel();
    }
    assert.deepEqual(statuses, [...Array(20).fill(409), 429, 429]);
  } finally {
    await t.close();
  }
});
