import type { ComponentChildren } from "preact";
import { CheckIcon, ClockIcon, CrossIcon } from "./icons.tsx";
import { Layout } from "./Layout.tsx";
import { LanguageSwitch, type LanguageSwitchLink } from "./LanguageSwitch.tsx";

/**
 * A page that only says something: an unknown link, an offer no longer available, an error. It
 * never shows internals; `reference` is the line with the request id a customer can quote.
 */
export function MessagePage(props: {
  title: string;
  tone: "error" | "neutral" | "success";
  reference?: string;
  /** The page's language; English (the panel's) unless a customer's page says otherwise. */
  lang?: string;
  /** A customer's page: the link to the same page in the other language. */
  switchTo?: LanguageSwitchLink;
  /** A page that waits: reloads itself into `url` every `seconds`. */
  reload?: { seconds: number; url: string };
  children: ComponentChildren;
}) {
  return (
    <Layout title={props.title} variant="message" lang={props.lang} reload={props.reload}>
      <main class="message">
        {props.switchTo && <LanguageSwitch link={props.switchTo} />}
        <div class={`message__card message__card--${props.tone}`}>
          <span class="message__icon">
            {props.tone === "error"
              ? <CrossIcon />
              : props.tone === "success"
              ? <CheckIcon />
              : <ClockIcon />}
          </span>
          <h1>{props.title}</h1>
          {props.children}
          {props.reference && <p class="message__reference">{props.reference}</p>}
        </div>
      </main>
    </Layout>
  );
}
