import { LOG_LEVELS, type LogLevel } from "./config.ts";

/** Structured fields of a log line. Never put a secret, an API key or a payment code here. */
type LogFields = Record<string, unknown>;

/** Writes JSON lines to stderr at or above a level. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/**
 * A logger that writes one JSON object per line to `write`. By default lines go to stderr,
 * gathered into one write per event-loop turn; a warning or an error is written at once, with
 * everything before it, so a crash never loses the line that explains it.
 */
export function createLogger(
  level: LogLevel,
  write: (line: string, urgent: boolean) => void = stderrLines().write,
): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const emit = (lineLevel: LogLevel) => {
    const rank = LOG_LEVELS.indexOf(lineLevel);
    const urgent = rank >= LOG_LEVELS.indexOf("warn");
    const head = `","level":"${lineLevel}","message":`;
    return (message: string, fields: LogFields = {}) => {
      if (rank < threshold) return;
      // Built by hand: a request line is written for every request.
      const rest = JSON.stringify(fields);
      write(
        `{"time":"${isoNow()}${head}${JSON.stringify(message)}${
          rest === "{}" ? "}" : `,${rest.slice(1)}`
        }`,
        urgent,
      );
    };
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}

let lastMs = 0;
let lastIso = "";

/** The current time as ISO text, formatted once per millisecond. */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

let stderr: { write(line: string, urgent: boolean): void } | null = null;

/** The process's one buffered stderr writer: a request log line costs no system call of its own. */
function stderrLines(): { write(line: string, urgent: boolean): void } {
  if (stderr) return stderr;
  const encoder = new TextEncoder();
  let pending: string[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (pending.length === 0) return;
    const bytes = encoder.encode(pending.join("\n") + "\n");
    pending = [];
    for (let written = 0; written < bytes.length;) {
      written += Deno.stderr.writeSync(bytes.subarray(written));
    }
  };
  // Deno.exit() dispatches unload: lines of the last turn are written before the process ends.
  globalThis.addEventListener("unload", flush);
  stderr = {
    write(line, urgent) {
      pending.push(line);
      if (urgent) return flush();
      if (timer === null) {
        timer = setTimeout(flush, 0);
        Deno.unrefTimer(timer);
      }
    },
  };
  return stderr;
}

/** A logger that drops everything, for tests that do not look at logs. */
export const silentLogger: Logger = createLogger("error", () => {});

/** The fields worth logging of an unexpected error. */
export function errorFields(error: unknown): LogFields {
  return error instanceof Error
    ? { error: error.message, errorName: error.name, stack: error.stack }
    : { error: String(error) };
}
