import type { ComponentChildren } from "preact";
import type { Environment } from "../../lib/config.ts";
import { Layout } from "../Layout.tsx";

/** The frame of the pages before sign-in: sign-in, an invitation, choosing a password. */
export function AuthPage(props: {
  title: string;
  environment: Environment;
  csrf?: string;
  children: ComponentChildren;
}) {
  const sandbox = props.environment === "sandbox";
  return (
    <Layout title={`${props.title} · Paystead`} variant="auth" islands csrf={props.csrf}>
      {sandbox && (
        <p class="sandbox-strip">
          <strong>Sandbox</strong> <span>Test data only: no real money moves.</span>
        </p>
      )}
      <main class="auth" id="main">
        <div class="auth__card">
          <p class="auth__brand">
            <span class="brand__mark" aria-hidden="true">P</span>
            <span>Paystead</span>
            <span class={`env-pill env-pill--${props.environment}`}>
              {sandbox ? "Sandbox" : "Production"}
            </span>
          </p>
          <h1 class="auth__title">{props.title}</h1>
          {props.children}
        </div>
      </main>
    </Layout>
  );
}
