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
  return (
    <form method="post" action={props.action} class="form" data-once>
      <CsrfField token={props.csrf} />
      <p>
        Queues again every event this endpoint subscribes to that was created in the window, for a
        receiver that was down or while the endpoint was off. Each keeps its own webhook-id, so a
        receiver that deduplicates sees nothing twice. Times are UTC, ISO 8601.
      </p>
      <FormError message={problemOfForm(props.problem, ["since", "until"])} />
      <div class="grid grid--2">
        <Field name="since" label="From" error={problemFor(props.problem, "since")}>
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
          label="Until"
          hint="Empty: now."
          error={problemFor(props.problem, "until")}
        >
          {(attrs) => <input {...attrs} type="text" placeholder="now" value={props.until} />}
        </Field>
      </div>
      <button type="submit" class="button button--secondary">Recover events</button>
    </form>
  );
}
