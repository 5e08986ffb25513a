import type { ComponentChildren } from "preact";
import { assetHref } from "../routes/static.ts";

/**
 * The HTML document every page shares: one stylesheet and, when the page has islands, the
 * island bundle, all served by this process (no CDN, no web fonts).
 */
export function Layout(props: {
  title: string;
  /** Names the page's look in CSS: `page--embedded`, `page--hosted`, `page--message`. */
  variant: "embedded" | "hosted" | "message";
  islands?: boolean;
  children: ComponentChildren;
}) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="color-scheme" content="light" />
        <title>{props.title}</title>
        <link rel="icon" type="image/svg+xml" href={assetHref("favicon.svg")} />
        <link rel="stylesheet" href={assetHref("app.css")} />
        {props.islands && <script type="module" src={assetHref("islands.js")} />}
      </head>
      <body class={`page page--${props.variant}`}>{props.children}</body>
    </html>
  );
}
