import { LOG_LEVELS, type LogLevel } from "./config.ts";

/** Structured fields of a log line. Never put a secret, an API key or a payment code here. */
export type LogFields = Record<string, unknown>;

/** Writes JSON lines to stderr at or above a level. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** A logger that writes one JSON object per line to `write` (stderr by default). */
export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => console.error(line),
): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const emit = (lineLevel: LogLevel) => (message: string, fields: LogFields = {}) => {
    if (LOG_LEVELS.indexOf(lineLevel) < threshold) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: lineLevel, message, ...fields }));
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}

/** A logger that drops everything, for tests that do not look at logs. */
export const silentLogger: Logger = createLogger("error", () => {});

/** The fields worth logging of an unexpected error. */
export function errorFields(error: unknown): LogFields {
  return error instanceof Error
    ? { error: error.message, errorName: error.name, stack: error.stack }
    : { error: String(error) };
}
