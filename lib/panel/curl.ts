/**
 * Commands shown to developers. Pure (no database, no Deno): the Quick Start island builds them
 * in the browser with the ids its steps produce.
 */

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The `curl` of an API call as a developer would type it, with the key read from the
 * PAYSTEAD_KEY variable (never the key itself: a page shows it, a shell history keeps it).
 */
export function curlCommand(
  baseUrl: string,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  body?: unknown,
): string {
  // -d makes curl POST; every other method is spelled out.
  const implied = method === "GET" || (method === "POST" && body !== undefined);
  const url = `${baseUrl}${path}`;
  // NOTE: a query's `&` (or `?`, `*`, `;`) means something to the shell; quoted only when it must
  // be, so plain URLs stay as people type them.
  const shown = /^[\w:/.%~=-]+$/.test(url) ? url : shellQuote(url);
  const lines = [`curl ${implied ? "" : `-X ${method} `}${shown}`];
  lines.push(`  -H "Authorization: Bearer $PAYSTEAD_KEY"`);
  if (body !== undefined) {
    lines.push(`  -H "Content-Type: application/json"`);
    lines.push(`  -d ${shellQuote(JSON.stringify(body))}`);
  }
  return lines.join(" \\\n");
}
