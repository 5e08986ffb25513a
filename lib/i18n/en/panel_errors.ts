/**
 * The domain's error messages as the panel shows them (lib/panel/error_text.ts recognises each
 * by its English wording, which the API keeps). The English here repeats lib's own words.
 */
export const panelErrors = {
  "panel.error.tooShort": "''{param}'': Too small: expected string to have >=1 characters.",
  "panel.error.tooLong": "''{param}'': Too big: expected string to have <={max} characters.",
  "panel.error.numberMin": "''{param}'': Too small: expected number to be >={min}.",
  "panel.error.numberMax": "''{param}'': Too big: expected number to be <={max}.",
  "panel.error.notEmpty": "{param} must not be empty.",
  "panel.error.email": "{param} must be an e-mail address.",
  "panel.error.currency":
    "''{param}'': must be an ISO 4217 currency code in upper case, such as PLN or EUR.",
  "panel.error.amount":
    "Enter an amount like 12.50 (at most {digits, plural, one {# digit} other {# digits}} after the point).",
  "panel.error.metadataLine":
    "Metadata line {line} is not key=value: write each entry as orderId=A-1001.",
  "panel.error.metadataTwice": "Metadata has the key ''{key}'' twice.",
  "panel.error.url": "''{param}'': must be an absolute http:// or https:// URL.",
  "panel.error.urlHttps": "{param} must be an https:// URL in production.",
  "panel.error.tickEvents": "Tick at least one event, or choose all events.",
  "panel.error.allAndTicked":
    "You chose All events and ticked some events: choose Only the events ticked below to get just those, or untick them to get all events.",
  "panel.error.origin":
    "''{param}'' must be an origin, scheme://host[:port] with no path, such as https://shop.example (got ''{raw}'').",
  "panel.error.originScheme":
    "''{param}'' must use https:// (http:// is accepted only for localhost in the sandbox).",
  "panel.error.originWildcard":
    "''{param}'': wildcards are not allowed; list each origin that embeds the checkout.",
  "panel.error.passwordShort":
    "Use at least {min} characters; a few unrelated words make a good one.",
  "panel.error.passwordLong": "Use at most {max} characters.",
  "panel.error.passwordEmail": "Don't use your e-mail address as your password.",
  "panel.error.passwordsDiffer": "The two passwords are not the same.",
  "panel.error.currentWrong": "Your current password is not right.",
  "panel.error.currentMissing": "Enter your current password.",
  "panel.error.oneTime": "Choose your own password rather than the one-time one.",
  "panel.error.samePassword": "That is your current password; choose a new one.",
  "panel.error.signInFailed":
    "That e-mail address and password don't match an account. Check both and try again.",
  "panel.error.enterEmail": "Enter the e-mail address you sign in with.",
  "panel.error.enterPassword": "Enter your password.",
  "panel.error.tooManySignIns":
    "Too many failed sign-ins. Wait {minutes} {minutes, plural, one {minute} other {minutes}} and try again.",
  "panel.error.sessionEnded": "Your session has ended; sign in again.",
  "panel.error.signInAgain": "Sign in again.",
  "panel.error.choosePasswordFirst": "Choose your own password first.",
  "panel.error.csrf":
    "This page was open too long or came from somewhere else. Reload it and try again.",
  "panel.error.sendForm": "Send this form from its page.",
  "panel.error.noPage": "There is no page at {path}.",
  "panel.error.role":
    "This part of the panel is for {roles}; you are a {role} of {org}. Ask an owner if you need it.",
  "panel.error.plan": "This needs plan {plan} or higher; {org} is on {current}.",
  "panel.error.language": "Choose English, Polski or the browser''s language.",
  "panel.error.rollDelay": "Choose when the old key stops working.",
  "panel.error.keyAlready": "The key ''{name}'' is already {status}; there is nothing to {verb}.",
  "panel.error.inviteUsed": "This invitation has already been used. Sign in instead.",
  "panel.error.inviteExpired":
    "This invitation has expired. Ask whoever invited you for a new one.",
  "panel.error.inviteInvalid":
    "This invitation link is not valid. Ask whoever invited you for a new one.",
  "panel.error.inviteGone": "This invitation was already accepted or revoked.",
  "panel.error.hasAccount":
    "{email} already has a Paystead account. Sign in with it, then open this link again to accept.",
  "panel.error.alreadyMember": "{email} is already a member of this organisation.",
  "panel.error.teamOnly": "Only owners and admins manage the team.",
  "panel.error.endpointLimit":
    "An organisation can have at most {max} webhook endpoints; delete one, or subscribe an existing one to more events.",
  "panel.error.endpointDisabled": "The webhook endpoint ''{id}'' is disabled; enable it first.",
  "panel.error.sinceUntil": "since must be before until.",
  "panel.error.refundLeft": "{amount} {currency} is left to refund (pending refunds count).",
  "panel.error.refundedInFull":
    "The payment ''{id}'' is already refunded in full (pending refunds count).",
  "panel.error.notSucceeded":
    "The payment ''{id}'' is {status}; only a SUCCEEDED payment can be refunded.",
  "panel.error.final": "The payment ''{id}'' is already {status}; a final payment never changes.",
  "panel.error.processing": "The payment ''{id}'' is being processed; wait for its result.",
  "panel.error.configFile": "Choose the configuration file to import.",
  "panel.error.bodyTooLarge": "This form is larger than any panel form can be.",
  "panel.error.rolesOf.OWNER": "owners",
  "panel.error.rolesOf.ADMIN": "admins",
  "panel.error.rolesOf.MEMBER": "members",
  "panel.error.and": "{first} and {second}",
  "panel.error.noSmtp":
    "Not sent: this production process has no SMTP_URL, so it sends no e-mails. Set SMTP_URL and MAIL_FROM, restart, then resend.",
  "panel.error.emailSending":
    "The e-mail ''{id}'' is still being sent (attempt {attempt}); wait for it.",
  "panel.error.chooseStatement": "Choose {provider}''s statement (a .csv file).",
  "panel.error.exportRange": "''to'' must come after ''from''.",
  "panel.error.exportBound":
    "''{param}'': must be a day such as 2026-11-01 or an ISO 8601 time such as 2026-11-01T00:00:00.000Z.",
  "panel.error.statementColumns":
    "Line {line}: this is not a {provider} statement: it has no {missing} column (the header names {header}).",
  "panel.error.statementDay": "Line {line}: the date ''{value}'' is not a day (YYYY-MM-DD).",
  "panel.error.statementKind":
    "Line {line}: the operation type ''{value}'' is not one {provider}''s statements have (a purchase, a refund, a commission or a payout).",
  "panel.error.statementCurrency": "Line {line}: the currency ''{value}'' is not an ISO 4217 code.",
  "panel.error.statementAmount":
    "Line {line}: the {column} ''{value}'' is not an amount in {currency}.",
  "panel.error.statementTooLarge":
    "Line {line}: the statement is larger than 10 MiB; download {provider}''s statement of a shorter period.",
  "panel.error.statementEncoding": "Line {line}: this is not UTF-8 text, so not a CSV.",
  "panel.error.statementCsv": "Line {line}: this is not valid CSV ({detail}).",
  "panel.error.statementEmpty": "Line {line}: the statement is empty.",
  "panel.error.statementNoOperations": "Line {line}: the statement has no operations.",
} as const;
