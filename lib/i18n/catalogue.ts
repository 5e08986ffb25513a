import { customer } from "./en/customer.ts";
import { emails } from "./en/emails.ts";
import { panel } from "./en/panel.ts";

/**
 * The English catalogue is the reference: its keys are the message keys, and every other
 * language's catalogue is typed by it, so a missing or extra key fails `deno check`. Messages are
 * ICU MessageFormat (`{count, plural, one {# item} other {# items}}`), never concatenated.
 */
export type CustomerMessages = { readonly [K in keyof typeof customer]: string };
/** The e-mails' messages, keyed as the English ones. */
export type EmailMessages = { readonly [K in keyof typeof emails]: string };

/** The merchant panel's messages, keyed as the English ones. */
export type PanelMessages = { readonly [K in keyof typeof panel]: string };

/** Every message of one language, by key. */
export type Catalogue = CustomerMessages & EmailMessages & PanelMessages;

/** A message's key. */
export type MessageKey = keyof Catalogue;
