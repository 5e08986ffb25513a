import type { WebhookEndpointRow } from "../../../db/schema.ts";
import { SUBSCRIBABLE_EVENT_TYPES } from "../../../lib/webhooks/subscriptions.ts";
import { useT } from "../../../components/panel/i18n.ts";
import { CsrfField, Field, FormError } from "../../../components/panel/ui.tsx";
import {
  field,
  fields,
  type Form,
  type FormProblem,
  problemFor,
  problemOfForm,
} from "../kit/forms.ts";
import { endpointHref, WEBHOOKS_HREF } from "./href.ts";

const FAMILIES = [
  ...new Set(SUBSCRIBABLE_EVENT_TYPES.map((type) => type.split(".").slice(0, -1).join("."))),
];

function EventsPicker(props: { selected: string[]; problem: FormProblem | null }) {
  const all = props.selected.length === 0 || props.selected.includes("*");
  const { t } = useT();
  return (
    <fieldset class="fieldset">
      <legend>{t("panel.webhooks.form.events")}</legend>
      <label class="check">
        <input type="radio" name="scope" value="all" checked={all} />
        <span>{t("panel.webhooks.form.all")}</span>
      </label>
      <label class="check">
        <input type="radio" name="scope" value="some" checked={!all} />
        <span>{t("panel.webhooks.form.some")}</span>
      </label>
      <div class="events-grid">
        {FAMILIES.map((family) => (
          <div class="events-grid__family">
            <label class="check check--strong">
              <input
                type="checkbox"
                name="events"
                value={`${family}.*`}
                checked={props.selected.includes(`${family}.*`)}
              />
              <span>
                <code>{family}.*</code>
              </span>
            </label>
            {SUBSCRIBABLE_EVENT_TYPES.filter((type) =>
              type.startsWith(`${family}.`) &&
              type.split(".").length === family.split(".").length + 1
            )
              .map((type) => (
                <label class="check">
                  <input
                    type="checkbox"
                    name="events"
                    value={type}
                    checked={props.selected.includes(type)}
                  />
                  <span>
                    <code>{type}</code>
                  </span>
                </label>
              ))}
          </div>
        ))}
      </div>
      {problemFor(props.problem, "events") && (
        <p class="field__error">{problemFor(props.problem, "events")}</p>
      )}
    </fieldset>
  );
}

/** The form that adds or edits an endpoint: its URL, description and events. */
export function EndpointForm(props: {
  csrf: string;
  action: string;
  endpoint: WebhookEndpointRow | null;
  values: Form;
  problem: FormProblem | null;
  environment: string;
}) {
  const { endpoint, values, problem } = props;
  const { t } = useT();
  const text = (name: string, fallback: string) =>
    typeof values[name] === "string" ? values[name] as string : fallback;
  const selected = values.scope !== undefined
    ? (field(values, "scope") === "all" ? ["*"] : fields(values, "events"))
    : endpoint
    ? JSON.parse(endpoint.event_types) as string[]
    : ["*"];
  return (
    <form method="post" action={props.action} class="form" data-once>
      <CsrfField token={props.csrf} />
      <FormError message={problemOfForm(problem, ["url", "description", "events"])} />
      <Field
        name="url"
        label={t("panel.webhooks.form.url")}
        hint={t(
          props.environment === "production"
            ? "panel.webhooks.form.urlProduction"
            : "panel.webhooks.form.urlSandbox",
        )}
        error={problemFor(problem, "url")}
      >
        {(attrs) => (
          <input
            {...attrs}
            type="url"
            required
            maxLength={2048}
            placeholder="https://shop.example/webhooks/paystead"
            value={text("url", endpoint?.url ?? "")}
          />
        )}
      </Field>
      <Field
        name="description"
        label={t("panel.webhooks.form.description")}
        error={problemFor(problem, "description")}
      >
        {(attrs) => (
          <input
            {...attrs}
            type="text"
            maxLength={500}
            value={text("description", endpoint?.description ?? "")}
          />
        )}
      </Field>
      <EventsPicker selected={selected} problem={problem} />
      <div class="form__actions">
        <button type="submit" class="button button--primary">
          {t(endpoint ? "panel.webhooks.form.save" : "panel.webhooks.form.add")}
        </button>
        <a
          class="button button--secondary"
          href={endpoint ? endpointHref(endpoint.public_id) : WEBHOOKS_HREF}
        >
          {t("panel.webhooks.form.cancel")}
        </a>
      </div>
    </form>
  );
}
