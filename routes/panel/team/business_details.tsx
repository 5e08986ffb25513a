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
  if (!details) {
    return <p class="muted">Not set yet. An owner or admin sets them here.</p>;
  }
  const { address } = details;
  return (
    <Facts>
      <Fact label="Legal name">{details.legalName}</Fact>
      <Fact label="Address">
        {[address.line1, address.line2, `${address.postalCode} ${address.city}`, address.country]
          .filter(Boolean).join(", ")}
      </Fact>
      <Fact label="NIP">{details.taxId ?? "—"}</Fact>
      <Fact label="Contact">
        {[details.contactEmail, details.contactPhone].filter(Boolean).join(", ")}
      </Fact>
      <Fact label="Customers' default language">
        {details.defaultLanguage === "pl" ? "Polish" : "English"}
      </Fact>
      <Fact label="Invoice requests">{details.invoiceRequests ? "Offered" : "Not offered"}</Fact>
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
  return (
    <Card title="Business details" id="business-details">
      <p class="muted">
        Who your customers pay (consumer rights act, art. 12): shown on the payment page and in
        every e-mail customers get, in the sandbox and in production.
      </p>
      {!props.manage && <Summary details={props.details} />}
      {props.manage && (
        <form method="post" action="/panel/team/business-details" class="form" data-once>
          <CsrfField token={props.csrf} />
          <FormError message={problemOfForm(problem, [...BUSINESS_FIELDS])} />
          <TextField
            name="legalName"
            label="Legal name"
            required
            autocomplete="organization"
            {...field}
          />
          <TextField
            name="address.line1"
            label="Street and number"
            required
            autocomplete="address-line1"
            {...field}
          />
          <TextField
            name="address.line2"
            label="Address, second line (optional)"
            autocomplete="address-line2"
            {...field}
          />
          <div class="form__row">
            <TextField
              name="address.postalCode"
              label="Postal code"
              required
              autocomplete="postal-code"
              {...field}
            />
            <TextField
              name="address.city"
              label="City"
              required
              autocomplete="address-level2"
              {...field}
            />
            <TextField
              name="address.country"
              label="Country code"
              hint="Two letters, such as PL."
              required
              autocomplete="country"
              {...field}
            />
          </div>
          <TextField
            name="taxId"
            label="NIP (optional)"
            hint="10 digits; dashes and spaces are fine. Checked against its check digit."
            {...field}
          />
          <div class="form__row">
            <TextField
              name="contactEmail"
              label="Contact e-mail"
              type="email"
              hint="Customers' replies to their e-mails go here."
              required
              autocomplete="email"
              {...field}
            />
            <TextField
              name="contactPhone"
              label="Contact phone (optional)"
              type="tel"
              autocomplete="tel"
              {...field}
            />
          </div>
          <Field
            name="defaultLanguage"
            label="Customers' default language"
            hint="Used when neither the payment nor the customer's browser says which."
            error={problemFor(problem, "defaultLanguage")}
          >
            {(attrs) => (
              <select {...attrs}>
                <option value="pl" selected={valueOf(values, "defaultLanguage") !== "en"}>
                  Polish
                </option>
                <option value="en" selected={valueOf(values, "defaultLanguage") === "en"}>
                  English
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
              <span>Customers may ask for an invoice (company name and NIP)</span>
            </label>
          </div>
          <button type="submit" class="button button--primary">Save business details</button>
        </form>
      )}
    </Card>
  );
}
