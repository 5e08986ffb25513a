import type { ApiError } from "../errors.ts";
import type { MessageKey, Translator } from "../i18n/mod.ts";

/**
 * The domain's error messages the panel shows, recognised by their English wording (the API
 * answers in English and keeps doing so) and said again from the catalogue (panel_errors.ts).
 * Named groups become the message's values. A message no pattern knows is shown as it is.
 */
const PATTERNS: readonly (readonly [RegExp, MessageKey])[] = [
  // Business details (Team and plan): said without the field's code name, as each shows under
  // its field; first, as the general patterns below would match them too.
  [/^'legalName': must not be empty\.$/, "panel.error.business.legalName"],
  [/^'address\.line1': must not be empty\.$/, "panel.error.business.line1"],
  [/^'address\.postalCode': must not be empty\.$/, "panel.error.business.postalCode"],
  [/^'address\.city': must not be empty\.$/, "panel.error.business.city"],
  [
    /^'(?<param>legalName|address\.\w+|taxId|contactEmail)': Too big: expected string to have <=(?<max>\d+) characters\.$/,
    "panel.error.business.tooLong",
  ],
  [/^'address\.country': must be an ISO 3166-1 alpha-2 code/, "panel.error.business.country"],
  [/^'taxId': must be a NIP: 10 digits/, "panel.error.business.nip"],
  [/^'contactEmail': must be an e-mail address\.$/, "panel.error.business.email"],
  [/^'contactPhone': must be a phone number\.$/, "panel.error.business.phone"],
  [/^'defaultLanguage': (?<detail>.+)$/, "panel.error.business.language"],
  [
    /^'(?<param>[^']+)': Too small: expected string to have >=1 characters\.$/,
    "panel.error.tooShort",
  ],
  [
    /^'(?<param>[^']+)': Too big: expected string to have <=(?<max>\d+) characters\.$/,
    "panel.error.tooLong",
  ],
  [
    /^'(?<param>[^']+)': Too small: expected number to be >=(?<min>\d+)\.$/,
    "panel.error.numberMin",
  ],
  [/^'(?<param>[^']+)': Too big: expected number to be <=(?<max>\d+)\.$/, "panel.error.numberMax"],
  [/^(?<param>\S+) must not be empty\.$/, "panel.error.notEmpty"],
  [/^(?<param>\S+) must be an e-mail address\.$/, "panel.error.email"],
  [/^'(?<param>[^']+)': must be an ISO 4217 currency code/, "panel.error.currency"],
  [
    /^Enter an amount like 12\.50 \(at most (?<digits>\d+) digits? after the point\)\.$/,
    "panel.error.amount",
  ],
  [/^Metadata line (?<line>\d+) is not key=value/, "panel.error.metadataLine"],
  [/^Metadata has the key '(?<key>.*)' twice\.$/, "panel.error.metadataTwice"],
  [/^'(?<param>[^']+)': must be an absolute http:\/\/ or https:\/\/ URL\.$/, "panel.error.url"],
  [/^(?<param>\S+) must be an https:\/\/ URL in production\.$/, "panel.error.urlHttps"],
  [/^Tick at least one event, or choose all events\.$/, "panel.error.tickEvents"],
  [/^You chose All events and ticked some events/, "panel.error.allAndTicked"],
  [/^'(?<param>[^']+)' must be an origin, .* \(got '(?<raw>.*)'\)\.$/, "panel.error.origin"],
  [
    /^'(?<param>[^']+)' must use https:\/\/ \(http:\/\/ is accepted only/,
    "panel.error.originScheme",
  ],
  [/^'(?<param>[^']+)': wildcards are not allowed/, "panel.error.originWildcard"],
  [/^Use at least (?<min>\d+) characters; a few unrelated words/, "panel.error.passwordShort"],
  [/^Use at most (?<max>\d+) characters\.$/, "panel.error.passwordLong"],
  [/^Don't use your e-mail address as your password\.$/, "panel.error.passwordEmail"],
  [/^The two passwords are not the same\.$/, "panel.error.passwordsDiffer"],
  [/^Your current password is not right\.$/, "panel.error.currentWrong"],
  [/^Enter your current password\.$/, "panel.error.currentMissing"],
  [/^Choose your own password rather than the one-time one\.$/, "panel.error.oneTime"],
  [/^That is your current password; choose a new one\.$/, "panel.error.samePassword"],
  [/^That e-mail address and password don't match an account\./, "panel.error.signInFailed"],
  [/^Enter the e-mail address you sign in with\.$/, "panel.error.enterEmail"],
  [/^Enter your password\.$/, "panel.error.enterPassword"],
  [/^Too many failed sign-ins\. Wait (?<minutes>\d+) minutes?/, "panel.error.tooManySignIns"],
  [/^Your session has ended; sign in again\.$/, "panel.error.sessionEnded"],
  [/^Sign in again\.$/, "panel.error.signInAgain"],
  [/^Choose your own password first\.$/, "panel.error.choosePasswordFirst"],
  [/^This page was open too long or came from somewhere else\./, "panel.error.csrf"],
  [/^Send this form from its page\.$/, "panel.error.sendForm"],
  [/^There is no page at (?<path>.+)\.$/, "panel.error.noPage"],
  [
    /^This part of the panel is for (?<roles>.+); you are a (?<role>\w+) of (?<org>.+)\. Ask an owner if you need it\.$/,
    "panel.error.role",
  ],
  [
    /^This needs plan (?<plan>\w+) or higher; (?<org>.+) is on (?<current>\w+)\.$/,
    "panel.error.plan",
  ],
  [/^Choose English, Polski or the browser's language\.$/, "panel.error.language"],
  [/^Choose when the old key stops working\.$/, "panel.error.rollDelay"],
  [
    /^The key '(?<name>.*)' is already (?<status>\w+); there is nothing to (?<verb>\w+)\.$/,
    "panel.error.keyAlready",
  ],
  [/^This invitation has already been used\./, "panel.error.inviteUsed"],
  [/^This invitation has expired\./, "panel.error.inviteExpired"],
  [/^This invitation link is not valid\./, "panel.error.inviteInvalid"],
  [/^This invitation was already accepted or revoked\.$/, "panel.error.inviteGone"],
  [/^(?<email>\S+) already has a Paystead account\./, "panel.error.hasAccount"],
  [/^(?<email>\S+) is already a member of this organisation\.$/, "panel.error.alreadyMember"],
  [/^Only owners and admins manage the team\.$/, "panel.error.teamOnly"],
  [/^An organisation can have at most (?<max>\d+) webhook endpoints/, "panel.error.endpointLimit"],
  [
    /^The webhook endpoint '(?<id>[^']+)' is disabled; enable it first\.$/,
    "panel.error.endpointDisabled",
  ],
  [/^since must be before until\.$/, "panel.error.sinceUntil"],
  [/^(?<amount>\d+) (?<currency>[A-Z]{3}) is left to refund/, "panel.error.refundLeft"],
  [/^The payment '(?<id>[^']+)' is already refunded in full/, "panel.error.refundedInFull"],
  [
    /^The payment '(?<id>[^']+)' is (?<status>\w+); only a SUCCEEDED payment can be refunded\.$/,
    "panel.error.notSucceeded",
  ],
  [/^The payment '(?<id>[^']+)' is already (?<status>\w+); a final payment/, "panel.error.final"],
  [
    /^The payment '(?<id>[^']+)' is being processed; wait for its result\.$/,
    "panel.error.processing",
  ],
  [/^Choose the configuration file to import\.$/, "panel.error.configFile"],
  [/^This form is larger than any panel form can be\.$/, "panel.error.bodyTooLarge"],
  [
    /^Not sent: this production process has no SMTP_URL, so it sends no e-mails\./,
    "panel.error.noSmtp",
  ],
  [
    /^The e-mail '(?<id>[^']+)' is still being sent \(attempt (?<attempt>\d+)\); wait for it\.$/,
    "panel.error.emailSending",
  ],
  // Why a customer e-mail was not sent (its last error), as the e-mail sender records it.
  [
    /^No result was recorded: the process sending this e-mail stopped/,
    "panel.emails.reason.lostAttempt",
  ],
  [/^No attempts left\.$/, "panel.emails.reason.noAttemptsLeft"],
  [/^The server answered: (?<answer>[\s\S]*)$/, "panel.emails.reason.serverAnswered"],
  [/^Choose (?<provider>.+)'s statement \(a \.csv file\)\.$/, "panel.error.chooseStatement"],
  [/^'to' must come after 'from'\.$/, "panel.error.exportRange"],
  [
    /^'(?<param>[^']+)': must be a day such as 2026-11-01 or an ISO 8601/,
    "panel.error.exportBound",
  ],
  [
    /^Line (?<line>\d+): this is not a (?<provider>.+?) statement: it has no (?<missing>.+) column \(the header names (?<header>.*)\)\.$/,
    "panel.error.statementColumns",
  ],
  [/^Line (?<line>\d+): the date '(?<value>.*)' is not a day/, "panel.error.statementDay"],
  [
    /^Line (?<line>\d+): the operation type '(?<value>.*)' is not one (?<provider>.+)'s statements have/,
    "panel.error.statementKind",
  ],
  [
    /^Line (?<line>\d+): the currency '(?<value>.*)' is not an ISO 4217 code\.$/,
    "panel.error.statementCurrency",
  ],
  [
    /^Line (?<line>\d+): the (?<column>amount|balance|commission) '(?<value>.*)' is not an amount in (?<currency>[A-Z]{3})\.$/,
    "panel.error.statementAmount",
  ],
  [
    /^Line (?<line>\d+): the statement is larger than 10 MiB; download (?<provider>.+)'s statement/,
    "panel.error.statementTooLarge",
  ],
  [/^Line (?<line>\d+): this is not UTF-8 text/, "panel.error.statementEncoding"],
  [/^Line (?<line>\d+): this is not valid CSV \((?<detail>.*)\)\.$/, "panel.error.statementCsv"],
  [/^Line (?<line>\d+): the statement is empty\.$/, "panel.error.statementEmpty"],
  [/^Line (?<line>\d+): the statement has no operations\.$/, "panel.error.statementNoOperations"],
  [
    /^This operation exists only in the sandbox; call it on the sandbox API host \((?<url>.+)\)\.$/,
    "panel.error.sandboxOnly",
  ],
  [/^No e-mail with id '(?<id>.*)'\.$/, "panel.error.noEmail"],
];

const ROLES = ["OWNER", "ADMIN", "MEMBER"] as const;

/**
 * Values that are English words themselves, said again: the roles of the access rule's message
 * ("owners and admins", "a member").
 */
function translatedValues(
  tr: Translator,
  key: MessageKey,
  values: Record<string, string | number>,
): Record<string, string | number> {
  if (key !== "panel.error.role") return values;
  const role = ROLES.find((known) => known.toLowerCase() === values.role);
  const roles = String(values.roles).split(" and ").map((plural) => {
    const known = ROLES.find((candidate) => `${candidate.toLowerCase()}s` === plural);
    return known ? tr.t(`panel.error.rolesOf.${known}`) : plural;
  });
  return {
    ...values,
    role: role ? tr.t(`panel.role.${role}`).toLocaleLowerCase(tr.language) : values.role,
    roles: roles.reduce((first, second) => tr.t("panel.error.and", { first, second })),
  };
}

/** `message`, an ApiError's English text, in the translator's language. */
export function translateError(tr: Translator, message: string): string {
  if (tr.language === "en") return message;
  for (const [pattern, key] of PATTERNS) {
    const match = pattern.exec(message);
    if (!match) continue;
    // Counts go to plural rules as numbers.
    const values = Object.fromEntries(
      Object.entries(match.groups ?? {}).map((
        [name, value],
      ) => [name, /^\d+$/.test(value) ? Number(value) : value]),
    );
    return tr.t(key, translatedValues(tr, key, values));
  }
  return message;
}

const ERROR_TITLES = [400, 401, 403, 404, 409, 413, 429] as const;

/** A panel error page's title and text: a 4xx's own message, translated; a 5xx's none. */
export function panelErrorText(tr: Translator, error: ApiError): { title: string; text: string } {
  const status = ERROR_TITLES.find((known) => known === error.status);
  return {
    title: tr.t(status ? `panel.errorPage.${status}` : "panel.errorPage.other"),
    text: error.status < 500
      ? translateError(tr, error.message)
      : tr.t("panel.errorPage.unexpected"),
  };
}
