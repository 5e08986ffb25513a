import type { CodeEntryText } from "../lib/checkout/code_entry_text.ts";

/** A customer's detail the server may refuse, named as the form field and the API `param`. */
export type DetailsField = "email" | "companyName" | "taxId";

/** The customer's details as typed, and the field the server found wrong. */
export interface EnteredDetails {
  email: string;
  invoice: boolean;
  companyName: string;
  taxId: string;
  invalid: DetailsField | null;
}

function detailsError(text: CodeEntryText, field: DetailsField, details: EnteredDetails): string {
  return field === "email"
    ? (details.email.trim() === "" ? text.emailMissing : text.emailInvalid)
    : field === "companyName"
    ? text.companyNameMissing
    : text.taxIdInvalid;
}

/**
 * The fields beside the code: the customer's e-mail address when the payment has none, and
 * "I need an invoice" with the company's name and NIP where the organisation offers invoices.
 * Without JavaScript the invoice fields always show; with it, once the box is ticked.
 */
export function CustomerFields(props: {
  text: CodeEntryText;
  askEmail: boolean;
  /** The payment starts a subscription whose renewal links are e-mailed: no address, no payment. */
  emailRequired: boolean;
  offersInvoices: boolean;
  details: EnteredDetails;
  hydrated: boolean;
  onEnter: (change: Partial<EnteredDetails>) => void;
}) {
  return (
    <>
      {props.askEmail && (
        <div class="customer-field">
          <label class="field-label" for="email">
            {props.emailRequired ? props.text.emailLabelRequired : props.text.emailLabel}
          </label>
          <input
            id="email"
            name="email"
            class="text-input"
            type="email"
            autoComplete="email"
            maxLength={254}
            required={props.emailRequired}
            value={props.details.email}
            aria-invalid={props.details.invalid === "email" ? "true" : "false"}
            aria-describedby={props.details.invalid === "email"
              ? "email-hint email-error"
              : "email-hint"}
            onInput={(event) =>
              props.onEnter({ email: (event.currentTarget as HTMLInputElement).value })}
          />
          <p class="hint" id="email-hint">
            {props.emailRequired ? props.text.emailHintRenewal : props.text.emailHint}
          </p>
          {props.details.invalid === "email" && (
            <p id="email-error" class="field-error">
              {detailsError(props.text, "email", props.details)}
            </p>
          )}
        </div>
      )}
      {props.offersInvoices && (
        <fieldset class="invoice">
          <legend class="visually-hidden">{props.text.invoice}</legend>
          <label class="checkbox">
            <input
              type="checkbox"
              name="invoice"
              checked={props.details.invoice}
              onChange={(event) =>
                props.onEnter({ invoice: (event.currentTarget as HTMLInputElement).checked })}
            />{" "}
            {props.text.invoice}
          </label>
          {(props.details.invoice || !props.hydrated) && (
            <div class="invoice__fields">
              <label class="field-label" for="companyName">{props.text.companyName}</label>
              <input
                id="companyName"
                name="companyName"
                class="text-input"
                type="text"
                autoComplete="organization"
                maxLength={200}
                value={props.details.companyName}
                aria-invalid={props.details.invalid === "companyName" ? "true" : "false"}
                aria-describedby={props.details.invalid === "companyName"
                  ? "companyName-error"
                  : undefined}
                onInput={(event) =>
                  props.onEnter({ companyName: (event.currentTarget as HTMLInputElement).value })}
              />
              {props.details.invalid === "companyName" && (
                <p id="companyName-error" class="field-error">
                  {detailsError(props.text, "companyName", props.details)}
                </p>
              )}
              <label class="field-label" for="taxId">{props.text.taxId}</label>
              <input
                id="taxId"
                name="taxId"
                class="text-input"
                type="text"
                inputMode="numeric"
                maxLength={20}
                value={props.details.taxId}
                aria-invalid={props.details.invalid === "taxId" ? "true" : "false"}
                aria-describedby={props.details.invalid === "taxId" ? "taxId-error" : undefined}
                onInput={(event) =>
                  props.onEnter({ taxId: (event.currentTarget as HTMLInputElement).value })}
              />
              {props.details.invalid === "taxId" && (
                <p id="taxId-error" class="field-error">
                  {detailsError(props.text, "taxId", props.details)}
                </p>
              )}
            </div>
          )}
        </fieldset>
      )}
    </>
  );
}
