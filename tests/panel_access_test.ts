import assert from "node:assert/strict";
import { setOrganisationPlan } from "../lib/accounts/organisations.ts";
import {
  canManageMember,
  decide,
  PANEL_ACTIONS,
  type PanelAction,
  type QuickstartAccess,
} from "../lib/accounts/access.ts";
import { type Plan, PLANS, type Role, ROLES } from "../lib/plans.ts";
import {
  createTestOffer,
  createTestPayment,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";
import { addUser, pageText, PanelAgent } from "./support/panel_helpers.ts";

/**
 * What each role may do on each plan, written out by hand (plans FREE, BASIC, PRO, ENTERPRISE):
 * `+` allowed, `r` refused for the role, `p` refused for the plan.
 */
const EVERYONE = { OWNER: "++++", ADMIN: "++++", MEMBER: "++++" };
const OWNER_ADMIN = { OWNER: "++++", ADMIN: "++++", MEMBER: "rrrr" };
const DEVELOPERS = { OWNER: "p+++", ADMIN: "p+++", MEMBER: "rrrr" };
const EXPECTED: Record<QuickstartAccess, Record<PanelAction, Record<Role, string>>> = {
  role: {
    "home.view": EVERYONE,
    "payments.view": EVERYONE,
    "payments.refund": OWNER_ADMIN,
    "payments.email": OWNER_ADMIN,
    "payments.records": DEVELOPERS,
    "subscriptions.cancel": OWNER_ADMIN,
    "offers.view": EVERYONE,
    "offers.manage": EVERYONE,
    "team.view": EVERYONE,
    "team.manage": OWNER_ADMIN,
    "account.manage": EVERYONE,
    "reference.view": EVERYONE,
    "developers": DEVELOPERS,
    "quickstart": DEVELOPERS,
  },
  plan: {
    "home.view": EVERYONE,
    "payments.view": EVERYONE,
    "payments.refund": OWNER_ADMIN,
    "payments.email": OWNER_ADMIN,
    "payments.records": DEVELOPERS,
    "subscriptions.cancel": OWNER_ADMIN,
    "offers.view": EVERYONE,
    "offers.manage": EVERYONE,
    "team.view": EVERYONE,
    "team.manage": OWNER_ADMIN,
    "account.manage": EVERYONE,
    "reference.view": EVERYONE,
    "developers": DEVELOPERS,
    "quickstart": { OWNER: "ppp+", ADMIN: "ppp+", MEMBER: "rrrr" },
  },
};

function expected(access: QuickstartAccess, action: PanelAction, role: Role, plan: Plan) {
  return EXPECTED[access][action][role][PLANS.indexOf(plan)];
}

Deno.test("[panel access] the rules table: every action x role x plan x Quick Start setting", () => {
  for (const access of ["role", "plan"] as const) {
    for (const action of PANEL_ACTIONS) {
      for (const role of ROLES) {
        for (const plan of PLANS) {
          const decision = decide(action, { role, plan }, access);
          const got = decision.allowed ? "+" : decision.reason === "role" ? "r" : "p";
          assert.equal(
            got,
            expected(access, action, role, plan),
            `${action} for ${role} on ${plan} (QUICKSTART_ACCESS=${access})`,
          );
        }
      }
    }
  }
});

Deno.test("[panel access] who may give which role, or remove whom", () => {
  // [actor, from (null: not a member yet), to (null: removal), allowed]
  const cases: [Role, Role | null, Role | null, boolean][] = [
    ["OWNER", null, "OWNER", true],
    ["OWNER", "OWNER", "MEMBER", true],
    ["OWNER", "OWNER", null, true],
    ["OWNER", "MEMBER", "ADMIN", true],
    ["ADMIN", null, "ADMIN", true],
    ["ADMIN", null, "MEMBER", true],
    ["ADMIN", null, "OWNER", false],
    ["ADMIN", "MEMBER", "ADMIN", true],
    ["ADMIN", "ADMIN", null, true],
    ["ADMIN", "MEMBER", "OWNER", false],
    ["ADMIN", "OWNER", "ADMIN", false],
    ["ADMIN", "OWNER", null, false],
    ["MEMBER", null, "MEMBER", false],
    ["MEMBER", "MEMBER", null, false],
    ["MEMBER", "ADMIN", "MEMBER", false],
  ];
  for (const [actor, from, to, allowed] of cases) {
    assert.equal(canManageMember(actor, from, to), allowed, `${actor}: ${from} -> ${to}`);
  }
});

interface Route {
  action: PanelAction;
  method: "GET" | "POST";
  path: string;
  form?: Record<string, string>;
  json?: boolean;
}

/** Every page and action of the panel with the rule that guards it (ids filled in per app). */
function routes(ids: { qrId: string; paymentId: string; endpointId: string }): Route[] {
  const { qrId, paymentId, endpointId } = ids;
  return [
    { action: "home.view", method: "GET", path: "/panel" },
    { action: "account.manage", method: "GET", path: "/panel/account" },
    { action: "reference.view", method: "GET", path: "/panel/reference" },
    { action: "payments.view", method: "GET", path: "/panel/payments" },
    { action: "payments.view", method: "GET", path: `/panel/payments/${paymentId}` },
    {
      action: "payments.refund",
      method: "POST",
      path: `/panel/payments/${paymentId}/refunds`,
      form: { amount: "not money" },
    },
    {
      action: "payments.refund",
      method: "POST",
      path: `/panel/payments/${paymentId}/refunds/confirm`,
      form: { amount: "not money" },
    },
    {
      action: "payments.refund",
      method: "POST",
      path: "/panel/payments/pay_missingmissingmissing00/cancel",
    },
    {
      action: "subscriptions.cancel",
      method: "POST",
      path: "/panel/subscriptions/sub_missingmissingmissing00/cancel",
      form: { atPeriodEnd: "false" },
    },
    { action: "offers.view", method: "GET", path: "/panel/offers" },
    { action: "offers.view", method: "GET", path: `/panel/offers/${qrId}` },
    { action: "offers.view", method: "GET", path: `/panel/offers/${qrId}/qr.svg` },
    { action: "offers.view", method: "GET", path: `/panel/offers/${qrId}/qr.png` },
    { action: "offers.manage", method: "GET", path: "/panel/offers/new" },
    { action: "offers.manage", method: "POST", path: "/panel/offers", form: { name: "" } },
    { action: "offers.manage", method: "POST", path: `/panel/offers/${qrId}`, form: { name: "" } },
    { action: "team.view", method: "GET", path: "/panel/team" },
    {
      action: "team.manage",
      method: "POST",
      path: "/panel/team/invitations",
      form: { email: "not an address", role: "MEMBER" },
    },
    {
      action: "team.manage",
      method: "POST",
      path: "/panel/team/members/usr_missingmissingmissing00/role",
      form: { role: "ADMIN" },
    },
    {
      action: "team.manage",
      method: "POST",
      path: "/panel/team/invitations/inv_missingmissingmissing00/revoke",
    },
    { action: "developers", method: "GET", path: "/panel/developers" },
    { action: "developers", method: "GET", path: "/panel/developers/api-keys" },
    {
      action: "developers",
      method: "POST",
      path: "/panel/developers/api-keys",
      form: { name: "" },
    },
    {
      action: "developers",
      method: "POST",
      path: "/panel/developers/api-keys/key_missingmissingmissing00/revoke",
    },
    {
      action: "developers",
      method: "POST",
      path: "/panel/developers/api-keys/key_missingmissingmissing00/roll",
      form: { expiresIn: "1h" },
    },
    { action: "developers", method: "GET", path: "/panel/developers/webhooks" },
    { action: "developers", method: "GET", path: "/panel/developers/webhooks/new" },
    { action: "developers", method: "GET", path: `/panel/developers/webhooks/${endpointId}` },
    { action: "developers", method: "GET", path: `/panel/developers/webhooks/${endpointId}/edit` },
    {
      action: "developers",
      method: "GET",
      path: `/panel/developers/webhooks/${endpointId}/deliveries`,
      json: true,
    },
    {
      action: "developers",
      method: "POST",
      path: "/panel/developers/webhooks",
      form: { url: "not a url", scope: "all" },
    },
    {
      action: "developers",
      method: "POST",
      path: `/panel/developers/webhooks/${endpointId}/secret`,
    },
    { action: "developers", method: "GET", path: "/panel/developers/checkout" },
    {
      action: "developers",
      method: "POST",
      path: "/panel/developers/checkout/origins",
      form: { origins: "not an origin" },
    },
    {
      action: "developers",
      method: "POST",
      path: "/panel/developers/checkout/preview",
      form: { qrId: "qr_missingmissingmissing00" },
    },
    {
      action: "developers",
      method: "POST",
      path: "/panel/payments/pay_missingmissingmissing00/complete",
      form: { code: "777123" },
    },
    { action: "quickstart", method: "GET", path: "/panel/developers/quickstart" },
    {
      action: "quickstart",
      method: "POST",
      path: "/panel/developers/quickstart/run/no-such-step",
      json: true,
    },
    {
      action: "quickstart",
      method: "GET",
      path: "/panel/developers/quickstart/watch?endpoint=we_missingmissingmissing00",
      json: true,
    },
  ];
}

async function send(agent: PanelAgent, route: Route): Promise<Response> {
  if (route.method === "GET") {
    return await agent.get(route.path, route.json ? { accept: "application/json" } : {});
  }
  return route.json
    ? await agent.postJson(route.path, {})
    : await agent.post(route.path, route.form);
}

async function checkEveryRoute(t: TestApp, access: QuickstartAccess, only?: PanelAction) {
  const offer = await createTestOffer(t);
  const payment = await createTestPayment(t, offer.qrId);
  await t.request("POST", `/api/v1/payments/${payment.paymentId}/complete`, { code: "777123" });
  const endpoint = await (await t.request("POST", "/api/v1/webhook-endpoints", {
    url: "http://127.0.0.1:9/hook",
  })).json();
  const list = routes({ qrId: offer.qrId, paymentId: payment.paymentId, endpointId: endpoint.id })
    .filter((route) => only === undefined || route.action === only);
  const agents = new Map<Role, PanelAgent>();
  for (const role of ROLES) {
    const user = await addUser(t, { email: `${role.toLowerCase()}@acme.test`, role });
    const agent = new PanelAgent(t);
    await agent.signIn(user.email, user.password);
    agents.set(role, agent);
  }
  for (const plan of PLANS) {
    await setOrganisationPlan(t.accounts, "acme", plan, t.clock.now());
    for (const role of ROLES) {
      for (const route of list) {
        const want = expected(access, route.action, role, plan);
        const response = await send(agents.get(role)!, route);
        const label = `${route.method} ${route.path} as ${role} on ${plan}: ${response.status}`;
        const body = await response.text();
        if (want === "+") {
          assert.ok(response.status !== 403 && response.status !== 401, label);
          assert.ok(response.status < 500, label);
          continue;
        }
        assert.equal(response.status, 403, label);
        if (route.json) {
          assert.equal(response.headers.get("content-type"), "application/json", label);
          const code = JSON.parse(body).error.code;
          assert.equal(code, want === "r" ? "role_required" : "plan_required", label);
          continue;
        }
        assert.equal(response.headers.get("content-type"), "text/html; charset=UTF-8", label);
        const text = pageText(body);
        if (want === "r") {
          assert.match(text, /This part of the panel is for owners and admins; you are a member/);
        } else if (route.method === "GET" && plan === "FREE") {
          // Developers' pages show FREE organisations what an upgrade gives instead.
          assert.match(text, /Connect your shop to Paystead/, label);
        } else {
          const needs = route.action === "quickstart" && plan !== "FREE" ? "ENTERPRISE" : "BASIC";
          assert.match(text, new RegExp(`This needs plan ${needs} or higher`), label);
        }
      }
    }
  }
}

Deno.test("[panel access] every page and action answers as the table says, for each role and plan", async () => {
  const t = await makeTestApp();
  try {
    await checkEveryRoute(t, "role");
  } finally {
    await t.close();
  }
});

Deno.test("[panel access] with QUICKSTART_ACCESS=plan the Quick Start needs ENTERPRISE", async () => {
  const t = await makeTestApp({ env: { QUICKSTART_ACCESS: "plan" } });
  try {
    await checkEveryRoute(t, "plan", "quickstart");
  } finally {
    await t.close();
  }
});

Deno.test("[panel access] a member's navigation has no Developers section", async () => {
  const t = await makeTestApp();
  try {
    for (const [role, shown] of [["MEMBER", false], ["ADMIN", true]] as const) {
      const user = await addUser(t, { email: `${role}@acme.test`, role });
      const agent = new PanelAgent(t);
      await agent.signIn(user.email, user.password);
      const html = await (await agent.get("/panel")).text();
      assert.equal(html.includes('href="/panel/developers/api-keys"'), shown, role);
      assert.equal(html.includes(">Developers</p>"), shown, role);
    }
    await setOrganisationPlan(t.accounts, "acme", "FREE", t.clock.now());
    const owner = await addUser(t, { email: "owner@acme.test", role: "OWNER" });
    const agent = new PanelAgent(t);
    await agent.signIn(owner.email, owner.password);
    const html = await (await agent.get("/panel")).text();
    // FREE owners see Developers with an upgrade mark, and none of its pages.
    assert.match(html, /Overview<\/span><span class="nav__tag">Upgrade<\/span>/);
    assert.equal(html.includes('href="/panel/developers/api-keys"'), false);
  } finally {
    await t.close();
  }
});
