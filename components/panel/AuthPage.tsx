import type { ComponentChildren } from "preact";
import type { Environment } from "../../lib/config.ts";
import { Layout } from "../Layout.tsx";
import { useT } from "./i18n.ts";

/** The frame of the pages before sign-in: sign-in, an invitation, choosing a password. */
export function AuthPage(props: {
  title: string;
  environment: Environment;
  csrf?: string;
  children: ComponentChildren;
}) {
  const sandbox = props.environment === "sandbox";
  const { t, language } = useT();
  return (
    <Layout
      title={`${props.title} · Paystead`}
      variant="auth"
      islands
      csrf={props.csrf}
      lang={language}
    >
      {sandbox && (
        <aside class="sandbox-strip" aria-label={t("panel.sandbox.region")}>
          <strong>{t("panel.sandbox.label")}</strong> <span>{t("panel.sandbox.text")}</span>
        </aside>
      )}
      <main class="auth" id="main">
        <div class="auth__card">
          <p class="auth__brand">
            <span class="brand__mark" aria-hidden="true">P</span>
            <span>Paystead</span>
            <span class={`env-pill env-pill--${props.environment}`}>
              {t(sandbox ? "panel.env.sandbox" : "panel.env.production")}
            </span>
          </p>
          <h1 class="auth__title">{props.title}</h1>
          {props.children}
        </div>
      </main>
    </Layout>
  );
}
