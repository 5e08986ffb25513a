import assert from "node:assert/strict";
import { DEMO_OWNER_EMAIL } from "../lib/demo.ts";
import { csrfTokenOf } from "../lib/accounts/sessions.ts";
import { loggedPath } from "../routes/middleware/request_log.ts";
import { type ChildServer, startPaystead } from "./support/processes.ts";

/** A browser stand-in over real HTTP: keeps the session cookie, posts forms with CSRF. */
class HttpAgent {
  cookie: string | null = null;
  constructor(readonly server: ChildServer) {}

  async request(path: string, form?: Record<string, string>) {
    const token = this.cookie?.split("=")[1];
    const body = form &&
      new URLSearchParams({ ...(token && { _csrf: csrfTokenOf(token) }), ...form });
    const response = await fetch(this.server.url + path, {
      method: form ? "POST" : "GET",
      redirect: "manual",
      headers: {
        accept: "text/html",
        "sec-fetch-site": "same-origin",
        ...(form && { "content-type": "application/x-www-form-urlencoded" }),
        ...(this.cookie && { cookie: this.cookie }),
      },
      body,
    });
    const set = response.headers.get("set-cookie");
    if (set) this.cookie = set.split(";")[0].endsWith("=") ? null : set.split(";")[0];
    return {
      status: response.status,
      location: response.headers.get("location"),
      html: await response.text(),
    };
  }
}

Deno.test("[request log] a path's secret is logged as its route pattern", () => {
  const token = "A".repeat(43);
  assert.equal(
    loggedPath(`/panel/invitations/${token}`, "/panel/invitations/:token"),
    "/panel/invitations/:token",
  );
  assert.equal(
    loggedPath(`/panel/invitations/${token}/x`, "/panel/*"),
    "/panel/invitations/:token/x",
  );
  assert.equal(loggedPath("/panel/offers/qr_1", "/panel/offers/:qrId"), "/panel/offers/qr_1");
});

Deno.test("[request log] after an invitation flow the server's log holds no token", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-log-" });
  const server = await startPaystead(dataDir, { LOG_LEVEL: "info" });
  try {
    const oneTime = /Password:\s+(\S+)/.exec(server.output())?.[1];
    assert.ok(oneTime);
    const owner = new HttpAgent(server);
    const signedIn = await owner.request("/panel/sign-in", {
      email: DEMO_OWNER_EMAIL,
      password: oneTime,
    });
    assert.equal(signedIn.status, 303);
    const chosen = "lantern meadow copper whistle";
    const changed = await owner.request("/panel/password", { password: chosen, confirm: chosen });
    assert.equal(changed.status, 303);
    const invited = await owner.request("/panel/team/invitations", {
      email: "grace@demo.test",
      role: "ADMIN",
    });
    assert.equal(invited.status, 201);
    const link = /\/panel\/invitations\/([A-Za-z0-9_-]{43})</.exec(invited.html);
    assert.ok(link);
    const [path, token] = [`/panel/invitations/${link[1]}`, link[1]];

    const grace = new HttpAgent(server);
    assert.equal((await grace.request(path)).status, 200);
    assert.equal((await grace.request(`${path}/elsewhere`)).status, 303, "to sign-in");
    assert.equal((await grace.request(`${path}/accept`, {})).status, 303, "no session");
    const weak = await grace.request(path, {
      name: "Grace",
      password: "password1234",
      confirm: "password1234",
    });
    assert.equal(weak.status, 400);
    const good = "orchid tunnel pepper galaxy";
    const joined = await grace.request(path, { name: "Grace", password: good, confirm: good });
    assert.equal(joined.status, 303);
    assert.equal((await grace.request(path)).status, 409, "used");
    // Accepting from a session (the link of an address that has an account).
    const again = await owner.request("/panel/team/invitations", {
      email: DEMO_OWNER_EMAIL,
      role: "ADMIN",
    });
    assert.equal(again.status, 409, "already a member");

    await server.stop();
    await server.exited();
    const logs = server.logs();
    const requests = logs.split("\n").filter((line) => line.includes('"request"'));
    const invitationLines = requests.filter((line) => line.includes("/panel/invitations/:token"));
    assert.equal(invitationLines.length, 6, logs);
    assert.equal(logs.includes(token), false, "the token is nowhere in the log");
    assert.equal(logs.includes(oneTime), false);
    assert.equal(logs.includes(chosen), false);
    assert.equal(logs.includes(good), false);
  } finally {
    await server.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});
