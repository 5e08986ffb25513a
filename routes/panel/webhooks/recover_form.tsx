import { useT } from "../../../components/panel/i18n.ts";
import { CsrfField, Field, FormError } from "../../../components/panel/ui.tsx";
import { type FormProblem, problemFor, problemOfForm } from "../kit/forms.ts";

/** Whether `value` is an ISO 8601 time this form may be prefilled with. */
export function isIsoTime(value: string | undefined): value is string {
  return value !== undefined && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/.test(value) &&
    !Number.isNaN(Date.parse(value));
}

/**
 * The "Recover events" form of an endpoint: queues again the events of a time window, prefilled
 * with the time the endpoint was off when it was just re-enabled.
 */
export function RecoverEventsForm(props: {
  action: string;
  csrf: string;
  since: string;
  until: string;
  problem: FormProblem | null;
}) {
  const { t } = useT();
  return (
    <form method="post" action={props.action} class="form" data-once>
      <CsrfField token={props.csrf} />
      <p>{t("panel.webhooks.recover.text")}</p>
      <FormError message={problemOfForm(props.problem, ["since", "until"])} />
      <div class="grid grid--2">
        <Field
          name="since"
          label={t("panel.webhooks.recover.from")}
          error={problemFor(props.problem, "since")}
        >
          {(attrs) => (
            <input
              {...attrs}
              type="text"
              required
              placeholder="2026-11-21T10:00:00.000Z"
              value={props.since}
            />
          )}
        </Field>
        <Field
          name="until"
          label={t("panel.webhooks.recover.until")}
          hint={t("panel.webhooks.recover.untilHint")}
          error={problemFor(props.problem, "until")}
        >
          {(attrs) => (
            <input
              {...attrs}
              type="text"
              placeholder={t("panel.webhooks.recover.now")}
              value={props.until}
            />
          )}
        </Field>
      </div>
      <button type="submit" class="button button--secondary">
        {t("panel.webhooks.recover.submit")}
      </button>
    </form>
  );
}
