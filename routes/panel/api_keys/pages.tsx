import {
  Card,
  CodeBlock,
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
} from "../../../components/panel/ui.tsx";
import { type ApiKeySummary, isUsableKeyStatus } from "../../../lib/api_keys.ts";
import type { Environment } from "../../../lib/config.ts";
import { curlCommand } from "../../../lib/panel/curl.ts";
import { type FormProblem, problemFor, problemOfForm } from "../kit/forms.ts";
import { API_KEYS_HREF } from "./href.ts";
import { ROLL_DELAYS } from "./roll_delays.ts";

const STATUS_LABEL: Record<ApiKeySummary["status"], string> = {
  ACTIVE: "Active",
  EXPIRING: "Expiring",
  EXPIRED: "Expired",
  REVOKED: "Revoked",
};

function KeyRow(props: { apiKey: ApiKeySummary; csrf: string }) {
  const key = props.apiKey;
  const usable = isUsableKeyStatus(key.status);
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
              action={`${API_KEYS_HREF}/${key.id}/roll`}
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
              action={`${API_KEYS_HREF}/${key.id}/revoke`}
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

/** A key just created or rolled: its secret, shown this once. */
export interface CreatedKey {
  secret: string;
  name: string;
  rolledFrom?: { name: string; expiresAt: number | null };
}

function KeysTable(props: { rows: ApiKeySummary[]; caption: string; csrf: string }) {
  return (
    <div class="table-wrap">
      <table class="table">
        <caption class="visually-hidden">{props.caption}</caption>
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
          {props.rows.map((key) => <KeyRow key={key.id} apiKey={key} csrf={props.csrf} />)}
        </tbody>
      </table>
    </div>
  );
}

/** Developers -> API keys: the keys, a new key's secret once, and the form to create one. */
export function ApiKeysPage(props: {
  environment: Environment;
  publicUrl: string;
  csrf: string;
  now: number;
  active: ApiKeySummary[];
  inactive: ApiKeySummary[];
  notice: string | null;
  created: CreatedKey | null;
  name: string;
  problem: FormProblem | null;
}) {
  const { environment, created, problem } = props;
  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            Secret keys for your server in the {environment}: send one as{" "}
            <code>Authorization: Bearer sk_{environment}_…</code> to {props.publicUrl}.
          </>
        }
      />
      {props.notice && <Notice tone="success">{props.notice}</Notice>}
      {created && (
        <Notice tone="success" title={created.rolledFrom ? "Key rolled" : "Key created"}>
          <p>
            Copy the secret of <strong>{created.name}</strong>{" "}
            now and store it in your secrets manager. Paystead keeps only a hash: it can't show it
            again.
            {created.rolledFrom && (
              <>
                {" "}The old key {created.rolledFrom.expiresAt !== null &&
                    created.rolledFrom.expiresAt <= props.now
                  ? "stopped working."
                  : (
                    <>
                      works until <DateTime at={created.rolledFrom.expiresAt} />.
                    </>
                  )}
              </>
            )}
          </p>
          <OnceValue id="new-secret" value={created.secret} label="Secret key" />
          <CodeBlock
            id="try-key"
            label="Try it"
            code={`export PAYSTEAD_KEY=${created.secret}\n${
              curlCommand(props.publicUrl, "GET", "/api/v1/qr?limit=1")
            }`}
          />
        </Notice>
      )}
      <Card title="Active keys" id="active">
        {props.active.length === 0
          ? <EmptyState title="No active keys">Create one below to call the API.</EmptyState>
          : <KeysTable rows={props.active} caption="Active keys" csrf={props.csrf} />}
      </Card>
      <Card title="Create a key" id="create">
        <form method="post" action={API_KEYS_HREF} class="form form--inline" data-once>
          <CsrfField token={props.csrf} />
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
                value={props.name}
              />
            )}
          </Field>
          <button type="submit" class="button button--primary">Create key</button>
        </form>
      </Card>
      {props.inactive.length > 0 && (
        <Card title="Revoked and expired" id="inactive">
          <KeysTable rows={props.inactive} caption="Revoked and expired keys" csrf={props.csrf} />
        </Card>
      )}
    </>
  );
}
