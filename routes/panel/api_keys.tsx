import { Hono } from "hono";
import {
  Card,
  ConfirmAction,
  CsrfField,
  DateTime,
  EmptyState,
  Field,
  FormError,
  Notice,
  OnceValue,
  PageHeader,
  StatusBadge,
} from "../../components/panel/ui.tsx";
import {
  type ApiKeySummary,
  createApiKey,
  listApiKeysOf,
  revokeApiKey,
  rollApiKey,
  toApiKeySummary,
} from "../../lib/api_keys.ts";
import { ApiError } from "../../lib/errors.ts";
import { curlCommand } from "../../lib/panel/curl.ts";
import { type PanelContext, type PanelDeps, type PanelEnv } from "./kit/context.ts";
import {
  attempt,
  field,
  type Form,
  type FormProblem,
  noticeOf,
  problemFor,
  problemOfForm,
  readForm,
  redirectWith,
} from "./kit/forms.ts";
import { renderPanel } from "./kit/render.tsx";
import { CodeBlock } from "../../components/panel/ui.tsx";

const HOUR = 3_600_000;

/** How long a rolled key may keep working, as the roll form offers it. */
const ROLL_DELAYS: [string, number, string][] = [
  ["now", 0, "Immediately"],
  ["1h", HOUR, "In 1 hour"],
  ["24h", 24 * HOUR, "In 24 hours"],
  ["3d", 72 * HOUR, "In 3 days"],
  ["7d", 168 * HOUR, "In 7 days"],
];

const NOTICES = { revoked: "Key revoked. Requests with it now get 401." } as const;

const STATUS_LABEL: Record<ApiKeySummary["status"], string> = {
  ACTIVE: "Active",
  EXPIRING: "Expiring",
  EXPIRED: "Expired",
  REVOKED: "Revoked",
};

function KeyRow(props: { apiKey: ApiKeySummary; csrf: string }) {
  const key = props.apiKey;
  const usable = key.status === "ACTIVE" || key.status === "EXPIRING";
  return (
    <tr>
      <td>
        <span class="key__name">{key.name}</span>
        <code class="key__secret">{key.prefix}…{key.lastFour}</code>
      </td>
      <td>
        <StatusBadge status={key.status} label={STATUS_LABEL[key.status]} />
        {key.status === "EXPIRING" && (
          <span class="muted small block">
            until <DateTime at={key.expiresAt} />
          </span>
        )}
      </td>
      <td>
        <DateTime at={key.createdAt} />
      </td>
      <td>
        <DateTime at={key.lastUsedAt} empty="Never" />
      </td>
      <td class="actions-cell">
        {usable && (
          <div class="actions actions--end">
            <ConfirmAction
              action={`/panel/developers/api-keys/${key.id}/roll`}
              csrf={props.csrf}
              label="Roll"
              confirmLabel="Roll key"
              tone="default"
              extra={
                <label class="field__label">
                  Old key stops working
                  <select name="expiresIn">
                    {ROLL_DELAYS.map(([value, , label]) => (
                      <option value={value} selected={value === "24h"}>{label}</option>
                    ))}
                  </select>
                </label>
              }
            >
              A new secret replaces{" "}
              <strong>{key.name}</strong>. Keep the old one working long enough to deploy the new
              one.
            </ConfirmAction>
            <ConfirmAction
              action={`/panel/developers/api-keys/${key.id}/revoke`}
              csrf={props.csrf}
              label="Revoke"
              confirmLabel="Revoke key"
            >
              Requests with <code>{key.prefix}…{key.lastFour}</code>{" "}
              fail from now on. This can't be undone.
            </ConfirmAction>
          </div>
        )}
      </td>
    </tr>
  );
}

/** Developers -> API keys: create (secret shown once), list, roll and revoke. */
export function createApiKeyPages(deps: PanelDeps): Hono<PanelEnv> {
  const { services, authenticator } = deps;
  const { store, clock, environment, config } = services;

  const listPage = async (
    c: PanelContext,
    extra: {
      created?: {
        secret: string;
        name: string;
        rolledFrom?: { name: string; expiresAt: number | null };
      };
      values?: Form;
      problem?: FormProblem | null;
    },
    status = 200,
  ) => {
    const session = c.get("session");
    const now = clock.now();
    const keys = (await listApiKeysOf(store, session.org.id))
      .map((row) => toApiKeySummary(row, environment, now));
    const active = keys.filter((key) => key.status === "ACTIVE" || key.status === "EXPIRING");
    const inactive = keys.filter((key) => !active.includes(key));
    const notice = noticeOf(c, NOTICES);
    const problem = extra.problem ?? null;
    const table = (rows: ApiKeySummary[], caption: string) => (
      <div class="table-wrap">
        <table class="table">
          <caption class="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((key) => <KeyRow key={key.id} apiKey={key} csrf={session.csrfToken} />)}
          </tbody>
        </table>
      </div>
    );
    return renderPanel(services, c, {
      title: "API keys",
      current: "api-keys",
      status,
      body: (
        <>
          <PageHeader
            title="API keys"
            description={
              <>
                Secret keys for your server in the {environment}: send one as{" "}
                <code>Authorization: Bearer sk_{environment}_…</code> to {config.publicUrl}.
              </>
            }
          />
          {notice && <Notice tone="success">{notice}</Notice>}
          {extra.created && (
            <Notice tone="success" title={extra.created.rolledFrom ? "Key rolled" : "Key created"}>
              <p>
                Copy the secret of <strong>{extra.created.name}</strong>{" "}
                now and store it in your secrets manager. Paystead keeps only a hash: it can't show
                it again.
                {extra.created.rolledFrom && (
                  <>
                    {" "}The old key {extra.created.rolledFrom.expiresAt !== null &&
                        extra.created.rolledFrom.expiresAt <= clock.now()
                      ? "stopped working."
                      : (
                        <>
                          works until <DateTime at={extra.created.rolledFrom.expiresAt} />.
                        </>
                      )}
                  </>
                )}
              </p>
              <OnceValue id="new-secret" value={extra.created.secret} label="Secret key" />
              <CodeBlock
                id="try-key"
                label="Try it"
                code={`export PAYSTEAD_KEY=${extra.created.secret}\n${
                  curlCommand(config.publicUrl, "GET", "/api/v1/qr?limit=1")
                }`}
              />
            </Notice>
          )}
          <Card title="Active keys" id="active">
            {active.length === 0
              ? <EmptyState title="No active keys">Create one below to call the API.</EmptyState>
              : table(active, "Active keys")}
          </Card>
          <Card title="Create a key" id="create">
            <form
              method="post"
              action="/panel/developers/api-keys"
              class="form form--inline"
              data-once
            >
              <CsrfField token={session.csrfToken} />
              <FormError message={problemOfForm(problem, ["name"])} />
              <Field
                name="name"
                label="Name"
                hint="Where it is used, so you know which to revoke: “Shop backend”, “CI”."
                error={problemFor(problem, "name")}
              >
                {(attrs) => (
                  <input
                    {...attrs}
                    type="text"
                    required
                    maxLength={100}
                    value={typeof extra.values?.name === "string" ? extra.values.name : ""}
                  />
                )}
              </Field>
              <button type="submit" class="button button--primary">Create key</button>
            </form>
          </Card>
          {inactive.length > 0 && (
            <Card title="Revoked and expired" id="inactive">
              {table(inactive, "Revoked and expired keys")}
            </Card>
          )}
        </>
      ),
    });
  };

  return new Hono<PanelEnv>()
    .get("/panel/developers/api-keys", (c) => listPage(c, {}))
    .post("/panel/developers/api-keys", async (c) => {
      const form = await readForm(c);
      const session = c.get("session");
      const result = await attempt(() =>
        createApiKey(store, {
          orgId: session.org.id,
          name: field(form, "name"),
          environment,
          now: clock.now(),
        })
      );
      if (!result.ok) {
        return listPage(c, { values: form, problem: result.problem }, result.problem.status);
      }
      // NOTE: the secret exists only in this answer (no-store, never redirected through a URL).
      return listPage(c, {
        created: { secret: result.value.secret, name: result.value.record.name },
      }, 201);
    })
    .post("/panel/developers/api-keys/:id/revoke", async (c) => {
      await revokeApiKey(store, {
        orgId: c.get("session").org.id,
        keyId: c.req.param("id"),
        now: clock.now(),
      });
      authenticator.invalidate();
      return redirectWith(c, "/panel/developers/api-keys", "revoked");
    })
    .post("/panel/developers/api-keys/:id/roll", async (c) => {
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
      return listPage(c, {
        created: {
          secret: rolled.secret,
          name: rolled.record.name,
          rolledFrom: { name: rolled.previous.name, expiresAt: rolled.previous.expires_at },
        },
      }, 201);
    });
}
