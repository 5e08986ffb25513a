/** An operations command that cannot go on; the message says why and what to do. */
export class OpsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OpsError";
  }
}

/** A mistake in how an operations command was called; printed with the usage. */
export class OpsUsageError extends Error {}
