/** Paystead's version: the one place it is written; `version` prints it. */
export const VERSION = "0.13.0";
