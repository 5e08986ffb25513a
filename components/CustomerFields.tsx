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

/** One of the customer's details: its label, input, hint and the server's refusal of it. */
function DetailInput(props: {
  field: DetailsField;
  label: string;
  type: "email" | "text";
  autoComplete?: string;
  inputMode?: "numeric";
  maxLength: number;
  required?: boolean;
  hint?: string;
  text: CodeEntryText;
  details: EnteredDetails;
  onEnter: (change: Partial<EnteredDetails>) => void;
}) {
  const { field, details } = props;
  const invalid = details.invalid === field;
  const hintId = props.hint === undefined ? null : `${field}-hint`;
  const describedBy = [hintId, invalid ? `${field}-error` : null].filter(Boolean).join(" ");
  return (
    <>
      <label class="field-label" for={field}>{props.label}</label>
      <input
        id={field}
        name={field}
        class="text-input"
        // Preact's input attributes are a union discriminated by `type`; both are text inputs.
        type={props.type as "text"}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        maxLength={props.maxLength}
        required={props.required}
        value={details[field]}
        aria-invalid={invalid ? "true" : "false"}
        aria-describedby={describedBy || undefined}
        onInput={(event) =>
          props.onEnter({ [field]: (event.currentTarget as HTMLInputElement).value })}
      />
      {hintId !== null && <p class="hint" id={hintId}>{props.hint}</p>}
      {invalid && (
        <p id={`${field}-error`} class="field-error">
          {detailsError(props.text, field, details)}
        </p>
      )}
    </>
  );
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
  const { text, details, onEnter } = props;
  return (
    <>
      {props.askEmail && (
        <div class="customer-field">
          <DetailInput
            field="email"
            label={props.emailRequired ? text.emailLabelRequired : text.emailLabel}
            type="email"
            autoComplete="email"
            maxLength={254}
            required={props.emailRequired}
            hint={props.emailRequired ? text.emailHintRenewal : text.emailHint}
            text={text}
            details={details}
            onEnter={onEnter}
          />
        </div>
      )}
      {props.offersInvoices && (
        <fieldset class="invoice">
          <legend class="visually-hidden">{text.invoice}</legend>
          <label class="checkbox">
            <input
              type="checkbox"
              name="invoice"
              checked={details.invoice}
              onChange={(event) =>
                onEnter({ invoice: (event.currentTarget as HTMLInputElement).checked })}
            />{" "}
            {text.invoice}
          </label>
          {(details.invoice || !props.hydrated) && (
            <div class="invoice__fields">
              <DetailInput
                field="companyName"
                label={text.companyName}
                type="text"
                autoComplete="organization"
                maxLength={200}
                text={text}
                details={details}
                onEnter={onEnter}
              />
              <DetailInput
                field="taxId"
                label={text.taxId}
                type="text"
                inputMode="numeric"
                maxLength={20}
                text={text}
                details={details}
                onEnter={onEnter}
              />
            </div>
          )}
        </fieldset>
      )}
    </>
  );
}
