import { useT } from "../../../components/panel/i18n.ts";
import { Card, CsrfField, Fact, Facts, Field, FormError } from "../../../components/panel/ui.tsx";
import type { BusinessDetails } from "../../../lib/business_details.ts";
import { BUSINESS_FIELDS } from "../../../lib/panel/business_details.ts";
import { type Form, type FormProblem, problemFor, problemOfForm } from "../kit/forms.ts";

function valueOf(values: Form, name: string): string {
  const value = values[name];
  return typeof value === "string" ? value : "";
}

function TextField(props: {
  name: string;
  label: string;
  values: Form;
  problem: FormProblem | null;
  hint?: string;
  type?: "text" | "email" | "tel";
  required?: boolean;
  autocomplete?: string;
}) {
  return (
    <Field
      name={props.name}
      label={props.label}
      hint={props.hint}
      error={problemFor(props.problem, props.name)}
    >
      {(attrs) => {
        const common = {
          ...attrs,
          required: props.required,
          autoComplete: props.autocomplete,
          value: valueOf(props.values, props.name),
        };
        if (props.type === "email") return <input {...common} type="email" />;
        if (props.type === "tel") return <input {...common} type="tel" />;
        return <input {...common} type="text" />;
      }}
    </Field>
  );
}

function Summary(props: { details: BusinessDetails | null }) {
  const { details } = props;
  const tr = useT();
  if (!details) {
    return <p class="muted">{tr.t("panel.business.notSet")}</p>;
  }
  const { address } = details;
  return (
    <Facts>
      <Fact label={tr.t("panel.business.legalName")}>{details.legalName}</Fact>
      <Fact label={tr.t("panel.business.address")}>
        {[address.line1, address.line2, `${address.postalCode} ${address.city}`, address.country]
          .filter(Boolean).join(", ")}
      </Fact>
      <Fact label={tr.t("panel.business.nip")}>{details.taxId ?? tr.t("panel.none")}</Fact>
      <Fact label={tr.t("panel.business.contact")}>
        {[details.contactEmail, details.contactPhone].filter(Boolean).join(", ")}
      </Fact>
      <Fact label={tr.t("panel.business.defaultLanguage")}>
        {tr.t(`panel.business.language.${details.defaultLanguage}`)}
      </Fact>
      <Fact label={tr.t("panel.business.invoiceRequests")}>
        {tr.t(
          details.invoiceRequests
            ? "panel.business.invoiceOffered"
            : "panel.business.invoiceNotOffered",
        )}
      </Fact>
    </Facts>
  );
}

/**
 * Who customers pay, as the hosted page's footer and every customer e-mail show it; owners and
 * admins edit it here (shared by the sandbox and production).
 */
export function BusinessDetailsCard(props: {
  details: BusinessDetails | null;
  manage: boolean;
  csrf: string;
  values: Form;
  problem: FormProblem | null;
}) {
  const { values, problem } = props;
  const field = { values, problem };
  const tr = useT();
  return (
    <Card title={tr.t("panel.business.title")} id="business-details">
      <p class="muted">{tr.t("panel.business.lead")}</p>
      {!props.manage && <Summary details={props.details} />}
      {props.manage && (
        <form method="post" action="/panel/team/business-details" class="form" data-once>
          <CsrfField token={props.csrf} />
          <FormError message={problemOfForm(problem, [...BUSINESS_FIELDS])} />
          <TextField
            name="legalName"
            label={tr.t("panel.business.legalName")}
            required
            autocomplete="organization"
            {...field}
          />
          <TextField
            name="address.line1"
            label={tr.t("panel.business.line1")}
            required
            autocomplete="address-line1"
            {...field}
          />
          <TextField
            name="address.line2"
            label={tr.t("panel.business.line2")}
            autocomplete="address-line2"
            {...field}
          />
          <div class="form__row">
            <TextField
              name="address.postalCode"
              label={tr.t("panel.business.postalCode")}
              required
              autocomplete="postal-code"
              {...field}
            />
            <TextField
              name="address.city"
              label={tr.t("panel.business.city")}
              required
              autocomplete="address-level2"
              {...field}
            />
            <TextField
              name="address.country"
              label={tr.t("panel.business.country")}
              hint={tr.t("panel.business.countryHint")}
              required
              autocomplete="country"
              {...field}
            />
          </div>
          <TextField
            name="taxId"
            label={tr.t("panel.business.taxId")}
            hint={tr.t("panel.business.taxIdHint")}
            {...field}
          />
          <div class="form__row">
            <TextField
              name="contactEmail"
              label={tr.t("panel.business.contactEmail")}
              type="email"
              hint={tr.t("panel.business.contactEmailHint")}
              required
              autocomplete="email"
              {...field}
            />
            <TextField
              name="contactPhone"
              label={tr.t("panel.business.contactPhone")}
              type="tel"
              autocomplete="tel"
              {...field}
            />
          </div>
          <Field
            name="defaultLanguage"
            label={tr.t("panel.business.defaultLanguage")}
            hint={tr.t("panel.business.defaultLanguageHint")}
            error={problemFor(problem, "defaultLanguage")}
          >
            {(attrs) => (
              <select {...attrs}>
                <option value="pl" selected={valueOf(values, "defaultLanguage") !== "en"}>
                  {tr.t("panel.business.language.pl")}
                </option>
                <option value="en" selected={valueOf(values, "defaultLanguage") === "en"}>
                  {tr.t("panel.business.language.en")}
                </option>
              </select>
            )}
          </Field>
          <div class="field">
            <label class="check">
              <input
                type="checkbox"
                name="invoiceRequests"
                checked={valueOf(values, "invoiceRequests") === "on"}
              />
              <span>{tr.t("panel.business.invoiceCheckbox")}</span>
            </label>
          </div>
          <button type="submit" class="button button--primary">
            {tr.t("panel.business.save")}
          </button>
        </form>
      )}
    </Card>
  );
}
