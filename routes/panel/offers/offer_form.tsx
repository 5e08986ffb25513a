import { useT } from "../../../components/panel/i18n.ts";
import { CsrfField, Fact, Facts, Field, FormError, Money } from "../../../components/panel/ui.tsx";
import type { OfferRow } from "../../../db/schema.ts";
import { CURRENCY_CODES } from "../../../lib/money.ts";
import { RECURRING_INTERVALS } from "../../../lib/offers.ts";
import { metadataText } from "../../../lib/panel/forms.ts";
import { billingText, intervalText } from "../../../lib/panel/offers.ts";
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
  const tr = useT();
  const { t } = tr;
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
        label={t("panel.offers.form.name")}
        hint={t("panel.offers.form.nameHint")}
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
            <Field
              name="amount"
              label={t("panel.offers.form.price")}
              error={problemFor(problem, "amount")}
            >
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
            <Field
              name="currency"
              label={t("panel.offers.form.currency")}
              error={problemFor(problem, "currency")}
            >
              {(attrs) => (
                <select {...attrs}>
                  <optgroup label={t("panel.offers.form.common")}>
                    {COMMON_CURRENCIES.map((code) => (
                      <option value={code} selected={value("currency", "PLN") === code}>
                        {code}
                      </option>
                    ))}
                  </optgroup>
                  <optgroup label={t("panel.offers.form.allCurrencies")}>
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
            <Fact label={t("panel.offers.form.price")}>
              <Money amount={offer.amount} currency={offer.currency} />
            </Fact>
            <Fact label={t("panel.offers.form.billing")}>{billingText(tr, offer)}</Fact>
          </Facts>
        )}
      {offer === null && (
        <fieldset class="fieldset">
          <legend>{t("panel.offers.form.billing")}</legend>
          <div class="form__row">
            <Field
              name="recurring"
              label={t("panel.offers.form.charge")}
              error={problemFor(problem, "recurring")}
            >
              {(attrs) => (
                <select {...attrs}>
                  <option value="" selected={value("recurring") === ""}>
                    {t("panel.offers.form.once")}
                  </option>
                  {RECURRING_INTERVALS.map((interval) => (
                    <option value={interval} selected={value("recurring") === interval}>
                      {t("panel.offers.form.subscription", {
                        every: intervalText(tr, interval, 1),
                      })}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field
              name="intervalCount"
              label={t("panel.offers.form.intervalCount")}
              hint={t("panel.offers.form.intervalHint")}
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
            {t("panel.offers.form.fixed")}
          </p>
        </fieldset>
      )}
      <Field
        name="description"
        label={t("panel.offers.form.description")}
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
        label={t("panel.offers.form.metadata")}
        hint={t("panel.offers.form.metadataHint")}
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
            {t("panel.offers.form.active")}
            <span class="check__hint">{t("panel.offers.form.activeHint")}</span>
          </span>
        </label>
      )}
      <div class="form__actions">
        <button type="submit" class="button button--primary">
          {t(offer === null ? "panel.offers.form.create" : "panel.offers.form.save")}
        </button>
        {offer === null && (
          <a class="button button--secondary" href="/panel/offers">
            {t("panel.offers.form.cancel")}
          </a>
        )}
      </div>
    </form>
  );
}
