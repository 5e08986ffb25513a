import { rich, useT } from "../../../components/panel/i18n.ts";
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
  TableWrap,
} from "../../../components/panel/ui.tsx";
import { type ApiKeySummary, isUsableKeyStatus } from "../../../lib/api_keys.ts";
import type { Environment } from "../../../lib/config.ts";
import { curlCommand } from "../../../lib/panel/curl.ts";
import { type FormProblem, problemFor, problemOfForm } from "../kit/forms.ts";
import { API_KEYS_HREF } from "./href.ts";
import { ROLL_DELAYS } from "./roll_delays.ts";

function KeyRow(props: { apiKey: ApiKeySummary; csrf: string }) {
  const key = props.apiKey;
  const usable = isUsableKeyStatus(key.status);
  const { t } = useT();
  return (
    <tr>
      <td>
        <span class="key__name">{key.name}</span>
        <code class="key__secret">{key.prefix}…{key.lastFour}</code>
      </td>
      <td>
        <StatusBadge status={key.status} label={t(`panel.keys.status.${key.status}`)} />
        {key.status === "EXPIRING" && (
          <span class="muted small block">
            {t("panel.keys.until")} <DateTime at={key.expiresAt} />
          </span>
        )}
      </td>
      <td>
        <DateTime at={key.createdAt} />
      </td>
      <td>
        <DateTime at={key.lastUsedAt} empty={t("panel.keys.never")} />
      </td>
      <td class="actions-cell">
        {usable && (
          <div class="actions actions--end">
            <ConfirmAction
              action={`${API_KEYS_HREF}/${key.id}/roll`}
              csrf={props.csrf}
              label={t("panel.keys.roll")}
              confirmLabel={t("panel.keys.rollConfirm")}
              tone="default"
              extra={
                <label class="field__label">
                  {t("panel.keys.oldStops")}
                  <select name="expiresIn">
                    {ROLL_DELAYS.map(([value]) => (
                      <option value={value} selected={value === "24h"}>
                        {t(`panel.keys.delay.${value}`)}
                      </option>
                    ))}
                  </select>
                </label>
              }
            >
              {t("panel.keys.rollText", { name: key.name })}
            </ConfirmAction>
            <ConfirmAction
              action={`${API_KEYS_HREF}/${key.id}/revoke`}
              csrf={props.csrf}
              label={t("panel.keys.revoke")}
              confirmLabel={t("panel.keys.revokeConfirm")}
            >
              {t("panel.keys.revokeText", { key: `${key.prefix}…${key.lastFour}` })}
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
  const { t } = useT();
  return (
    <TableWrap label={props.caption}>
      <table class="table">
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t("panel.keys.col.key")}</th>
            <th scope="col">{t("panel.keys.col.status")}</th>
            <th scope="col">{t("panel.keys.col.created")}</th>
            <th scope="col">{t("panel.keys.col.lastUsed")}</th>
            <th scope="col">
              <span class="visually-hidden">{t("panel.keys.col.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((key) => <KeyRow key={key.id} apiKey={key} csrf={props.csrf} />)}
        </tbody>
      </table>
    </TableWrap>
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
  const tr = useT();
  const { t } = tr;
  return (
    <>
      <PageHeader
        title={t("panel.keys.title")}
        description={rich(tr, "panel.keys.description", {
          header: <code>Authorization: Bearer sk_{environment}_…</code>,
        }, { environment: t(`panel.keys.env.${environment}`), url: props.publicUrl })}
      />
      {props.notice && <Notice tone="success">{props.notice}</Notice>}
      {created && (
        <Notice
          tone="success"
          title={t(created.rolledFrom ? "panel.keys.rolled" : "panel.keys.created")}
        >
          <p>
            {t("panel.keys.copyNow", { name: created.name })}
            {created.rolledFrom && (
              <>
                {" "}
                {created.rolledFrom.expiresAt !== null &&
                    created.rolledFrom.expiresAt <= props.now
                  ? t("panel.keys.oldStopped")
                  : (
                    <>
                      {t("panel.keys.oldWorksUntil")}{" "}
                      <DateTime at={created.rolledFrom.expiresAt} />.
                    </>
                  )}
              </>
            )}
          </p>
          <OnceValue id="new-secret" value={created.secret} label={t("panel.keys.secret")} />
          <CodeBlock
            id="try-key"
            label={t("panel.keys.tryIt")}
            code={`export PAYSTEAD_KEY=${created.secret}\n${
              curlCommand(props.publicUrl, "GET", "/api/v1/qr?limit=1")
            }`}
          />
        </Notice>
      )}
      <Card title={t("panel.keys.active")} id="active">
        {props.active.length === 0
          ? <EmptyState title={t("panel.keys.noActive")}>{t("panel.keys.noActiveText")}</EmptyState>
          : <KeysTable rows={props.active} caption={t("panel.keys.active")} csrf={props.csrf} />}
      </Card>
      <Card title={t("panel.keys.create")} id="create">
        <form method="post" action={API_KEYS_HREF} class="form form--inline" data-once>
          <CsrfField token={props.csrf} />
          <FormError message={problemOfForm(problem, ["name"])} />
          <Field
            name="name"
            label={t("panel.keys.name")}
            hint={t("panel.keys.nameHint")}
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
          <button type="submit" class="button button--primary">
            {t("panel.keys.createButton")}
          </button>
        </form>
      </Card>
      {props.inactive.length > 0 && (
        <Card title={t("panel.keys.inactive")} id="inactive">
          <KeysTable
            rows={props.inactive}
            caption={t("panel.keys.inactiveCaption")}
            csrf={props.csrf}
          />
        </Card>
      )}
    </>
  );
}
