import type { ComponentChildren } from "preact";
import type { Environment } from "../../lib/config.ts";
import type { Plan, Role } from "../../lib/plans.ts";
import { Layout } from "../Layout.tsx";
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
  /** Why production takes no real money (PayU's sandbox host or public POS); null if it may. */
  testPayments: string | null;
}

const ENV_LABEL: Record<Environment, string> = { sandbox: "Sandbox", production: "Production" };

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
  const here = props.chrome.environment;
  const other: Environment = here === "sandbox" ? "production" : "sandbox";
  return (
    <details class="menu env-switch">
      <summary class={`env-switch__current env-switch__current--${here}`}>
        <span class="env-switch__dot" aria-hidden="true" />
        {ENV_LABEL[here]}
        <span class="visually-hidden">environment: switch</span>
      </summary>
      <div class="menu__panel env-switch__panel">
        <p class="menu__heading">Environment</p>
        <ul class="menu__list">
          <li>
            <span class="menu__item menu__item--current" aria-current="true">
              {ENV_LABEL[here]} <span class="muted">(you are here)</span>
            </span>
          </li>
          <li>
            <a class="menu__item" href={props.chrome.otherPanelUrl}>
              Go to {ENV_LABEL[other]} →
            </a>
          </li>
        </ul>
        <p class="menu__note">
          Switching copies nothing. API keys, offers, webhooks and checkout settings are set up
          separately in each environment; move them by hand when you go live.
        </p>
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
            {user.role.charAt(0) + user.role.slice(1).toLowerCase()} of {org.name}
          </span>
        </p>
        <ul class="menu__list">
          <li>
            <a class="menu__item" href="/panel/account">Account and password</a>
          </li>
        </ul>
        {others.length > 0 && (
          <form method="post" action="/panel/switch-organisation" class="menu__form">
            <CsrfField token={csrf} />
            <p class="menu__heading">Switch organisation</p>
            {others.map((entry) => (
              <button type="submit" name="org" value={entry.slug} class="menu__item menu__button">
                {entry.name} <span class="muted">({entry.role})</span>
              </button>
            ))}
          </form>
        )}
        <form method="post" action="/panel/sign-out" class="menu__form">
          <CsrfField token={csrf} />
          <button type="submit" class="menu__item menu__button">Sign out</button>
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
      title={`${props.title} · ${chrome.org.name} · Paystead ${ENV_LABEL[chrome.environment]}`}
      variant="panel"
      islands
      scripts={props.scripts}
      csrf={chrome.csrf}
    >
      <a class="skip-link" href="#main">Skip to content</a>
      {sandbox && (
        <p class="sandbox-strip">
          <strong>Sandbox</strong>{" "}
          <span>
            Test data only: no real money moves.
            {chrome.clockAheadDays > 0 &&
              ` This organisation's sandbox clock runs ${chrome.clockAheadDays} day${
                chrome.clockAheadDays === 1 ? "" : "s"
              } ahead.`}
          </span>
        </p>
      )}
      {chrome.testPayments !== null && (
        <p class="test-payments-strip" role="alert">
          <strong>Test payments</strong>{" "}
          <span>{chrome.testPayments}: no real money moves, whatever this panel shows.</span>
        </p>
      )}
      <div class={`shell ${sandbox ? "shell--sandbox" : ""}`}>
        <header class="topbar">
          <a class="brand" href="/panel">
            <span class="brand__mark" aria-hidden="true">P</span>
            <span class="brand__name">Paystead</span>
          </a>
          <span class="topbar__org" title={`Plan ${chrome.org.plan}`}>
            {chrome.org.name} <span class="plan-tag">{chrome.org.plan}</span>
          </span>
          <div class="topbar__right">
            <EnvironmentSwitch chrome={chrome} />
            <UserMenu chrome={chrome} />
          </div>
        </header>
        <nav class="nav" aria-label="Panel">
          <ul class="nav__list">
            <NavLink href="/panel" current={current === "home"}>Home</NavLink>
            <NavLink href="/panel/payments" current={current === "payments"}>Payments</NavLink>
            <NavLink href="/panel/offers" current={current === "offers"}>Offers</NavLink>
            <NavLink href="/panel/team" current={current === "team"}>Team and plan</NavLink>
          </ul>
          {chrome.developers !== "hidden" && (
            <>
              <p class="nav__group">Developers</p>
              <ul class="nav__list">
                <NavLink
                  href="/panel/developers"
                  current={current === "developers"}
                  tag={chrome.developers === "upgrade" ? "Upgrade" : undefined}
                >
                  Overview
                </NavLink>
                {chrome.developers === "open" && (
                  <>
                    <NavLink href="/panel/developers/api-keys" current={current === "api-keys"}>
                      API keys
                    </NavLink>
                    <NavLink href="/panel/developers/webhooks" current={current === "webhooks"}>
                      Webhooks
                    </NavLink>
                    <NavLink href="/panel/developers/checkout" current={current === "checkout"}>
                      Checkout sessions
                    </NavLink>
                    <NavLink
                      href="/panel/developers/config-transfer"
                      current={current === "config-transfer"}
                    >
                      Copy configuration
                    </NavLink>
                    {sandbox && (
                      <NavLink
                        href="/panel/developers/mailbox"
                        current={current === "mailbox"}
                      >
                        Sandbox mailbox
                      </NavLink>
                    )}
                    {chrome.quickstart && (
                      <NavLink
                        href="/panel/developers/quickstart"
                        current={current === "quickstart"}
                      >
                        Quick Start
                      </NavLink>
                    )}
                  </>
                )}
                <NavLink href="/panel/reference" current={current === "reference"}>
                  API reference
                </NavLink>
              </ul>
            </>
          )}
          {chrome.developers === "hidden" && developer.includes(current) && (
            <ul class="nav__list">
              <NavLink href="/panel/reference" current>API reference</NavLink>
            </ul>
          )}
        </nav>
        <main class="content" id="main" tabIndex={-1}>
          {chrome.backupFailure && (
            <Notice tone="error" title="The last scheduled backup failed">
              At {chrome.backupFailure.at}: {chrome.backupFailure.message}{" "}
              The server logs say more; backups are retried every few minutes.
            </Notice>
          )}
          {props.children}
        </main>
      </div>
    </Layout>
  );
}
