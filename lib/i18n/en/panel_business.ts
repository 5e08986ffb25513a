/**
 * Team and plan → Business details, and Developers → Sandbox mailbox; with the messages the
 * business details form shows for the API's validation errors (lib/panel/error_text.ts
 * recognises them by their English wording, which the API keeps; the English here repeats it).
 */
export const panelBusiness = {
  "panel.business.title": "Business details",
  "panel.business.lead":
    "Who your customers pay (consumer rights act, art. 12): shown on the payment page and in every e-mail customers get, in the sandbox and in production.",
  "panel.business.notSet": "Not set yet. An owner or admin sets them here.",
  "panel.business.legalName": "Legal name",
  "panel.business.address": "Address",
  "panel.business.nip": "NIP",
  "panel.business.contact": "Contact",
  "panel.business.defaultLanguage": "Customers' default language",
  "panel.business.defaultLanguageHint":
    "Used when neither the payment nor the customer's browser says which.",
  "panel.business.language.pl": "Polish",
  "panel.business.language.en": "English",
  "panel.business.invoiceRequests": "Invoice requests",
  "panel.business.invoiceOffered": "Offered",
  "panel.business.invoiceNotOffered": "Not offered",
  "panel.business.line1": "Street and number",
  "panel.business.line2": "Address, second line (optional)",
  "panel.business.postalCode": "Postal code",
  "panel.business.city": "City",
  "panel.business.country": "Country code",
  "panel.business.countryHint": "Two letters, such as PL.",
  "panel.business.taxId": "NIP (optional)",
  "panel.business.taxIdHint":
    "10 digits; dashes and spaces are fine. Checked against its check digit.",
  "panel.business.contactEmail": "Contact e-mail",
  "panel.business.contactEmailHint": "Customers' replies to their e-mails go here.",
  "panel.business.contactPhone": "Contact phone (optional)",
  "panel.business.invoiceCheckbox": "Customers may ask for an invoice (company name and NIP)",
  "panel.business.save": "Save business details",

  "panel.nav.mailbox": "Sandbox mailbox",
  "panel.mailbox.title": "Sandbox mailbox",
  "panel.mailbox.description":
    "Without SMTP_URL the sandbox sends no e-mail: what customers would receive lands here, newest first. {api} lists the same.",
  "panel.mailbox.smtp": "This sandbox has SMTP_URL set: new e-mails go to that server, not here.",
  "panel.mailbox.empty": "No e-mails yet",
  "panel.mailbox.emptyText":
    "Pay a sandbox payment that has a customer e-mail address (test code {code}): its confirmation appears here, and a refund's notice after it.",
  "panel.mailbox.subject": "Subject",
  "panel.mailbox.to": "To",
  "panel.mailbox.from": "From",
  "panel.mailbox.language": "Language",
  "panel.mailbox.received": "Received",
  "panel.mailbox.payment": "Payment",
  "panel.mailbox.messageId": "Message-ID",
  "panel.mailbox.older": "Older e-mails →",
  "panel.mailbox.email": "E-mail",
  "panel.mailbox.headers": "Headers",
  "panel.mailbox.asSeen": "As the customer sees it",
  "panel.mailbox.frameTitle": 'The e-mail "{subject}"',
  "panel.mailbox.plainText": "Plain text",
  "panel.mailbox.kind.PAYMENT_CONFIRMATION": "Payment confirmation",
  "panel.mailbox.kind.RENEWAL_NOTICE": "Renewal notice",
  "panel.mailbox.kind.RENEWAL_REMINDER": "Renewal reminder",
  "panel.mailbox.kind.REFUND_NOTICE": "Refund notice",

  "panel.error.business.legalName": "''legalName'': must not be empty.",
  "panel.error.business.line1": "''address.line1'': must not be empty.",
  "panel.error.business.postalCode": "''address.postalCode'': must not be empty.",
  "panel.error.business.city": "''address.city'': must not be empty.",
  "panel.error.business.tooLong":
    "''{param}'': Too big: expected string to have <={max} characters.",
  "panel.error.business.country":
    "''address.country'': must be an ISO 3166-1 alpha-2 code such as PL.",
  "panel.error.business.nip": "''taxId'': must be a NIP: 10 digits with a valid checksum.",
  "panel.error.business.email": "''contactEmail'': must be an e-mail address.",
  "panel.error.business.phone": "''contactPhone'': must be a phone number.",
  "panel.error.business.language": "''defaultLanguage'': {detail}",
  "panel.error.sandboxOnly":
    "This operation exists only in the sandbox; call it on the sandbox API host ({url}).",
  "panel.error.noEmail": "No e-mail with id ''{id}''.",
} as const;
