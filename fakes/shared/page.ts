/**
 * The fakes' own pages (an acquirer's pay page standing in for the bank): plain HTML forms that
 * work without JavaScript, in Polish or English.
 */

/** The languages the fakes' pages speak. */
export type Language = "pl" | "en";

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The page's language: `?lang=` first, then the language the merchant sent with the order, then
 * the browser's Accept-Language, then Polish.
 */
export function pickLanguage(
  query: string | undefined,
  ordered: string | undefined,
  acceptLanguage: string | undefined,
): Language {
  for (const candidate of [query, ordered]) {
    const lang = candidate?.trim().toLowerCase().slice(0, 2);
    if (lang === "pl" || lang === "en") return lang;
  }
  const ranked = (acceptLanguage ?? "").split(",").map((part, index) => {
    const [tag, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
    return { lang: tag.slice(0, 2), q: q === undefined ? 1 : Number(q), index };
  }).filter((entry) => (entry.lang === "pl" || entry.lang === "en") && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (ranked[0]?.lang as Language | undefined) ?? "pl";
}

/** An amount of minor units as a customer reads it, e.g. `12,50 zł`. */
export function formatAmount(minor: number | bigint, currency: string, lang: Language): string {
  const value = Number(minor) / (currency === "HUF" ? 1 : 100);
  try {
    return new Intl.NumberFormat(lang === "pl" ? "pl-PL" : "en-GB", {
      style: "currency",
      currency,
    }).format(value);
  } catch {
    return `${value.toFixed(2)} ${currency}`;
  }
}

/** A whole page around `body` (already escaped HTML). */
export function htmlPage(lang: Language, title: string, body: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f4f6;color:#1d1d22}
main{max-width:32rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:.5rem}
h1{font-size:1.4rem;margin-top:0}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}
dt{color:#55555f}dd{margin:0;font-weight:600}
fieldset{border:1px solid #ccc;border-radius:.5rem;margin:1rem 0}
label{display:flex;gap:.5rem;align-items:center;padding:.25rem 0}
label img{width:3rem;height:1.5rem}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:1rem}
button{font:inherit;padding:.6rem 1rem;border-radius:.4rem;border:1px solid #2f2f8f;cursor:pointer}
button[value=pay]{background:#2f2f8f;color:#fff}
button[value=decline]{background:#fff;color:#8f1f1f;border-color:#8f1f1f}
button[value=leave]{background:#fff;color:#2f2f8f}
.note{color:#55555f;font-size:.9rem}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** A text/html response. */
export function htmlResponse(html: string, status = 200): Response {
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}

/** A 303 to where the customer goes next. */
export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });
}
