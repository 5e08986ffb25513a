import type { ComponentChildren } from "preact";
import { ClockIcon, CrossIcon } from "./icons.tsx";
import { Layout } from "./Layout.tsx";

/**
 * A page that only says something: an unknown link, an offer no longer available, an error. It
 * never shows internals; `reference` is the request id a customer can quote.
 */
export function MessagePage(props: {
  title: string;
  tone: "error" | "neutral";
  reference?: string;
  children: ComponentChildren;
}) {
  return (
    <Layout title={props.title} variant="message">
      <main class="message">
        <div class={`message__card message__card--${props.tone}`}>
          <span class="message__icon">
            {props.tone === "error" ? <CrossIcon /> : <ClockIcon />}
          </span>
          <h1>{props.title}</h1>
          {props.children}
          {props.reference && <p class="message__reference">Reference: {props.reference}</p>}
        </div>
      </main>
    </Layout>
  );
}
