import type { ComponentChildren } from "preact";
import type { Environment } from "../../lib/config.ts";
import type { Plan, Role } from "../../lib/plans.ts";
import type { TestPayments } from "../../lib/providers/mod.ts";
import { Layout } from "../Layout.tsx";
import { useT } from "./i18n.ts";
import { CsrfField, Notice } from "./ui.tsx";

/** Where a page sits in the navigation. */
export type NavKey =
  | "none"
  | "home"
  | "payments"
  | "offers"
  | "team"
  | "account"
  | "developers"
  | "api-keys"
  | "webhooks"
  | "checkout"
  | "quickstart"
  | "config-transfer"
  | "mailbox"
  | "reference";

/** What the panel's frame shows around every page, computed once per request. */
export interface PanelChrome {
  environment: Environment;
  /** The other environment's panel, for the switch. */
  otherPanelUrl: string;
  /** How many days this organisation's sandbox clock runs ahead (0 in production). */
  clockAheadDays: number;
  csrf: string;
  user: { email: string; name: string | null; role: Role };
  org: { name: string; slug: string; plan: Plan };
  organisations: { slug: string; name: string; role: Role }[];
  /** Developers: hidden (MEMBER), shown, or shown with an upgrade mark (FREE). */
  developers: "hidden" | "open" | "upgrade";
  quickstart: boolean;
  /** Shown to owners while the last scheduled backup failed. */
  backupFailure: { at: string; message: string } | null;
  /** Why production takes no real money (its provider's sandbox host or public POS), by whom. */
  testPayments: { provider: string; reason: TestPayments } | null;
}

function NavLink(props: {
  href: string;
  current: boolean;
  children: ComponentChildren;
  tag?: string;
}) {
  return (
    <li>
      <a
        href={props.href}
        class={`nav__link ${props.current ? "nav__link--current" : ""}`}
        aria-current={props.current ? "page" : undefined}
      >
        <span>{props.children}</span>
        {props.tag && <span class="nav__tag">{props.tag}</span>}
      </a>
    </li>
  );
}

function EnvironmentSwitch(props: { chrome: PanelChrome }) {
  const { t } = useT();
  const here = props.chrome.environment;
  const other: Environment = here === "sandbox" ? "production" : "sandbox";
  return (
    <details class="menu env-switch">
      <summary class={`env-switch__current env-switch__current--${here}`}>
        <span class="env-switch__dot" aria-hidden="true" />
        {t(`panel.env.${here}`)}
        <span class="visually-hidden">{t("panel.env.switch")}</span>
      </summary>
      <div class="menu__panel env-switch__panel">
        <p class="menu__heading">{t("panel.env.heading")}</p>
        <ul class="menu__list">
          <li>
            <span class="menu__item menu__item--current" aria-current="true">
              {t(`panel.env.${here}`)} <span class="muted">{t("panel.env.here")}</span>
            </span>
          </li>
          <li>
            <a class="menu__item" href={props.chrome.otherPanelUrl}>
              {t("panel.env.goTo", { environment: t(`panel.env.${other}`) })}
            </a>
          </li>
        </ul>
        <p class="menu__note">{t("panel.env.note")}</p>
      </div>
    </details>
  );
}

/** An e-mail address that wraps, when it must, before its "@" (then anywhere, if still too long). */
function WrappingEmail(props: { email: string }) {
  const at = props.email.lastIndexOf("@");
  if (at < 1) return <>{props.email}</>;
  return (
    <>
      {props.email.slice(0, at)}
      <wbr />
      {props.email.slice(at)}
    </>
  );
}

function UserMenu(props: { chrome: PanelChrome }) {
  const { t } = useT();
  const { user, org, organisations, csrf } = props.chrome;
  const others = organisations.filter((entry) => entry.slug !== org.slug);
  // A blank name is no name: the e-mail says who is signed in.
  const name = user.name?.trim() || null;
  return (
    <details class="menu user-menu">
      <summary class="user-menu__summary">
        <span class="avatar" aria-hidden="true">
          {(name ?? user.email).charAt(0).toUpperCase()}
        </span>
        <span class="user-menu__name">
          {name ?? <WrappingEmail email={user.email} />}
        </span>
      </summary>
      <div class="menu__panel menu__panel--right">
        <p class="menu__heading user-menu__who">
          {name && <span class="user-menu__full-name">{name}</span>}
          <span class="user-menu__email">
            <WrappingEmail email={user.email} />
          </span>
          <span class="muted">
            {t("panel.user.roleOf", { role: t(`panel.role.${user.role}`), org: org.name })}
          </span>
        </p>
        <ul class="menu__list">
          <li>
            <a class="menu__item" href="/panel/account">{t("panel.user.account")}</a>
          </li>
        </ul>
        {others.length > 0 && (
          <form method="post" action="/panel/switch-organisation" class="menu__form">
            <CsrfField token={csrf} />
            <p class="menu__heading">{t("panel.user.switchOrg")}</p>
            {others.map((entry) => (
              <button type="submit" name="org" value={entry.slug} class="menu__item menu__button">
                {entry.name} <span class="muted">({t(`panel.role.${entry.role}`)})</span>
              </button>
            ))}
          </form>
        )}
        <form method="post" action="/panel/sign-out" class="menu__form">
          <CsrfField token={csrf} />
          <button type="submit" class="menu__item menu__button">
            {t("panel.user.signOut")}
          </button>
        </form>
      </div>
    </details>
  );
}

/**
 * The frame of every signed-in page: the sandbox strip, the header with the environment switch
 * and the user menu, the navigation (Developers only for owners and admins) and the content.
 */
export function Shell(props: {
  title: string;
  current: NavKey;
  chrome: PanelChrome;
  scripts?: string[];
  children: ComponentChildren;
}) {
  const { chrome, current } = props;
  const { t, language } = useT();
  const testPaymentsText = ({ provider, reason }: NonNullable<PanelChrome["testPayments"]>) =>
    reason.kind === "host"
      ? t("panel.testPayments.host", { provider, setting: reason.setting, host: reason.host })
      : t("panel.testPayments.pos", { provider, setting: reason.setting, posId: reason.posId });
  const sandbox = chrome.environment === "sandbox";
  const developer = [
    "developers",
    "api-keys",
    "webhooks",
    "checkout",
    "quickstart",
    "config-transfer",
    "mailbox",
    "reference",
  ];
  return (
    <Layout
      title={t("panel.title", {
        page: props.title,
        org: chrome.org.name,
        environment: t(`panel.env.${chrome.environment}`),
      })}
      variant="panel"
      islands
      scripts={props.scripts}
      csrf={chrome.csrf}
      lang={language}
    >
      <a class="skip-link" href="#main">{t("panel.skip")}</a>
      {sandbox && (
        <aside class="sandbox-strip" aria-label={t("panel.sandbox.region")}>
          <strong>{t("panel.sandbox.label")}</strong>{" "}
          <span>
            {t("panel.sandbox.text")}
            {chrome.clockAheadDays > 0 &&
              ` ${t("panel.sandbox.clock", { days: chrome.clockAheadDays })}`}
          </span>
        </aside>
      )}
      {chrome.testPayments !== null && (
        <p class="test-payments-strip" role="alert">
          <strong>{t("panel.testPayments.label")}</strong>{" "}
          <span>
            {testPaymentsText(chrome.testPayments)}
          </span>
        </p>
      )}
      <div class={`shell ${sandbox ? "shell--sandbox" : ""}`}>
        <header class="topbar">
          <a class="brand" href="/panel">
            <span class="brand__mark" aria-hidden="true">P</span>
            <span class="brand__name">Paystead</span>
          </a>
          <span class="topbar__org" title={t("panel.plan", { plan: chrome.org.plan })}>
            {chrome.org.name} <span class="plan-tag">{chrome.org.plan}</span>
          </span>
          <div class="topbar__right">
            <EnvironmentSwitch chrome={chrome} />
            <UserMenu chrome={chrome} />
          </div>
        </header>
        <nav class="nav" aria-label={t("panel.nav.label")}>
          <ul class="nav__list">
            <NavLink href="/panel" current={current === "home"}>{t("panel.nav.home")}</NavLink>
            <NavLink href="/panel/payments" current={current === "payments"}>
              {t("panel.nav.payments")}
            </NavLink>
            <NavLink href="/panel/offers" current={current === "offers"}>
              {t("panel.nav.offers")}
            </NavLink>
            <NavLink href="/panel/team" current={current === "team"}>{t("panel.nav.team")}</NavLink>
          </ul>
          {chrome.developers !== "hidden" && (
            <>
              <p class="nav__group">{t("panel.nav.developers")}</p>
              <ul class="nav__list">
                <NavLink
                  href="/panel/developers"
                  current={current === "developers"}
                  tag={chrome.developers === "upgrade" ? t("panel.nav.upgrade") : undefined}
                >
                  {t("panel.nav.overview")}
                </NavLink>
                {chrome.developers === "open" && (
                  <>
                    <NavLink href="/panel/developers/api-keys" current={current === "api-keys"}>
                      {t("panel.nav.apiKeys")}
                    </NavLink>
                    <NavLink href="/panel/developers/webhooks" current={current === "webhooks"}>
                      {t("panel.nav.webhooks")}
                    </NavLink>
                    <NavLink href="/panel/developers/checkout" current={current === "checkout"}>
                      {t("panel.nav.checkout")}
                    </NavLink>
                    <NavLink
                      href="/panel/developers/config-transfer"
                      current={current === "config-transfer"}
                    >
                      {t("panel.nav.configTransfer")}
                    </NavLink>
                    {sandbox && (
                      <NavLink
                        href="/panel/developers/mailbox"
                        current={current === "mailbox"}
                      >
                        {t("panel.nav.mailbox")}
                      </NavLink>
                    )}
                    {chrome.quickstart && (
                      <NavLink
                        href="/panel/developers/quickstart"
                        current={current === "quickstart"}
                      >
                        {t("panel.nav.quickstart")}
                      </NavLink>
                    )}
                  </>
                )}
                <NavLink href="/panel/reference" current={current === "reference"}>
                  {t("panel.nav.reference")}
                </NavLink>
              </ul>
            </>
          )}
          {chrome.developers === "hidden" && developer.includes(current) && (
            <ul class="nav__list">
              <NavLink href="/panel/reference" current>{t("panel.nav.reference")}</NavLink>
            </ul>
          )}
        </nav>
        <main class="content" id="main" tabIndex={-1}>
          {chrome.backupFailure && (
            <Notice tone="error" title={t("panel.backup.title")}>
              {t("panel.backup.text", {
                at: chrome.backupFailure.at,
                message: chrome.backupFailure.message,
              })}
            </Notice>
          )}
          {props.children}
        </main>
      </div>
    </Layout>
  );
}
