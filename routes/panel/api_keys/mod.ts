import { Hono } from "hono";
import { createApiKey, revokeApiKey, rollApiKey } from "../../../lib/api_keys.ts";
import { ApiError } from "../../../lib/errors.ts";
import { type PanelDeps, type PanelEnv } from "../kit/context.ts";
import { field, readForm, redirectWith, runFormAction } from "../kit/forms.ts";
import { API_KEYS_HREF } from "./href.ts";
import { renderKeys } from "./render.ts";
import { ROLL_DELAYS } from "./roll_delays.ts";

/** Developers -> API keys, at API_KEYS_HREF: create, list, roll and revoke. */
export function createApiKeysArea(deps: PanelDeps): Hono<PanelEnv> {
  const { services, authenticator } = deps;
  const { store, clock, environment } = services;
  return new Hono<PanelEnv>()
    .get("/", (c) => renderKeys(deps, c, {}))
    .post("/", async (c) => {
      const form = await readForm(c);
      const result = await runFormAction(c, () =>
        createApiKey(store, {
          orgId: c.get("session").org.id,
          name: field(form, "name"),
          environment,
          now: clock.now(),
        }));
      if (!result.ok) {
        return renderKeys(
          deps,
          c,
          { values: form, problem: result.problem },
          result.problem.status,
        );
      }
      // NOTE: the secret exists only in this answer (no-store, never redirected through a URL).
      return renderKeys(deps, c, {
        created: { secret: result.value.secret, name: result.value.record.name },
      }, 201);
    })
    .post("/:id/revoke", async (c) => {
      await revokeApiKey(store, {
        orgId: c.get("session").org.id,
        keyId: c.req.param("id"),
        now: clock.now(),
      });
      authenticator.invalidate();
      return redirectWith(c, API_KEYS_HREF, "revoked");
    })
    .post("/:id/roll", async (c) => {
      const form = await readForm(c);
      const delay = ROLL_DELAYS.find(([value]) => value === field(form, "expiresIn"));
      if (!delay) {
        throw new ApiError("parameter_invalid", "Choose when the old key stops working.", {
          param: "expiresIn",
        });
      }
      const rolled = await rollApiKey(store, {
        orgId: c.get("session").org.id,
        keyId: c.req.param("id"),
        expiresInMs: delay[1],
        environment,
        now: clock.now(),
      });
      authenticator.invalidate();
      return renderKeys(deps, c, {
        created: {
          secret: rolled.secret,
          name: rolled.record.name,
          rolledFrom: { name: rolled.previous.name, expiresAt: rolled.previous.expires_at },
        },
      }, 201);
    });
}
