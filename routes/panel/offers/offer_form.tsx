import { CsrfField, Fact, Facts, Field, FormError, Money } from "../../../components/panel/ui.tsx";
import type { OfferRow } from "../../../db/schema.ts";
import { CURRENCY_CODES } from "../../../lib/money.ts";
import { RECURRING_INTERVALS } from "../../../lib/offers.ts";
import { metadataText } from "../../../lib/panel/forms.ts";
import { billingText, INTERVAL_TEXT } from "../../../lib/panel/offers.ts";
import { type Form, type FormProblem, problemFor, problemOfForm } from "../kit/forms.ts";

const COMMON_CURRENCIES = ["PLN", "EUR", "USD", "GBP", "CHF", "CZK", "SEK", "NOK", "DKK"];
const OTHER_CURRENCIES = CURRENCY_CODES.filter((code) => !COMMON_CURRENCIES.includes(code));

/** Creates an offer (`offer` null) or edits one: its price and billing are fixed once made. */
export function OfferForm(props: {
  csrf: string;
  action: string;
  offer: OfferRow | null;
  values: Form;
  problem: FormProblem | null;
}) {
  const { offer, values, problem } = props;
  const value = (name: string, fallback = "") =>
    typeof values[name] === "string" ? values[name] as string : fallback;
  const fieldsShown = [
    "name",
    "amount",
    "currency",
    "description",
    "recurring",
    "metadata",
    "active",
  ];
  return (
    <form method="post" action={props.action} class="form" data-once>
      <CsrfField token={props.csrf} />
      <FormError message={problemOfForm(problem, fieldsShown)} />
      <Field
        name="name"
        label="Name"
        hint="What the customer sees on the payment page."
        error={problemFor(problem, "name")}
      >
        {(attrs) => (
          <input
            {...attrs}
            type="text"
            required
            maxLength={200}
            value={value("name", offer?.name)}
          />
        )}
      </Field>
      {offer === null
        ? (
          <div class="form__row">
            <Field name="amount" label="Price" error={problemFor(problem, "amount")}>
              {(attrs) => (
                <input
                  {...attrs}
                  type="text"
                  inputMode="decimal"
                  required
                  placeholder="12.50"
                  value={value("amount")}
                  class="input--short"
                />
              )}
            </Field>
            <Field name="currency" label="Currency" error={problemFor(problem, "currency")}>
              {(attrs) => (
                <select {...attrs}>
                  <optgroup label="Common">
                    {COMMON_CURRENCIES.map((code) => (
                      <option value={code} selected={value("currency", "PLN") === code}>
                        {code}
                      </option>
                    ))}
                  </optgroup>
                  <optgroup label="All">
                    {OTHER_CURRENCIES.map((code) => (
                      <option value={code} selected={value("currency") === code}>{code}</option>
                    ))}
                  </optgroup>
                </select>
              )}
            </Field>
          </div>
        )
        : (
          <Facts>
            <Fact label="Price">
              <Money amount={offer.amount} currency={offer.currency} />
            </Fact>
            <Fact label="Billing">{billingText(offer)}</Fact>
          </Facts>
        )}
      {offer === null && (
        <fieldset class="fieldset">
          <legend>Billing</legend>
          <div class="form__row">
            <Field name="recurring" label="Charge" error={problemFor(problem, "recurring")}>
              {(attrs) => (
                <select {...attrs}>
                  <option value="" selected={value("recurring") === ""}>Once</option>
                  {RECURRING_INTERVALS.map((interval) => (
                    <option value={interval} selected={value("recurring") === interval}>
                      Every {INTERVAL_TEXT[interval][0]} (subscription)
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field
              name="intervalCount"
              label="Every how many"
              hint="For a subscription: 3 with month charges every 3 months."
              error={problemFor(problem, "recurring.intervalCount")}
            >
              {(attrs) => (
                <input
                  {...attrs}
                  type="number"
                  min={1}
                  max={365}
                  value={value("intervalCount", "1")}
                  class="input--short"
                />
              )}
            </Field>
          </div>
          <p class="field__hint">
            Prices and billing can't change once customers pay; create a new offer for a new price.
          </p>
        </fieldset>
      )}
      <Field
        name="description"
        label="Description (optional)"
        error={problemFor(problem, "description")}
      >
        {(attrs) => (
          <textarea {...attrs} rows={3} maxLength={2000}>
            {value("description", offer?.description ?? "")}
          </textarea>
        )}
      </Field>
      <Field
        name="metadata"
        label="Metadata (optional)"
        hint="One key=value per line, for your own systems; up to 50 keys. Not shown to customers."
        error={problemFor(problem, "metadata")}
      >
        {(attrs) => (
          <textarea {...attrs} rows={3} class="mono" placeholder="sku=COFFEE-1KG">
            {value("metadata", offer ? metadataText(JSON.parse(offer.metadata)) : "")}
          </textarea>
        )}
      </Field>
      {offer !== null && (
        <label class="check">
          <input
            type="checkbox"
            name="active"
            value="true"
            checked={typeof values.active === "string"
              ? values.active === "true"
              : offer.active === 1}
          />
          <span>
            Active
            <span class="check__hint">
              An inactive offer takes no new payments; its QR code says it is no longer available.
            </span>
          </span>
        </label>
      )}
      <div class="form__actions">
        <button type="submit" class="button button--primary">
          {offer === null ? "Create offer" : "Save changes"}
        </button>
        {offer === null && <a class="button button--secondary" href="/panel/offers">Cancel</a>}
      </div>
    </form>
  );
}
