import type { ComponentChildren } from "preact";
import { assetHref } from "../routes/static.ts";

/** Page families; the panel's also load panel.css, so customers' pages stay light. */
type LayoutVariant = "embedded" | "hosted" | "message" | "panel" | "auth";

/**
 * The HTML document every page shares: one stylesheet (two for the panel) and, when the page
 * has islands, the island bundle, all served by this process (no CDN, no web fonts).
 */
export function Layout(props: {
  title: string;
  /** Names the page's look in CSS: `page--embedded`, `page--hosted`, `page--panel`, ... */
  variant: LayoutVariant;
  islands?: boolean;
  /** Other scripts of `static/` the page needs (the panel's preview loads embed.js). */
  scripts?: string[];
  /** A signed-in page's CSRF token, which its islands send with their requests. */
  csrf?: string;
  /** Without JavaScript, reload the page every this many seconds (a payment being decided). */
  refreshSeconds?: number;
  /** Reload into `url` every `seconds`, with or without JavaScript (a page that only waits). */
  reload?: { seconds: number; url: string };
  /** The page's language (`<html lang>`): the customer's on their pages, English in the panel. */
  lang?: string;
  children: ComponentChildren;
}) {
  const panel = props.variant === "panel" || props.variant === "auth";
  return (
    <html lang={props.lang ?? "en"}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="color-scheme" content="light" />
        {props.csrf && <meta name="csrf-token" content={props.csrf} />}
        {props.refreshSeconds !== undefined && (
          <noscript>
            <meta http-equiv="refresh" content={String(props.refreshSeconds)} />
          </noscript>
        )}
        {props.reload && (
          <meta http-equiv="refresh" content={`${props.reload.seconds}; url=${props.reload.url}`} />
        )}
        <title>{props.title}</title>
        <link rel="icon" type="image/svg+xml" href={assetHref("favicon.svg")} />
        <link rel="stylesheet" href={assetHref("app.css")} />
        {panel && <link rel="stylesheet" href={assetHref("panel.css")} />}
        {props.scripts?.map((name) => <script key={name} src={assetHref(name)} />)}
        {props.islands && <script type="module" src={assetHref("islands.js")} />}
      </head>
      <body class={`page page--${props.variant}`}>{props.children}</body>
    </html>
  );
}
