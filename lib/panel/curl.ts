/**
 * Commands shown to developers. Pure (no database, no Deno): the Quick Start island builds them
 * in the browser with the ids its steps produce.
 */

/** Marks a shell variable inside a path or a body string (see `shellVariable`). */
const MARK = "\u0000";

/**
 * `$NAME` in a command: put it in a path or a body value, and the command expands it, so a
 * command can use an id an earlier command captured (`QR_ID=$(curl ...)`) instead of a placeholder
 * nobody can paste.
 */
export function shellVariable(name: string): string {
  return `${MARK}${name}${MARK}`;
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * `text` as one shell word: single quotes, or double quotes around the `$NAME`s that `parts`
 * (text split on the marked variables: literal, name, literal, ...) holds.
 */
function shellWord(parts: string[]): string {
  if (parts.length === 1) return shellQuote(parts[0]);
  const quoted = parts.map((part, index) =>
    index % 2 === 1 ? `$${part}` : part.replace(/[\\"$`]/g, "\\$&")
  );
  return `"${quoted.join("")}"`;
}

/**
 * The `curl` that POSTs a file as the request body (`--data-binary @file`), for an operation
 * whose body is not JSON (a CSV statement): the file is named by its type, `request.csv`.
 */
export function curlUploadCommand(baseUrl: string, path: string, contentType: string): string {
  const file = `request.${contentType.split("/")[1].replace(/\W.*$/, "")}`;
  return [
    `curl ${baseUrl}${path}`,
    `  -H "Authorization: Bearer $PAYSTEAD_KEY"`,
    `  -H "Content-Type: ${contentType}"`,
    `  --data-binary @${file}`,
  ].join(" \\\n");
}

/** How a command keeps a field of its JSON answer in a shell variable, for later commands. */
export interface Capture {
  variable: string;
  field: string;
}

/**
 * The `curl` of an API call as a developer would type it, with the key read from the
 * PAYSTEAD_KEY variable (never the key itself: a page shows it, a shell history keeps it).
 * With `capture`, the answer's `field` goes into a variable (`QR_ID=$(curl -s ... | jq -r .qrId)`).
 */
export function curlCommand(
  baseUrl: string,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  body?: unknown,
  capture?: Capture,
): string {
  // -d makes curl POST; every other method is spelled out.
  const implied = method === "GET" || (method === "POST" && body !== undefined);
  const url = `${baseUrl}${path}`;
  const urlParts = url.split(new RegExp(`${MARK}(\\w+)${MARK}`));
  // NOTE: a query's `&` (or `?`, `*`, `;`) means something to the shell; quoted only when it must
  // be, so plain URLs stay as people type them.
  const shown = urlParts.length === 1 && /^[\w:/.%~=-]+$/.test(url) ? url : shellWord(urlParts);
  // Quiet when captured: curl prints its progress meter when its output is not a terminal.
  const quiet = capture ? "-s " : "";
  const lines = [`curl ${quiet}${implied ? "" : `-X ${method} `}${shown}`];
  lines.push(`  -H "Authorization: Bearer $PAYSTEAD_KEY"`);
  if (body !== undefined) {
    lines.push(`  -H "Content-Type: application/json"`);
    // JSON writes the mark as the six characters \u0000.
    lines.push(`  -d ${shellWord(JSON.stringify(body).split(/\\u0000(\w+)\\u0000/))}`);
  }
  const command = lines.join(" \\\n");
  return capture ? `${capture.variable}=$(${command} | jq -r .${capture.field})` : command;
}
