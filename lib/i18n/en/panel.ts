import { panelHome } from "./panel_home.ts";
import { panelDevelopers } from "./panel_developers.ts";
import { panelQuickstart, panelQuickstartPage } from "./panel_quickstart.ts";
import { panelReference } from "./panel_reference.ts";
import { panelConfig } from "./panel_config.ts";
import { panelErrors } from "./panel_errors.ts";
import { panelCheckout } from "./panel_checkout.ts";
import { panelWebhooks } from "./panel_webhooks.ts";
import { panelOffers } from "./panel_offers.ts";
import { panelPayments } from "./panel_payments.ts";
import { panelTeam } from "./panel_team.ts";
import { panelApiKeys } from "./panel_api_keys.ts";
import { panelEmails } from "./panel_emails.ts";
import { panelRecords } from "./panel_records.ts";
import { panelBusiness } from "./panel_business.ts";

/**
 * Words a merchant reads in the panel: its frame, the shared parts and the pages before and
 * around sign-in. Each area's own words are in `panel_<area>.ts`, spread in at the end.
 */
const frame = {
  "panel.env.sandbox": "Sandbox",
  "panel.env.production": "Production",
  "panel.env.switch": "environment: switch",
  "panel.env.heading": "Environment",
  "panel.env.here": "(you are here)",
  "panel.env.goTo": "Go to {environment} →",
  "panel.env.note":
    "Switching copies nothing. API keys, offers, webhooks and checkout settings are set up separately in each environment; move them by hand when you go live.",
  "panel.role.OWNER": "Owner",
  "panel.role.ADMIN": "Admin",
  "panel.role.MEMBER": "Member",
  "panel.user.roleOf": "{role} of {org}",
  "panel.user.account": "Account and password",
  "panel.user.switchOrg": "Switch organisation",
  "panel.user.signOut": "Sign out",
  "panel.title": "{page} · {org} · Paystead {environment}",
  "panel.skip": "Skip to content",
  "panel.sandbox.label": "Sandbox",
  "panel.sandbox.text": "Test data only: no real money moves.",
  "panel.sandbox.clock":
    "This organisation's sandbox clock runs {days, plural, one {# day} other {# days}} ahead.",
  "panel.sandbox.region": "Sandbox notice",
  "panel.plan": "Plan {plan}",
  "panel.nav.label": "Panel",
  "panel.nav.home": "Home",
  "panel.nav.payments": "Payments",
  "panel.nav.offers": "Offers",
  "panel.nav.team": "Team and plan",
  "panel.nav.developers": "Developers",
  "panel.nav.overview": "Overview",
  "panel.nav.upgrade": "Upgrade",
  "panel.nav.apiKeys": "API keys",
  "panel.nav.webhooks": "Webhooks",
  "panel.nav.checkout": "Checkout sessions",
  "panel.nav.configTransfer": "Copy configuration",
  "panel.nav.quickstart": "Quick Start",
  "panel.nav.reference": "API reference",
  "panel.backup.title": "The last scheduled backup failed",
  "panel.backup.text":
    "At {at}: {message} The server logs say more; backups are retried every few minutes.",
} as const;

const shared = {
  "panel.copy": "Copy",
  "panel.copied": "Copied",
  "panel.select": "Press Ctrl+C",
  "panel.none": "—",
  "panel.passwordHint":
    "At least {min} characters and hard to guess: a few unrelated words work well.",
  "panel.password.tooEasy": "This password is too easy to guess.",
  "panel.password.advice":
    "Four or five unrelated words, or a password manager's random one, are hard to guess.",
  "panel.scroll.table": "{label} (scrolls sideways)",
  "panel.status.SUCCEEDED": "Succeeded",
  "panel.status.ACTIVE": "Active",
  "panel.status.COMPLETED": "Completed",
  "panel.status.ENABLED": "Enabled",
  "panel.status.PENDING": "Pending",
  "panel.status.OPEN": "Open",
  "panel.status.PROCESSING": "Processing",
  "panel.status.EXPIRING": "Expiring",
  "panel.status.PAST_DUE": "Past due",
  "panel.status.FAILED": "Failed",
  "panel.status.REVOKED": "Revoked",
  "panel.status.DISABLED": "Disabled",
  "panel.status.CANCELED": "Canceled",
  "panel.status.EXPIRED": "Expired",
  "panel.status.INACTIVE": "Inactive",
  "panel.status.REFUNDED": "Refunded",
  "panel.status.PARTIALLY_REFUNDED": "Partially refunded",
} as const;

const errors = {
  "panel.errorPage.400": "Check what you entered",
  "panel.errorPage.401": "Sign in again",
  "panel.errorPage.403": "You can't do this here",
  "panel.errorPage.404": "Not found",
  "panel.errorPage.409": "That didn't work",
  "panel.errorPage.413": "That was too much at once",
  "panel.errorPage.429": "Too many attempts",
  "panel.errorPage.other": "Something went wrong",
  "panel.errorPage.unexpected":
    "It wasn't anything you did. Try again in a moment; if it keeps happening, quote the reference below.",
  "panel.errorPage.reference": "Reference:",
  "panel.errorPage.home": "Back to the home page",
  "panel.errorPage.panel": "Go to the panel",
} as const;

const auth = {
  "panel.signIn.title": "Sign in",
  "panel.signIn.email": "E-mail",
  "panel.signIn.password": "Password",
  "panel.signIn.submit": "Sign in",
  "panel.signIn.signedOut": "You are signed out.",
  "panel.signIn.demo":
    "First start? The demo owner {email} and a one-time password were printed by the server when it created the demo organisation. Team members get an invitation link instead.",
  "panel.invite.title": "Join {org}",
  "panel.invite.role.OWNER": "an owner (everything, including the team and owners)",
  "panel.invite.role.ADMIN": "an admin (integration, refunds and the team)",
  "panel.invite.role.MEMBER": "a member (offers and payments)",
  "panel.invite.lead": "{inviter} invited {email} to join {org} as {role}.",
  "panel.invite.anOwner": "An owner",
  "panel.invite.already": "Already use Paystead as {email}?",
  "panel.invite.signInToAccept": "Sign in to accept",
  "panel.invite.otherwise": "Otherwise choose your name and password here.",
  "panel.invite.name": "Your name",
  "panel.invite.password": "Choose a password",
  "panel.invite.confirm": "Repeat the password",
  "panel.invite.create": "Create my account and join",
  "panel.invite.otherUser":
    "You are signed in as {visitor}. Sign out, then sign in as {email} and open this link again to accept.",
  "panel.invite.accept": "Accept and open {org}",
} as const;

const account = {
  "panel.account.title": "Account",
  "panel.account.description": "Your sign-in, for every organisation you belong to.",
  "panel.account.you": "You",
  "panel.account.email": "E-mail",
  "panel.account.name": "Name",
  "panel.account.role": "Role",
  "panel.account.signedIn": "Signed in",
  "panel.account.sessionEnds": "Session ends",
  "panel.account.sessions":
    "Sessions end after {idle, plural, one {# hour} other {# hours}} without activity and {absolute, plural, one {# hour} other {# hours}} after signing in.",
  "panel.account.changePassword": "Change password",
  "panel.account.current": "Current password",
  "panel.account.newPassword": "New password",
  "panel.account.repeat": "Repeat the new password",
  "panel.account.saveContinue": "Save and continue",
  "panel.account.choose.title": "Choose your password",
  "panel.account.choose.lead":
    "You signed in as {email} with a one-time password. Choose your own to continue; the one-time password stops working.",
  "panel.account.passwordChanged": "Your password is changed. Your other sessions were signed out.",
  "panel.account.language": "Language",
  "panel.account.languageHint":
    "The panel's language for you, in every organisation. The browser's language is used until you choose.",
  "panel.account.languageAuto": "The browser's language",
  "panel.account.languageSave": "Save changes",
  "panel.account.languageChanged": "Your language is saved.",
} as const;

export const panel = {
  ...frame,
  ...shared,
  ...errors,
  ...auth,
  ...account,
  ...panelHome,
  ...panelApiKeys,
  ...panelTeam,
  ...panelPayments,
  ...panelOffers,
  ...panelWebhooks,
  ...panelCheckout,
  ...panelErrors,
  ...panelConfig,
  ...panelReference,
  ...panelQuickstart,
  ...panelQuickstartPage,
  ...panelDevelopers,
  ...panelEmails,
  ...panelRecords,
  ...panelBusiness,
} as const;
