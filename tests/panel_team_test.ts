import assert from "node:assert/strict";
import { createOrganisation } from "../lib/accounts/organisations.ts";
import { INVITATION_TTL_MS } from "../lib/accounts/team.ts";
import type { TestApp } from "./support/helpers.ts";
import { addUser, pageText, PanelAgent, PASSWORD, signedInApp } from "./support/panel_helpers.ts";

/** Creates an invitation through the team page and returns the link's path (shown once). */
async function invite(agent: PanelAgent, email: string, role: string): Promise<string> {
  const response = await agent.post("/panel/team/invitations", { email, role });
  assert.equal(response.status, 201);
  const html = await response.text();
  const match =
    /<code class="once__value" id="invite-link">http:\/\/sandbox\.test(\/panel\/invitations\/[A-Za-z0-9_-]{43})<\/code>/
      .exec(html);
  assert.ok(match, "the page shows the link once");
  assert.ok(pageText(html).includes(`Invitation for ${email.toLowerCase()} created`));
  return match[1];
}

async function memberIds(t: TestApp): Promise<Map<string, string>> {
  const rows = await t.accounts.db.selectFrom("users").select(["email", "public_id"]).execute();
  return new Map(rows.map((row) => [row.email, row.public_id]));
}

Deno.test("[panel team] an invitation link makes a new member, once", async () => {
  const { t, agent } = await signedInApp();
  try {
    const link = await invite(agent, "Grace@Acme.test", "ADMIN");
    const team = pageText(await (await agent.get("/panel/team")).text());
    assert.match(team, /grace@acme\.test ADMIN owner@acme\.test/);
    assert.equal(team.includes(link), false, "the link is not shown again");

    const grace = new PanelAgent(t);
    const page = await grace.get(link);
    assert.equal(page.status, 200);
    assert.match(
      pageText(await page.text()),
      /owner@acme\.test invited grace@acme\.test to join Acme as an admin/,
    );
    const mismatch = await grace.post(link, {
      name: "Grace Hopper",
      password: "a long enough password",
      confirm: "another long password",
    });
    assert.equal(mismatch.status, 400);
    assert.match(pageText(await mismatch.text()), /The two passwords are not the same\./);
    const accepted = await grace.post(link, {
      name: "Grace Hopper",
      password: "a long enough password",
      confirm: "a long enough password",
    });
    assert.equal(accepted.status, 303);
    assert.equal(accepted.headers.get("location"), "/panel?notice=joined");
    const home = pageText(await (await grace.get("/panel?notice=joined")).text());
    assert.match(home, /Hello, Grace/);
    assert.match(home, /You joined the organisation\. Welcome\./);
    assert.equal((await grace.get("/panel/developers/api-keys")).status, 200, "as an admin");

    const again = await new PanelAgent(t).get(link);
    assert.equal(again.status, 409);
    assert.match(pageText(await again.text()), /This invitation has already been used\./);
    await new PanelAgent(t).signIn("grace@acme.test", "a long enough password");
  } finally {
    await t.close();
  }
});

Deno.test("[panel team] someone with an account signs in, then accepts", async () => {
  const { t, agent } = await signedInApp();
  try {
    await createOrganisation(t.accounts, { slug: "other", name: "Other", plan: "BASIC" }, 0);
    await addUser(t, { email: "linus@other.test", role: "OWNER", orgSlug: "other" });
    const link = await invite(agent, "linus@other.test", "MEMBER");
    const linus = new PanelAgent(t);
    const html = await (await linus.get(link)).text();
    assert.ok(html.includes(`href="/panel/sign-in?next=${encodeURIComponent(link)}"`));
    const signedIn = await linus.post("/panel/sign-in", {
      email: "linus@other.test",
      password: PASSWORD,
      next: link,
    });
    assert.equal(signedIn.status, 303);
    assert.equal(signedIn.headers.get("location"), link);
    const page = pageText(await (await linus.get(link)).text());
    assert.match(page, /Accept and open Acme/);
    assert.equal(page.includes("Choose a password"), false);
    const joined = await linus.post(`${link}/accept`);
    assert.equal(joined.status, 303);
    assert.equal(joined.headers.get("location"), "/panel?notice=joined");
    const home = await (await linus.get("/panel")).text();
    assert.match(pageText(home), /Acme BASIC/);
    // Two organisations now: the menu switches between them.
    assert.match(home, /<button type="submit" name="org" value="other"/);
    const switched = await linus.post("/panel/switch-organisation", { org: "other" });
    assert.equal(switched.status, 303);
    assert.match(pageText(await (await linus.get("/panel")).text()), /Other BASIC/);
    const foreign = await linus.post("/panel/switch-organisation", { org: "not-mine" });
    assert.equal(foreign.status, 404);
    assert.equal((await linus.post(`${link}/accept`)).status, 409, "used once");
  } finally {
    await t.close();
  }
});

Deno.test("[panel team] withdrawn and expired links stop working; a new one replaces the old", async () => {
  const { t, agent } = await signedInApp();
  try {
    const first = await invite(agent, "ann@acme.test", "MEMBER");
    const second = await invite(agent, "ann@acme.test", "ADMIN");
    assert.equal((await new PanelAgent(t).get(first)).status, 409, "replaced");
    const team = await (await agent.get("/panel/team")).text();
    const id = /action="\/panel\/team\/invitations\/(inv_[0-9A-Za-z]+)\/revoke"/.exec(team)![1];
    const revoked = await agent.post(`/panel/team/invitations/${id}/revoke`);
    assert.equal(revoked.status, 303);
    const gone = await new PanelAgent(t).get(second);
    assert.equal(gone.status, 409);
    assert.match(pageText(await gone.text()), /This invitation was withdrawn\./);

    const third = await invite(agent, "ann@acme.test", "MEMBER");
    t.clock.advance(INVITATION_TTL_MS);
    const expired = await new PanelAgent(t).post(third, {
      password: "a long enough password",
      confirm: "a long enough password",
    });
    assert.equal(expired.status, 409);
    assert.match(pageText(await expired.text()), /This invitation has expired\./);
    const unknown = await new PanelAgent(t).get(`/panel/invitations/${"x".repeat(43)}`);
    assert.equal(unknown.status, 404);
  } finally {
    await t.close();
  }
});

Deno.test("[panel team] admins manage admins and members; only owners touch owners", async () => {
  const { t, agent: owner } = await signedInApp();
  try {
    const adminUser = await addUser(t, { email: "admin@acme.test", role: "ADMIN" });
    const memberUser = await addUser(t, { email: "member@acme.test", role: "MEMBER" });
    const admin = new PanelAgent(t);
    await admin.signIn(adminUser.email, adminUser.password);
    const member = new PanelAgent(t);
    await member.signIn(memberUser.email, memberUser.password);
    const ids = await memberIds(t);

    const ownerInvite = await admin.post("/panel/team/invitations", {
      email: "boss@acme.test",
      role: "OWNER",
    });
    assert.equal(ownerInvite.status, 403);
    assert.match(pageText(await ownerInvite.text()), /Only an owner can invite an owner\./);
    const promote = await admin.post(`/panel/team/members/${ids.get("member@acme.test")}/role`, {
      role: "OWNER",
    });
    assert.equal(promote.status, 403);
    const demoteOwner = await admin.post(`/panel/team/members/${ids.get("owner@acme.test")}/role`, {
      role: "MEMBER",
    });
    assert.equal(demoteOwner.status, 403);
    const byMember = await member.post("/panel/team/invitations", {
      email: "x@acme.test",
      role: "MEMBER",
    });
    assert.equal(byMember.status, 403);

    const raise = await admin.post(`/panel/team/members/${ids.get("member@acme.test")}/role`, {
      role: "ADMIN",
    });
    assert.equal(raise.status, 303);
    // The role applies at the member's next request, without signing in again.
    assert.equal((await member.get("/panel/developers/api-keys")).status, 200);
    const crown = await owner.post(`/panel/team/members/${ids.get("admin@acme.test")}/role`, {
      role: "OWNER",
    });
    assert.equal(crown.status, 303);
    const team = pageText(await (await owner.get("/panel/team")).text());
    assert.match(team, /admin@acme\.test/);
  } finally {
    await t.close();
  }
});

Deno.test("[panel team] the last owner can be neither demoted nor removed", async () => {
  const { t, agent: owner } = await signedInApp();
  try {
    const ids = await memberIds(t);
    const ownerId = ids.get("owner@acme.test")!;
    const team = await (await owner.get("/panel/team")).text();
    assert.match(pageText(team), /Ada Lovelace you owner@acme\.test Owner the only owner/);
    assert.equal(team.includes(`/panel/team/members/${ownerId}/remove`), false);

    const demote = await owner.post(`/panel/team/members/${ownerId}/role`, { role: "ADMIN" });
    assert.equal(demote.status, 409);
    assert.match(
      pageText(await demote.text()),
      /An organisation needs at least one owner\. Make someone else an owner first\./,
    );
    const leave = await owner.post(`/panel/team/members/${ownerId}/remove`);
    assert.equal(leave.status, 409);

    const second = await addUser(t, { email: "second@acme.test", role: "OWNER" });
    const demoted = await owner.post(`/panel/team/members/${ownerId}/role`, { role: "ADMIN" });
    assert.equal(demoted.status, 303);
    const other = new PanelAgent(t);
    await other.signIn(second.email, second.password);
    const secondId = (await memberIds(t)).get("second@acme.test")!;
    const last = await other.post(`/panel/team/members/${secondId}/remove`);
    assert.equal(last.status, 409, "now the second is the last owner");
  } finally {
    await t.close();
  }
});

Deno.test("[panel team] removing a member ends their sessions; members may leave", async () => {
  const { t, agent: owner } = await signedInApp();
  try {
    const memberUser = await addUser(t, { email: "member@acme.test", role: "MEMBER" });
    const leaverUser = await addUser(t, { email: "leaver@acme.test", role: "MEMBER" });
    const member = new PanelAgent(t);
    await member.signIn(memberUser.email, memberUser.password);
    const leaver = new PanelAgent(t);
    await leaver.signIn(leaverUser.email, leaverUser.password);
    const ids = await memberIds(t);

    const removed = await owner.post(`/panel/team/members/${ids.get("member@acme.test")}/remove`);
    assert.equal(removed.status, 303);
    assert.equal(removed.headers.get("location"), "/panel/team?notice=removed");
    assert.equal((await member.get("/panel")).status, 303, "signed out");
    const again = await new PanelAgent(t).post("/panel/sign-in", {
      email: memberUser.email,
      password: memberUser.password,
    });
    assert.equal(again.status, 403);
    assert.match(pageText(await again.text()), /no longer belongs to an organisation/);

    const cannot = await leaver.post(`/panel/team/members/${ids.get("owner@acme.test")}/remove`);
    assert.equal(cannot.status, 403);
    const left = await leaver.post(`/panel/team/members/${ids.get("leaver@acme.test")}/remove`);
    assert.equal(left.status, 303);
    assert.equal(left.headers.get("location"), "/panel/sign-in?notice=signed-out");
    assert.equal((await leaver.get("/panel")).status, 303);
  } finally {
    await t.close();
  }
});
