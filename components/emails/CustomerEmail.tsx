import { Fragment } from "preact";
import type { EmailParts } from "../../lib/emails/content.ts";
import type { Language } from "../../lib/i18n/mod.ts";

// NOTE: mail clients drop <style> and external CSS, so every style is inline, and the layout is
// one table-free column that reads the same in the plain-text body.
const BODY = "margin:0;padding:24px;background:#f4f5f7;color:#1f2430;" +
  "font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5";
const CARD = "max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px";
const H1 = "margin:0 0 12px;font-size:22px;line-height:1.3";
const H2 = "margin:20px 0 6px;font-size:16px";
const P = "margin:0 0 4px";
const BUTTON = "display:inline-block;margin:16px 0 4px;padding:12px 20px;border-radius:6px;" +
  "background:#1f4fd1;color:#ffffff;font-weight:bold;text-decoration:none";
const FOOTER = "max-width:560px;margin:16px auto 0;color:#5b6172;font-size:13px";

/** A customer e-mail's HTML body: the same parts as its plain text, in the customer's language. */
export function CustomerEmail(props: { parts: EmailParts; language: Language }) {
  const { parts } = props;
  return (
    <html lang={props.language}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{parts.subject}</title>
      </head>
      <body style={BODY}>
        <div style={CARD}>
          <h1 style={H1}>{parts.heading}</h1>
          <p style={P}>{parts.intro}</p>
          {parts.action && (
            <p style={P}>
              <a href={parts.action.url} style={BUTTON}>{parts.action.label}</a>
            </p>
          )}
          {parts.sections.map((section, index) => (
            <Fragment key={index}>
              <h2 style={H2}>{section.heading}</h2>
              {section.lines.map((line, row) => <p key={row} style={P}>{line}</p>)}
            </Fragment>
          ))}
        </div>
        <div style={FOOTER}>
          {parts.footer.map((line, row) => <p key={row} style={P}>{line}</p>)}
        </div>
      </body>
    </html>
  );
}
